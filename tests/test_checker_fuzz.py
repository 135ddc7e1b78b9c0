"""Hostile and random input: the checker answers exit 1 or 2 with one line, never crashes or hangs.

Deep run: pytest --hypothesis-profile=deep tests/test_checker_fuzz.py
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import checker
from certify.record.certificate import build_certificate, certificate_json
from solver.games.positional.rules import RulesError, make_rules
from test_checker_helpers import GOALS, MARK_RULES, REPO, builtin_document, check, close_arrays, open_arrays
from test_checker_helpers import pack, pool_documents, rules_sha256
from samples import edit_point

SIDES = [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (1, 4), (2, 3), (3, 3)]
CERT_KEYS = ("format", "version", "kind", "rules", "rules_sha256", "claim", "table", "strategies", "provenance")


def assert_rejected(result: checker.CheckResult) -> None:
    assert result.exit_code in (1, 2), result.message
    prefix = "INVALID " if result.exit_code == 1 else "ERROR: "
    assert result.message.startswith(prefix), result.message
    assert "\n" not in result.message and "Traceback" not in result.message
    assert "internal checker failure" not in result.message, result.message


def evidence(document: dict) -> dict:
    """What a verdict is about: everything but provenance and the rules' name (a label outside the
    rules hash, which the verdict prints as read), arrays unpacked."""
    opened = open_arrays(document)
    about = {key: opened[key] for key in CERT_KEYS if key != "provenance"}
    if isinstance(about.get("rules"), dict):
        about["rules"] = {key: value for key, value in about["rules"].items() if key != "name"}
    return about


def assert_valid_only_if_true(document: object, result: checker.CheckResult) -> None:
    """A VALID verdict on a generated document must agree with the solver's certificate."""
    if result.exit_code != 0:
        assert_rejected(result)
        return
    rules = document["rules"]
    truth = json.loads(certificate_json(build_certificate(make_rules(**{k: v for k, v in rules.items() if k != "family"}))))
    truth["rules"]["name"] = rules["name"]
    assert evidence(document) == {**evidence(truth), "rules_sha256": document["rules_sha256"]}


# ---- random input -----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)


@given(data=st.binary(max_size=4000))
def test_random_bytes_are_rejected(data):
    assert_rejected(checker.check_bytes(data))


@given(value=json_values)
def test_random_json_is_rejected(value):
    assert_rejected(check(value))


@given(value=st.dictionaries(st.sampled_from(CERT_KEYS), json_values, max_size=8))
def test_random_objects_with_certificate_keys_are_rejected(value):
    assert_rejected(check(value))


def packed(count: int, wild: bool = False, kind: str = "uint8", small: tuple[int, int] = (0, 255)
           ) -> st.SearchStrategy[str]:
    """A packed array of `count` plausible bytes; if wild, of random length, contents or text."""
    exact = st.lists(st.integers(*small), min_size=count, max_size=count)
    if not wild:
        return exact.map(lambda v: pack(v, kind))
    bounds = (0, 255) if kind == "uint8" else (-128, 127)
    other = st.lists(st.integers(*bounds) | st.integers(*small), max_size=40)
    return st.one_of(exact, other).map(lambda v: pack(v, kind)) | st.text(max_size=30)


@st.composite
def shaped_documents(draw: st.DrawFn) -> dict:
    """A document with the certificate's shape and random contents (mostly plausible)."""
    wild = draw(st.integers(0, 4)) == 0  # one document in five: arrays of any length or text
    rows, cols = (draw(st.integers(-1, 5)), draw(st.integers(-1, 5))) if wild else draw(st.sampled_from(SIDES))
    cells = max(rows * cols, 1)
    cell = st.integers(-1, cells) if wild else st.integers(0, cells - 1)
    text = st.text(max_size=6) if wild else st.nothing()
    lines = draw(st.lists(st.lists(cell, min_size=0 if wild else 1, max_size=4, unique=not wild),
                          min_size=0 if wild else 1, max_size=5, unique_by=None if wild else frozenset))
    rules = {
        "family": "positional" if not wild or draw(st.booleans()) else draw(st.text(max_size=6)),
        "name": draw(st.text(max_size=12)),
        "rows": rows,
        "cols": cols,
        "lines": lines if wild else sorted(sorted(line) for line in lines),
        "marks": draw(st.sampled_from(MARK_RULES) | text),
        "goal": draw(st.sampled_from(GOALS) | text),
    }
    if rules["goal"] == "most-lines" and not wild:
        rules["marks"] = "own"
    word = st.sampled_from(["win", "draw", "loss"]) | st.text(max_size=5)
    states = draw(st.integers(0, min(40, 3**cells)))
    labels = (0, 255) if wild else (0, 140)

    @st.composite
    def strategy(draw_: st.DrawFn) -> dict:
        entries = draw_(st.integers(0, min(20, 3**cells)))
        return {"player": draw_(st.integers(0, 3)), "guarantees": draw_(st.sampled_from(["win", "no-loss", "x"])),
                "entries": entries, "moves": draw_(packed(entries, wild, small=(16, 16 + 2 * cells)))}

    return {
        "format": "certify-certificate",
        "version": draw(st.sampled_from([2, 2, 2, 0, 1, True])) if wild else 2,
        "kind": "table" if not wild or draw(st.booleans()) else draw(st.text(max_size=6)),
        "rules": rules,
        "rules_sha256": rules_sha256(rules) if draw(st.integers(0, 9)) else draw(st.text(max_size=64)),
        "claim": {
            "root_value": draw(word),
            "root_margin": draw(st.none() | st.integers(-3, 3)),
            "first_moves": draw(st.lists(st.fixed_dictionaries(
                {"cell": cell, "mark": st.integers(0, 3), "value": word}), max_size=6)),
        },
        "table": {
            "states": states, "labels": draw(packed(states, wild, small=labels)),
            "margins": draw(st.none() | packed(states, wild, "int8", (-1, 1))),
        },
        "strategies": draw(st.lists(strategy(), min_size=0 if wild else 1, max_size=3 if wild else 2)),
        "provenance": {"tool": "fuzz", "command": "", "elapsed_seconds": None},
    }


