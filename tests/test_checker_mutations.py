"""Every single mutation of a true certificate is rejected with exit 1 (INVALID).

Each property draws a certificate from the pool (built-ins and small games), unpacks its arrays
(writing out the state codes the format leaves implicit), changes one thing, re-packs (so the
document stays well-formed) and runs the checker in-process. Rules that are ill-formed or not
canonical make the document unreadable: exit 2 (ERROR).
"""

from __future__ import annotations

import bisect
import copy
import functools
import json

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from certify.record.certificate import build_certificate, certificate_json
from solver.games.positional.rules import RulesError, make_rules
from test_checker_helpers import GOALS, MARK_RULES, check, close_arrays, decode, open_arrays, pool_documents
from test_checker_helpers import pool, random_rules, rules_sha256

WORDS = ("win", "draw", "loss")


def assert_invalid(document: dict, opened: bool = True) -> str:
    result = check(close_arrays(document) if opened else document)
    assert result.exit_code == 1, result.message
    assert result.message.startswith("INVALID table ")
    assert f" name {ascii(document['rules']['name'])}: " in result.message
    assert "\n" not in result.message
    return result.message


def assert_error(document: dict) -> str:
    result = check(document)
    assert result.exit_code == 2, result.message
    assert result.message.startswith("ERROR: ") and "\n" not in result.message
    return result.message


def opened(data: st.DataObject, predicate=lambda doc: True) -> dict:
    name = data.draw(st.sampled_from(sorted(pool())).filter(lambda n: predicate(pool()[n])))
    return copy.deepcopy(opened_pool(name))


@functools.cache
def opened_pool(name: str) -> dict:
    return open_arrays(pool()[name])


def marks_for(rules: dict, player: int) -> tuple[int, ...]:
    if rules["marks"] == "either":
        return (1, 2)
    if rules["marks"] == "x-only":
        return (1,)
    return (player,)


# ---- table labels ---------------------------------------------------------------------------


@given(data=st.data())
def test_changed_value_is_rejected(data):
    doc = opened(data)
    table = doc["table"]
    index = data.draw(st.integers(0, len(table["codes"]) - 1))
    table["values"][index] = data.draw(st.sampled_from([v for v in (-1, 0, 1) if v != table["values"][index]]))
    message = assert_invalid(doc)
    assert "value expected" in message or "margin expected" in message


@given(data=st.data())
def test_out_of_range_value_is_rejected(data):
    doc = opened(data)
    index = data.draw(st.integers(0, len(doc["table"]["codes"]) - 1))
    doc["table"]["values"][index] = data.draw(st.sampled_from([-2, 2]))
    assert "is not a label" in assert_invalid(doc)


@given(data=st.data())
def test_changed_distance_is_rejected(data):
    doc = opened(data)
    table = doc["table"]
    index = data.draw(st.integers(0, len(table["codes"]) - 1))
    distance = data.draw(st.integers(0, 63).filter(lambda d: d != table["distances"][index]))
    table["distances"][index] = distance
    code, cells = table["codes"][index], doc["rules"]["rows"] * doc["rules"]["cols"]
    message = assert_invalid(doc)
    if distance > cells:
        assert f"table.labels[{index}] " in message and "is not a label" in message
    else:
        assert f"state {code} (" in message and "distance expected" in message


@given(data=st.data())
def test_changed_margin_is_rejected(data):
    doc = opened(data, lambda d: d["rules"]["goal"] == "most-lines")
    table = doc["table"]
    index = data.draw(st.integers(0, len(table["codes"]) - 1))
    table["margins"][index] = data.draw(st.integers(-128, 127).filter(lambda m: m != table["margins"][index]))
    assert_invalid(doc)


@given(data=st.data())
def test_margins_on_a_line_goal_are_rejected(data):
    doc = opened(data, lambda d: d["rules"]["goal"] != "most-lines")
    doc["table"]["margins"] = [0] * len(doc["table"]["codes"])
    assert "margins must be null" in assert_invalid(doc)


