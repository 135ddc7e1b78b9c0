"""Helpers for the checker tests: certificate pools, array (un)packing, hypothesis game specs.

Imported by the other tests/test_checker_*.py files (pytest puts tests/ on sys.path); the few
tests here only check the helpers themselves.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import struct
import zlib
from base64 import b64decode, b64encode
from pathlib import Path

from hypothesis import strategies as st

import checker
from certify.record.certificate import build_certificate, certificate_json, reachable_codes, strategy_moves
from certify.record.schema import StrategyTable
from solver.games.positional.rules import Rules, make_rules, resolve

REPO = Path(__file__).resolve().parents[1]
BUILTINS = ("tictactoe", "w3t", "misere", "notakto", "cumulative")
MARK_RULES = ("own", "either", "x-only")
GOALS = ("first-line-wins", "first-line-loses", "most-lines")
FORMATS = {"uint8": "B", "int8": "b"}
# Small games beside the built-ins, for mutation tests: (name, rows, cols, marks, goal, k or lines).
SMALL_SPECS = (
    ("2x2-k2", 2, 2, "own", "first-line-wins", 2),
    ("2x3-wild-k2", 2, 3, "either", "first-line-wins", 2),
    ("2x4-most-k3", 2, 4, "own", "most-lines", 3),
    ("3x3-k2-notakto", 3, 3, "x-only", "first-line-loses", 2),
    ("1x1", 1, 1, "own", "first-line-loses", 1),
    ("1x3-wild-pairs", 1, 3, "either", "first-line-loses", [[0, 1], [2, 1]]),
    ("2x2-most-cells", 2, 2, "own", "most-lines", [[0], [3], [1, 2]]),
)


def pack(values: list[int], kind: str) -> str:
    """Little-endian, zlib, base64: the format's packed array."""
    raw = struct.pack(f"<{len(values)}{FORMATS[kind]}", *values)
    return b64encode(zlib.compress(raw)).decode("ascii")


def unpack(text: str, kind: str) -> list[int]:
    """Inverse of pack (no defences: test inputs only)."""
    raw = zlib.decompress(b64decode(text))
    return list(struct.unpack(f"<{len(raw) // struct.calcsize(FORMATS[kind])}{FORMATS[kind]}", raw))


def open_arrays(document: dict) -> dict:
    """A deep copy with the packed arrays opened into lists of ints, codes written out.

    table: codes (the reachable states, ascending), values, distances, margins; each strategy:
    codes (its player's turns, ascending), cells, marks. close_arrays packs them back in list order.
    """
    doc = copy.deepcopy(document)
    rules = make_rules(**{key: value for key, value in document["rules"].items() if key != "family"})
    table = doc["table"]
    labels = unpack(table.pop("labels"), "uint8")
    table["codes"] = [int(code) for code in reachable_codes(rules)]
    table["values"] = [label // 64 - 1 for label in labels]
    table["distances"] = [label % 64 for label in labels]
    if table["margins"] is not None:
        table["margins"] = unpack(table["margins"], "int8")
    for strategy in doc["strategies"]:
        moves = sorted(strategy_moves(rules, StrategyTable.model_validate(strategy)).items())
        del strategy["moves"]
        strategy["codes"] = [code for code, _ in moves]
        strategy["cells"] = [move.cell for _, move in moves]
        strategy["marks"] = [move.mark for _, move in moves]
    return doc


def close_arrays(document: dict) -> dict:
    """Inverse of open_arrays (codes dropped); sets table.states and each strategy's entries to the list lengths.

    Out-of-range numbers wrap to a byte, so a mutation stays a well-formed document.
    """
    doc = copy.deepcopy(document)
    table = doc["table"]
    del table["codes"]
    table["labels"] = pack([(64 * (v + 1) + d) & 0xFF for v, d in zip(table.pop("values"), table.pop("distances"))],
                           "uint8")
    table["states"] = len(unpack(table["labels"], "uint8"))
    if table["margins"] is not None:
        table["margins"] = pack([m & 0xFF for m in table["margins"]], "uint8")
    for strategy in doc["strategies"]:
        del strategy["codes"]
        moves = [(16 * mark + cell) & 0xFF for cell, mark in zip(strategy.pop("cells"), strategy.pop("marks"))]
        strategy["entries"] = len(moves)
        strategy["moves"] = pack(moves, "uint8")
    return doc


def rules_sha256(rules: dict) -> str:
    """The format's hash of a rules object: canonical JSON without the name."""
    unnamed = {key: value for key, value in rules.items() if key != "name"}
    text = json.dumps(unnamed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decode(code: int, cells: int) -> list[int]:
    """Board of a state code."""
    return [(code // 3**i) % 3 for i in range(cells)]


def document_for(rules: Rules) -> dict:
    """The solver's certificate for rules, as a parsed JSON document."""
    return json.loads(certificate_json(build_certificate(rules)))


def published_path(name: str) -> Path:
    """certificates/<name>.json."""
    return REPO / "certificates" / f"{name}.json"


@functools.cache
def builtin_document(name: str) -> dict:
    """The published certificate of a built-in game if there is one, else a freshly built one."""
    path = published_path(name)
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return document_for(resolve(name))


def small_rules(spec: tuple) -> Rules:
    """Rules of one SMALL_SPECS entry."""
    name, rows, cols, marks, goal, k_or_lines = spec
    if isinstance(k_or_lines, int):
        return make_rules(name, rows, cols, marks, goal, k=k_or_lines)
    return make_rules(name, rows, cols, marks, goal, lines=k_or_lines)


@functools.cache
def pool() -> dict[str, dict]:
    """Name → certificate document, for every built-in and small game."""
    documents = {name: builtin_document(name) for name in BUILTINS}
    documents.update({spec[0]: document_for(small_rules(spec)) for spec in SMALL_SPECS})
    return documents


def pool_documents() -> st.SearchStrategy[dict]:
    """A certificate from the pool (a shared object: deep-copy before changing it)."""
    return st.sampled_from(sorted(pool())).map(lambda name: pool()[name])


def check(document: object) -> checker.CheckResult:
    """Run the checker in-process on a document, through its JSON text."""
    return checker.check_bytes(json.dumps(document).encode("utf-8"))


SHAPES = [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)] + [(2, 4), (4, 2), (1, 4), (4, 1)]


@st.composite
def random_rules(draw: st.DrawFn) -> Rules:
    """A valid small game: board up to 3x3 or 2x4, k-in-a-row or random lines, any marks and goal."""
    rows, cols = draw(st.sampled_from(SHAPES))
    cells = rows * cols
    goal = draw(st.sampled_from(GOALS))
    marks = "own" if goal == "most-lines" else draw(st.sampled_from(MARK_RULES))
    name = f"random-{rows}x{cols}-{marks}-{goal}"
    if draw(st.booleans()):
        return make_rules(name, rows, cols, marks, goal, k=draw(st.integers(1, max(rows, cols))))
    line = st.lists(st.integers(0, cells - 1), min_size=1, max_size=min(cells, 4), unique=True)
    lines = draw(st.lists(line, min_size=1, max_size=8, unique_by=frozenset))
    return make_rules(name, rows, cols, marks, goal, lines=lines)


def test_open_close_round_trip_is_valid():
    for name, document in pool().items():
        result = check(close_arrays(open_arrays(document)))
        assert result.exit_code == 0, (name, result.message)


def test_rules_hash_helper_matches_solver():
    for name in BUILTINS:
        rules = resolve(name)
        assert rules_sha256(rules.canonical()) == rules.sha256()