@given(document=shaped_documents())
def test_shaped_random_documents_are_rejected(document):
    assert_valid_only_if_true(document, check(document))


@given(data=st.data())
def test_random_leaf_replacement_never_crashes(data):
    """Replace one value anywhere in a real certificate by random JSON."""
    document = json.loads(json.dumps(data.draw(pool_documents())))
    node, key = edit_point(data, document)
    original = node[key] if key is not None else None
    if key is not None:
        node[key] = data.draw(json_values)
    result = check(document)
    if result.exit_code == 0:  # only a change that does not alter what is certified
        assert key is not None
        if node is not document.get("provenance"):
            try:
                assert_valid_only_if_true(document, result)
            except (TypeError, RulesError):
                pytest.fail(f"VALID after changing {key!r} from {original!r}")
    else:
        assert_rejected(result)


@given(data=st.data())
def test_random_byte_edits_never_crash(data):
    """Flip, insert or delete bytes in a certificate file's text."""
    document = data.draw(pool_documents())
    text = bytearray(json.dumps(document, sort_keys=True, indent=2).encode())
    for _ in range(data.draw(st.integers(1, 3))):
        position = data.draw(st.integers(0, len(text) - 1))
        action = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        if action == "flip":
            text[position] ^= 1 << data.draw(st.integers(0, 7))
        elif action == "insert":
            text.insert(position, data.draw(st.integers(0, 255)))
        else:
            del text[position]
    result = checker.check_bytes(bytes(text))
    if result.exit_code == 0:  # e.g. provenance, whitespace or unused base64 padding bits
        assert evidence(json.loads(bytes(text))) == evidence(document)
    else:
        assert_rejected(result)


# ---- specific defences ------------------------------------------------------------------------


def small_document() -> dict:
    return json.loads(json.dumps(builtin_document("notakto")))


def test_duplicate_keys_are_rejected():
    text = json.dumps(small_document(), sort_keys=True)
    text = text.replace('"version": 2', '"version": 2, "version": 2')
    assert checker.check_bytes(text.encode()).message == "ERROR: duplicate JSON key 'version'"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
def test_non_finite_numbers_are_rejected(constant):
    text = json.dumps(small_document()).replace('"elapsed_seconds": null', f'"elapsed_seconds": {constant}')
    result = checker.check_bytes(text.encode())
    assert result.exit_code == 2 and ("finite" in result.message or "constant" in result.message), result.message


def test_huge_integers_are_rejected():
    document = small_document()
    text = json.dumps(document).replace('"version": 2', '"version": 2' + "0" * 100_000, 1)
    result = checker.check_bytes(text.encode())
    assert result.exit_code == 2 and "digits" in result.message


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deep_nesting_is_rejected(opener):
    result = checker.check_bytes((opener * 200_000).encode())
    assert result.exit_code == 2, result.message


def test_bool_is_not_an_integer():
    document = small_document()
    document["rules"]["rows"] = True
    assert check(document).message == "ERROR: rules.rows must be integer, found boolean"
    document = small_document()
    document["version"] = True
    assert check(document).exit_code == 2


@pytest.mark.parametrize("field, value", [("format", "other"), ("version", 1), ("version", 3), ("version", 0),
                                          ("kind", "other"), ("kind", None)])
def test_unknown_format_version_or_kind_is_an_error(field, value):
    document = small_document()
    document[field] = value
    result = check(document)
    assert result.exit_code == 2
    if field == "version":
        assert f"version {value} is not readable" in result.message