def test_missing_margins_on_most_lines_are_rejected():
    doc = copy.deepcopy(opened_pool(next(n for n, d in pool().items() if d["rules"]["goal"] == "most-lines")))
    doc["table"]["margins"] = None
    assert "margins must be present" in assert_invalid(doc)


# ---- table states ---------------------------------------------------------------------------


def _delete(table: dict, index: int) -> None:
    for key in ("codes", "values", "distances", "margins"):
        if table[key] is not None:
            del table[key][index]


def _insert(table: dict, index: int, code: int, label: tuple[int, int, int]) -> None:
    for key, item in zip(("codes", "values", "distances", "margins"), (code, *label)):
        if table[key] is not None:
            table[key].insert(index, item)


@given(data=st.data())
def test_removed_state_is_rejected(data):
    doc = opened(data)
    index = data.draw(st.integers(0, len(doc["table"]["codes"]) - 1))
    code = doc["table"]["codes"][index]
    _delete(doc["table"], index)
    assert_invalid(doc)
    assert code >= 0


def assert_grown_table_rejected(doc: dict) -> None:
    """A table with one state too many: INVALID, or unreadable once it lists more codes than the board has."""
    if len(doc["table"]["codes"]) > 3 ** (doc["rules"]["rows"] * doc["rules"]["cols"]):
        assert_error(close_arrays(doc))
    else:
        assert_invalid(doc)


@given(data=st.data())
def test_unreachable_state_is_rejected(data):
    doc = opened(data)
    table, cells = doc["table"], doc["rules"]["rows"] * doc["rules"]["cols"]
    code = data.draw(st.integers(0, 3**cells - 1))
    index = bisect.bisect_left(table["codes"], code)
    assume(index == len(table["codes"]) or table["codes"][index] != code)
    label = (data.draw(st.sampled_from((-1, 0, 1))), data.draw(st.integers(0, 9)), data.draw(st.integers(-3, 3)))
    _insert(table, index, code, label)
    assert_grown_table_rejected(doc)


@given(data=st.data())
def test_duplicated_state_is_rejected(data):
    doc = opened(data)
    table = doc["table"]
    index = data.draw(st.integers(0, len(table["codes"]) - 1))
    label = tuple(table[k][index] if table[k] is not None else 0 for k in ("values", "distances", "margins"))
    _insert(table, index, table["codes"][index], label)
    assert_grown_table_rejected(doc)


@given(data=st.data())
def test_swapped_labels_are_rejected(data):
    doc = opened(data)
    table = doc["table"]
    labels = list(zip(table["values"], table["distances"], table["margins"] or [0] * len(table["values"])))
    pairs = [i for i in range(len(labels) - 1) if labels[i] != labels[i + 1]]
    assume(pairs)
    index = data.draw(st.sampled_from(pairs))
    for key in ("values", "distances", "margins"):
        if table[key] is not None:
            table[key][index], table[key][index + 1] = table[key][index + 1], table[key][index]
    assert_invalid(doc)


# ---- claim ----------------------------------------------------------------------------------


@given(data=st.data())
def test_changed_root_value_is_rejected(data):
    doc = opened(data)
    claim = doc["claim"]
    claim["root_value"] = data.draw(st.sampled_from([w for w in WORDS if w != claim["root_value"]]))
    message = assert_invalid(doc)  # the strategy set no longer fits the claim, a check made before exploring
    assert "claim.root_value" in message or "strategies (player, guarantees) expected" in message


@given(data=st.data())
def test_changed_root_margin_is_rejected(data):
    doc = opened(data)
    claim = doc["claim"]
    claim["root_margin"] = data.draw(st.integers(-9, 9).filter(lambda m: m != claim["root_margin"]))
    assert "claim.root_margin" in assert_invalid(doc)


