"""Strategy certificates: every one written is VALID, every mutation INVALID, no input crashes the checker."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import zlib
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import checker
from certify.proving.single import certificate_text, prove
from solver.games.families import resolve_game
from solver.search.pns import Claim
from solver.search.retrograde import solve

PROOFS = [  # (game, player, claim): each true (the table solver agrees, test_pns)
    ("tictactoe", 1, "no-loss"), ("tictactoe", 2, "no-loss"), ("w3t", 1, "win"), ("notakto", 1, "win"),
    ("mnk:3,3,3,misere", 1, "no-loss"), ("mnk:3,3,3,misere", 2, "no-loss"), ("mnk:4,4,3", 1, "win"),
    ("cumulative", 2, "no-loss"),
]


@cache
def document(game: str, player: int, result: str, root: str | None = None) -> dict:
    """The certificate of a true claim, as parsed JSON."""
    attempt = prove(resolve_game(game), Claim(player, result), root)
    assert attempt.outcome.status == "proved"
    return json.loads(attempt.text)


@cache
def solved(game: str):  # type: ignore[no-untyped-def]
    return solve(resolve_game(game).rules)


def verdict(doc: dict) -> checker.CheckResult:
    return checker.check_document(doc)


def moves_of(doc: dict) -> bytes:
    return zlib.decompress(base64.b64decode(doc["proof"]["moves"]))


def with_moves(doc: dict, moves: bytes) -> dict:
    changed = copy.deepcopy(doc)
    changed["proof"]["moves"] = base64.b64encode(zlib.compress(moves)).decode()
    changed["proof"]["turns"] = len(moves)
    return changed


def rehashed(doc: dict) -> dict:
    unnamed = {k: v for k, v in doc["rules"].items() if k != "name"}
    doc["rules_sha256"] = hashlib.sha256(json.dumps(unnamed, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return doc


@pytest.mark.parametrize("case", PROOFS, ids=lambda c: f"{c[0]}-p{c[1]}-{c[2]}")
def test_every_written_certificate_is_valid(case: tuple) -> None:
    result = verdict(document(*case))
    assert result.exit_code == 0, result.message
    assert result.message.startswith("VALID strategy ") and "rules sha256 " in result.message


def test_bytes_are_deterministic() -> None:
    game = resolve_game("mnk:4,4,3")
    first = prove(game, Claim(1, "win")).text
    assert first == prove(resolve_game("mnk:4,4,3"), Claim(1, "win")).text


def test_from_a_position() -> None:
    game = resolve_game("tictactoe")
    root = game.format_position(game.play([game.parse_move("X0"), game.parse_move("O1")]))
    doc = document("tictactoe", 1, "win", root)
    assert verdict(doc).exit_code == 0
    assert verdict({**doc, "claim": {**doc["claim"], "root": None}}).exit_code == 1


def losing_replacement(doc: dict, index: int) -> bytes | None:
    """The moves with entry `index` replaced by a legal move that breaks the claim, if there is one."""
    game = resolve_game(doc["rules"]["name"])
    table = solved(doc["rules"]["name"])
    player, need = doc["claim"]["player"], 1 if doc["claim"]["result"] == "win" else 0
    moves = moves_of(doc)
    seen, stack, used = set(), [game.initial()], 0
    while stack:  # the canonical traversal, to find the position of entry `index`
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        if game.is_terminal(state):
            continue
        legal = game.legal_moves(state)
        if game.to_move(state) == player:
            if used == index:
                for other, move in enumerate(legal):
                    child = game.apply(state, move)
                    value = table.value(child) if game.to_move(child) == player else -table.value(child)
                    if value < need:
                        return moves[:index] + bytes([other]) + moves[index + 1:]
                return None
            stack.append(game.apply(state, legal[moves[used]]))
            used += 1
        else:
            stack.extend(game.apply(state, m) for m in reversed(legal))
    return None


@pytest.mark.parametrize("case", PROOFS[:6], ids=lambda c: f"{c[0]}-p{c[1]}-{c[2]}")
def test_mutations_are_invalid(case: tuple) -> None:
    doc = document(*case)
    moves = moves_of(doc)
    replaced = []
    for index in range(len(moves)):  # the first three entries that have a losing alternative
        mutant = losing_replacement(doc, index)
        if mutant is not None:
            replaced.append(mutant)
        if len(replaced) == 3:
            break
    assert replaced
    mutants = [with_moves(doc, m) for m in replaced]
    mutants += [with_moves(doc, moves[:-1]), with_moves(doc, moves[1:]), with_moves(doc, moves + b"\x00")]
    mutants.append(with_moves(doc, moves[:3] + moves[4:]))
    mutants.append({**doc, "claim": {**doc["claim"], "player": 3 - doc["claim"]["player"]}})
    mutants.append({**doc, "proof": {**doc["proof"], "positions": doc["proof"]["positions"] + 1}})
    mutants.append({**doc, "proof": {**doc["proof"], "positions": doc["proof"]["positions"] - 1}})
    game = resolve_game(case[0])
    other_root = game.format_position(game.apply(game.initial(), game.legal_moves(game.initial())[-1]))
    mutants.append({**doc, "claim": {**doc["claim"], "root": other_root}})
    flipped = copy.deepcopy(doc)
    flipped["rules"]["goal"] = "first-line-loses" if doc["rules"]["goal"] == "first-line-wins" else "first-line-wins"
    mutants.append(rehashed(flipped))
    for index, mutant in enumerate(mutants):
        result = verdict(mutant)
        assert result.exit_code == 1, (index, result.message)
        assert result.message.startswith("INVALID strategy ")


def test_a_draw_is_not_a_win() -> None:
    doc = document("tictactoe", 1, "no-loss")
    result = verdict({**doc, "claim": {**doc["claim"], "result": "win"}})
    assert result.exit_code == 1 and "a draw for player 1" in result.message


def test_the_work_budget_refuses_large_proofs() -> None:
    doc = document("mnk:4,4,3", 1, "win")
    result = checker.check_document(doc, checker.Limits(max_states=10))
    assert result.exit_code == 2 and "work budget" in result.message


@settings(max_examples=150)
@given(st.data())
def test_random_documents_never_crash_the_checker(data: st.DataObject) -> None:
    doc = copy.deepcopy(document("tictactoe", 2, "no-loss"))
    path = data.draw(st.sampled_from([("claim", "player"), ("claim", "result"), ("claim", "root"), ("proof", "positions"),
                                      ("proof", "turns"), ("proof", "moves"), ("proof", "traversal"), ("rules", "rows")]))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.text(max_size=40),
                     st.binary(max_size=40).map(lambda b: base64.b64encode(zlib.compress(b)).decode()),
                     st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
    doc[path[0]][path[1]] = data.draw(junk)
    result = verdict(doc)
    assert result.exit_code in (0, 1, 2)
    assert "internal checker failure" not in result.message