def test_unknown_family_is_an_error():
    document = small_document()
    document["rules"]["family"] = "go"
    document["rules_sha256"] = rules_sha256(document["rules"])
    assert check(document).message.startswith("ERROR: rules.family 'go' is not one of positional")


def test_zlib_bomb_is_stopped():
    document = small_document()
    bomb = zlib.compress(b"\0" * 200_000_000, 9)
    document["table"]["labels"] = base64.b64encode(bomb).decode()
    result = check(document)
    assert result.exit_code == 2 and "more than" in result.message, result.message


def _table_labels(document: dict, raw: bytes) -> dict:
    document["table"]["labels"] = base64.b64encode(raw).decode()
    return document


@pytest.mark.parametrize("change", ["truncated", "trailing", "not zlib", "short", "bad base64", "non-ascii"])
def test_bad_packed_arrays_are_errors(change):
    document = small_document()
    good = base64.b64decode(document["table"]["labels"])
    if change == "truncated":
        _table_labels(document, good[:-3])
    elif change == "trailing":
        _table_labels(document, good + b"x")
    elif change == "not zlib":
        _table_labels(document, b"not zlib at all")
    elif change == "short":
        _table_labels(document, zlib.compress(zlib.decompress(good)[:-4]))
    elif change == "bad base64":
        document["table"]["labels"] = document["table"]["labels"][:-1] + "*"
    else:
        document["table"]["labels"] = "é" + document["table"]["labels"]
    result = check(document)
    assert result.exit_code == 2, result.message


def test_wrong_counts_are_errors():
    document = open_arrays(small_document())
    packed_document = close_arrays(document)
    packed_document["table"]["states"] += 1
    assert check(packed_document).exit_code == 2
    packed_document = close_arrays(document)
    packed_document["strategies"][0]["entries"] -= 1
    assert check(packed_document).exit_code == 2
    packed_document = close_arrays(document)
    packed_document["table"]["states"] = -1
    assert check(packed_document).exit_code == 2


def test_extra_rules_key_is_an_error():
    document = small_document()
    document["rules"]["k"] = 3
    document["rules_sha256"] = rules_sha256(document["rules"])
    assert check(document).exit_code == 2


def test_lone_surrogate_name_is_printed_inert():
    """The name is a label outside the hash: any string is accepted and shown escaped."""
    text = json.dumps(small_document()).replace('"name": "notakto"', '"name": "\\ud800"')
    result = checker.check_bytes(text.encode())
    assert result.exit_code == 0 and " name '\\ud800': " in result.message, result.message


def test_files_the_checker_cannot_read(tmp_path):
    assert checker.check_file(tmp_path / "missing.json").exit_code == 2
    assert checker.check_file(tmp_path).exit_code == 2
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "\xe9"}')
    assert "not UTF-8" in checker.check_file(path).message
    path = tmp_path / "empty.json"
    path.write_bytes(b" \n")
    assert checker.check_file(path) == checker.CheckResult(2, f"ERROR: {path}: not valid JSON: only white space")
    path.write_bytes(b"")
    assert checker.check_file(path) == checker.CheckResult(2, f"ERROR: {path}: is empty")
    path = tmp_path / "big.json"
    path.write_text(json.dumps(small_document()))
    result = checker.check_file(path, checker.Limits(max_bytes=100))
    assert result.exit_code == 2 and "limit" in result.message
    assert checker.check_file(path, checker.Limits(max_bytes=10**6)).exit_code == 0


# ---- the command line ---------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-S", "-m", "checker", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_cli_exit_codes(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(small_document()))
    bad = tmp_path / "bad.json"
    document = open_arrays(small_document())
    document["table"]["values"][0] = -document["table"]["values"][0] or 1
    bad.write_text(json.dumps(close_arrays(document)))
    noise = tmp_path / "noise.json"
    noise.write_bytes(os.urandom(3000))
    cases = [((str(good),), 0, "VALID table 3x3 board, "), ((str(bad),), 1, "INVALID table 3x3 board, "),
             ((str(noise),), 2, "ERROR: "), ((str(good), "--max-bytes", "10"), 2, "ERROR: "),
             ((str(tmp_path / "nope.json"),), 2, f"ERROR: {tmp_path / 'nope.json'}: no such file"),
             ((str(good), "--max-states", "abc"), 2, "ERROR: --max-states abc: must be a whole number"),
             (("",), 2, "ERROR: argument CERTIFICATE is empty")]
    for args, code, prefix in cases:
        completed = run_cli(*args)
        assert completed.returncode == code, (args, completed.stdout, completed.stderr)
        said, other = (completed.stdout, completed.stderr) if code < 2 else (completed.stderr, completed.stdout)
        assert said.startswith(prefix) and said.count("\n") == 1, said  # verdicts on stdout, ERROR on stderr
        assert other == ""
    assert run_cli().returncode == 2  # usage error