@given(data=st.data())
def test_changed_first_move_is_rejected(data):
    doc = opened(data)
    moves = doc["claim"]["first_moves"]
    index = data.draw(st.integers(0, len(moves) - 1))
    change = data.draw(st.sampled_from(["value", "drop", "duplicate", "swap", "cell", "mark"]))
    if change == "value":
        moves[index]["value"] = data.draw(st.sampled_from([w for w in WORDS if w != moves[index]["value"]]))
    elif change == "drop":
        del moves[index]
    elif change == "duplicate":
        moves.insert(index, copy.deepcopy(moves[index]))
    elif change == "swap":
        other = data.draw(st.integers(0, len(moves) - 1).filter(lambda i: i != index))
        moves[index], moves[other] = moves[other], moves[index]
    elif change == "cell":
        moves[index]["cell"] = data.draw(st.integers(0, 20).filter(lambda c: c != moves[index]["cell"]))
    else:
        moves[index]["mark"] = data.draw(st.integers(0, 3).filter(lambda m: m != moves[index]["mark"]))
    assert "claim.first_moves[" in assert_invalid(doc)


# ---- strategies -----------------------------------------------------------------------------


def _labels(doc: dict) -> dict[int, int]:
    return dict(zip(doc["table"]["codes"], doc["table"]["values"]))


def strategy_entry(data) -> tuple[dict, dict, int]:
    """An opened certificate, one of its strategies, and the index of one of its entries."""
    doc = opened(data)
    strategy = data.draw(st.sampled_from(doc["strategies"]))
    assume(strategy["codes"])
    return doc, strategy, data.draw(st.integers(0, len(strategy["codes"]) - 1))


@given(data=st.data())
def test_strategy_move_that_breaks_the_guarantee_is_rejected(data):
    """Replace one move by another legal move after which the opponent can beat the guarantee."""
    doc, strategy, index = strategy_entry(data)
    code, cells = strategy["codes"][index], doc["rules"]["rows"] * doc["rules"]["cols"]
    board, labels = decode(code, cells), _labels(doc)
    worst = 1 if strategy["guarantees"] == "win" else 0
    breaking = [
        (cell, mark)
        for cell in range(cells)
        if board[cell] == 0
        for mark in marks_for(doc["rules"], strategy["player"])
        if -labels[code + mark * 3**cell] < worst
    ]
    assume(breaking)
    strategy["cells"][index], strategy["marks"][index] = data.draw(st.sampled_from(breaking))
    assert_invalid(doc)


@given(data=st.data())
def test_illegal_strategy_move_is_rejected(data):
    doc, strategy, index = strategy_entry(data)
    cells = doc["rules"]["rows"] * doc["rules"]["cols"]
    board = decode(strategy["codes"][index], cells)
    allowed = marks_for(doc["rules"], strategy["player"])
    cell, mark = data.draw(st.tuples(st.integers(0, 15), st.integers(0, 15)).filter(
        lambda m: m[0] >= cells or board[m[0]] != 0 or m[1] not in allowed))
    strategy["cells"][index], strategy["marks"][index] = cell, mark
    message = assert_invalid(doc)
    assert "is not a move of player" in message or "occupied cell" in message


@given(data=st.data())
def test_dropped_strategy_entry_is_rejected(data):
    doc, strategy, index = strategy_entry(data)
    for key in ("codes", "cells", "marks"):
        del strategy[key][index]
    assert_invalid(doc)


@given(data=st.data())
def test_extra_strategy_entry_is_rejected(data):
    """An entry for a state the strategy never reaches (any state not already listed)."""
    doc = opened(data)
    strategy = data.draw(st.sampled_from(doc["strategies"]))
    code = data.draw(st.sampled_from(doc["table"]["codes"]))
    index = bisect.bisect_left(strategy["codes"], code)
    assume(index == len(strategy["codes"]) or strategy["codes"][index] != code)
    board = decode(code, doc["rules"]["rows"] * doc["rules"]["cols"])
    cell = board.index(0) if 0 in board else 0
    for key, item in (("codes", code), ("cells", cell), ("marks", strategy["player"])):
        strategy[key].insert(index, item)
    assert_invalid(doc)


@given(data=st.data())
def test_wrong_strategy_set_is_rejected(data):
    doc = opened(data)
    strategies = doc["strategies"]
    change = data.draw(st.sampled_from(["player", "guarantees", "drop", "duplicate"]))
    strategy = data.draw(st.sampled_from(strategies))
    if change == "player":
        strategy["player"] = 3 - strategy["player"]
    elif change == "guarantees":
        strategy["guarantees"] = "win" if strategy["guarantees"] == "no-loss" else "no-loss"
    elif change == "drop":
        assume(len(strategies) == 2)
        strategies.remove(strategy)
    else:
        assume(len(strategies) == 1)
        strategies.append(copy.deepcopy(strategy))
    assert_invalid(doc)


# ---- rules ----------------------------------------------------------------------------------


def _same_evidence(a: dict, b: dict) -> bool:
    keys = ("claim", "table", "strategies")
    return all(a[k] == b[k] for k in keys)


@given(data=st.data())
def test_changed_rules_with_table_kept_are_rejected(data):
    """Marks, goal or a line changed, hash recomputed: the old evidence no longer fits."""
    document = data.draw(pool_documents())
    doc = copy.deepcopy(document)
    rules = doc["rules"]
    cells = rules["rows"] * rules["cols"]
    change = data.draw(st.sampled_from(["marks", "goal", "drop line", "add line", "move cell"]))
    if change == "marks":
        rules["marks"] = data.draw(st.sampled_from([m for m in MARK_RULES if m != rules["marks"]]))
    elif change == "goal":
        rules["goal"] = data.draw(st.sampled_from([g for g in GOALS if g != rules["goal"]]))
    elif change == "drop line":
        assume(len(rules["lines"]) > 1)
        del rules["lines"][data.draw(st.integers(0, len(rules["lines"]) - 1))]
    elif change == "add line":
        line = data.draw(st.lists(st.integers(0, cells - 1), min_size=1, max_size=cells, unique=True))
        rules["lines"].insert(data.draw(st.integers(0, len(rules["lines"]))), line)
    else:
        line = data.draw(st.sampled_from(rules["lines"]))
        position = data.draw(st.integers(0, len(line) - 1))
        line[position] = data.draw(st.integers(0, cells - 1).filter(lambda c: c not in line))
    try:
        new_rules = make_rules(**{k: rules[k] for k in ("name", "rows", "cols", "marks", "goal", "lines")})
    except RulesError:  # ill-formed rules: the checker must refuse to read them
        doc["rules_sha256"] = rules_sha256(rules)
        assert "rules" in assert_error(doc)
        return
    rules["lines"] = new_rules.canonical()["lines"]  # canonical again, so the document stays readable
    doc["rules_sha256"] = rules_sha256(rules)
    truth = json.loads(certificate_json(build_certificate(new_rules)))
    assume(not _same_evidence(truth, doc))  # the change must matter
    assert_invalid(doc, opened=False)


@given(data=st.data())
def test_changed_rules_hash_is_rejected(data):
    doc = opened(data)
    sha = doc["rules_sha256"]
    position = data.draw(st.integers(0, len(sha) - 1))
    new = data.draw(st.sampled_from("0123456789abcdefABCDEF").filter(lambda c: c != sha[position]))
    doc["rules_sha256"] = sha[:position] + new + sha[position + 1 :]
    assert "rules_sha256 expected" in assert_invalid(doc)


@given(data=st.data())
def test_ill_formed_rules_are_errors(data):
    doc = copy.deepcopy(data.draw(pool_documents()))
    rules = doc["rules"]
    change = data.draw(st.sampled_from(
        ["rows", "cols", "empty lines", "empty line", "cell out of range", "repeated cell",
         "repeated line", "permuted duplicate", "unknown marks", "unknown goal", "most-lines not own"]))
    lines = rules["lines"]
    if change in ("rows", "cols"):
        rules[change] = data.draw(st.sampled_from([-1, 0, 257, 1000]))  # past the checker's 256 cells whatever the other side
    elif change == "empty lines":
        rules["lines"] = []
    elif change == "empty line":
        lines.append([])
    elif change == "cell out of range":
        lines[0][0] = data.draw(st.sampled_from([-1, rules["rows"] * rules["cols"], 1000]))
    elif change == "repeated cell":
        lines[0].append(lines[0][0])
    elif change == "repeated line":
        lines.append(list(lines[0]))
    elif change == "permuted duplicate":
        assume(len(lines[0]) > 1)
        lines.append(list(reversed(lines[0])))
    elif change == "unknown marks":
        rules["marks"] = data.draw(st.text(max_size=10).filter(lambda m: m not in MARK_RULES))
    elif change == "unknown goal":
        rules["goal"] = data.draw(st.text(max_size=10).filter(lambda g: g not in GOALS))
    else:
        rules["goal"], rules["marks"] = "most-lines", data.draw(st.sampled_from(["either", "x-only"]))
    doc["rules_sha256"] = rules_sha256(rules)
    assert "rules" in assert_error(doc)


@given(data=st.data())
def test_non_canonical_rules_are_errors(data):
    """Rules are canonical (cells ascending, lines sorted), so that one game has one hash."""
    doc = copy.deepcopy(data.draw(pool_documents()))
    lines = doc["rules"]["lines"]
    if data.draw(st.booleans()):
        assume(len(lines) > 1)
        lines.reverse()
    else:
        long_lines = [line for line in lines if len(line) > 1]
        assume(long_lines)
        data.draw(st.sampled_from(long_lines)).reverse()
    doc["rules_sha256"] = rules_sha256(doc["rules"])
    assert "canonical" in assert_error(doc)


@pytest.mark.parametrize("key, value", [("player", 0), ("player", 3), ("guarantees", "loss"), ("guarantees", "")])
def test_unknown_strategy_player_or_guarantee_is_an_error(key, value):
    doc = copy.deepcopy(pool()["tictactoe"])
    doc["strategies"][0][key] = value
    assert f"strategies[0].{key}" in assert_error(doc)


# ---- mutations of random games ----------------------------------------------------------------


@given(rules=random_rules(), data=st.data())
def test_random_game_mutations_are_rejected(rules, data):
    """The same single mutations on certificates of random small games, not only the pool."""
    doc = open_arrays(json.loads(certificate_json(build_certificate(rules))))
    table = doc["table"]
    index = data.draw(st.integers(0, len(table["codes"]) - 1))
    change = data.draw(st.sampled_from(["value", "distance", "remove", "root", "first move", "entry"]))
    if change == "value":
        table["values"][index] = data.draw(st.sampled_from([v for v in (-1, 0, 1) if v != table["values"][index]]))
    elif change == "distance":
        table["distances"][index] = data.draw(st.integers(0, 20).filter(lambda d: d != table["distances"][index]))
    elif change == "remove":
        _delete(table, index)
    elif change == "root":
        doc["claim"]["root_value"] = data.draw(st.sampled_from(
            [w for w in WORDS if w != doc["claim"]["root_value"]]))
    elif change == "first move":
        move = data.draw(st.sampled_from(doc["claim"]["first_moves"]))
        move["value"] = data.draw(st.sampled_from([w for w in WORDS if w != move["value"]]))
    else:
        strategy = data.draw(st.sampled_from(doc["strategies"]))
        assume(strategy["codes"])
        position = data.draw(st.integers(0, len(strategy["codes"]) - 1))
        for key in ("codes", "cells", "marks"):
            del strategy[key][position]
    assert_invalid(doc)
