"""Ultimate tic-tac-toe: the engine against OpenSpiel's rules, the checker's plain rules, notation,
and the critical-square analysis against brute force.

OpenSpiel's `ultimate_tic_tac_toe` is the rules oracle. When a player may choose any board it
asks for the board first (one action) and then the cell; the comparison maps that two-step move
onto one global move 9*board + cell. The default run plays 1,000 seeded random games; the full
10,000-game run is `python -m pytest -m slow tests/test_uttt.py`.
"""

from __future__ import annotations

import dataclasses

import random

import pytest

import checker.uttt as plain
from checker.load import NotACertificate
from solver.games.uttt.engine import (
    IllegalMove,
    PositionError,
    Uttt,
    critical_cells,
    format_move,
    hands_over_win,
    immediate_wins,
    parse_move,
    play,
    threat_boards,
)

pyspiel = pytest.importorskip("pyspiel")
GAME = Uttt()


def openspiel_moves(state) -> tuple[list[int], bool]:
    """OpenSpiel's legal moves as global indices, and whether it asks for a board first."""
    forced = str(state).rsplit("Forced board: ", 1)[1].split()[0]
    if forced == "any":
        return sorted(9 * b + c for b in state.legal_actions() for c in state.child(b).legal_actions()), True
    return [9 * int(forced) + c for c in state.legal_actions()], False


def openspiel_rows(state) -> list[str]:
    """The nine grid rows of OpenSpiel's board text, in X/O/. letters."""
    rows = [line.replace(" ", "") for line in str(state).split("\n") if line and line[0] in ".xo"]
    return [row.upper() for row in rows[:9]]


def compare_random_games(count: int, seed: int, plain_games: int) -> int:
    """Play `count` seeded random games in both engines, comparing every ply; returns plies seen.

    The first `plain_games` games also go through the checker's plain rules.
    """
    spiel = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(seed)
    plies = 0
    for number in range(count):
        theirs, ours = spiel.new_initial_state(), GAME.initial()
        mine = plain.initial(plain.RULES) if number < plain_games else None
        while True:
            context = f"game {number} ply {plies}: {GAME.format_position(ours)}"
            assert GAME.is_terminal(ours) == theirs.is_terminal(), context
            assert GAME.format_position(ours).split()[0].split("/") == openspiel_rows(theirs), context
            if mine is not None:
                assert plain.draw_board(plain.RULES, mine) == GAME.format_position(ours), context
            if theirs.is_terminal():
                assert GAME.returns(ours) == tuple(int(v) for v in theirs.returns()), context
                assert GAME.legal_moves(ours) == []
                if mine is not None:
                    assert plain.moves(plain.RULES, mine) == []
                    winner = plain.result(plain.RULES, mine)
                    assert GAME.returns(ours) == {0: (0, 0), 1: (1, -1), 2: (-1, 1)}[winner], context
                break
            legal, choose_board = openspiel_moves(theirs)
            assert GAME.to_move(ours) == theirs.current_player() + 1, context
            assert GAME.legal_moves(ours) == legal, context
            assert (ours.sent < 0) == choose_board, context
            if mine is not None:
                assert plain.result(plain.RULES, mine) is None
                assert [m for m, _ in plain.moves(plain.RULES, mine)] == legal, context
            move = rng.choice(legal)
            if choose_board:
                theirs.apply_action(move // 9)
            theirs.apply_action(move % 9)
            ours = GAME.apply(ours, move)
            if mine is not None:
                mine = dict(plain.moves(plain.RULES, mine))[move]
            plies += 1
    return plies


def test_same_rules_as_openspiel_on_seeded_random_games() -> None:
    assert compare_random_games(1_000, seed=2026, plain_games=100) > 40_000


@pytest.mark.slow
def test_same_rules_as_openspiel_on_10000_seeded_random_games() -> None:
    assert compare_random_games(10_000, seed=11, plain_games=1_000) > 400_000


def random_positions(count: int, seed: int) -> list:
    """Every non-terminal position of `count` seeded random games."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = GAME.initial()
        while not GAME.is_terminal(s):
            out.append(s)
            s = play(s, rng.choice(GAME.legal_moves(s)))
    return out


def test_notation_round_trips_and_parses_as_the_checker_does() -> None:
    for s in random_positions(30, seed=5)[::7]:
        text = GAME.format_position(s)
        assert GAME.parse_position(text) == s
        assert plain.draw_board(plain.RULES, plain.parse_position(plain.RULES, text)) == text
    assert GAME.play_moves("4.0 0.4, 44") == play(play(play(GAME.initial(), 36), 4), 40)
    assert all(parse_move(format_move(m)) == m for m in range(81))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "." * 80 + " *",
        "." * 81 + " 9",
        "X" * 2 + "." * 79 + " 0",  # two X, no O
        "." * 81 + " 4",  # the first move goes anywhere
        "XXX......" + "." * 72 + " 0",  # board 0 won, then sent there
    ],
)
def test_bad_positions_are_refused_with_one_line(text: str) -> None:
    with pytest.raises(PositionError) as err:
        GAME.parse_position(text)
    assert "\n" not in str(err.value)


def test_illegal_moves_are_refused() -> None:
    s = GAME.play_moves("4.0")
    for bad in (36, 9 * 4 + 1, 81, -1):  # taken, wrong board, off the board
        with pytest.raises(IllegalMove):
            GAME.apply(s, bad)
    with pytest.raises(PositionError):
        GAME.parse_move("9.0")


def test_checker_refuses_other_rules_and_bad_positions() -> None:
    assert plain.parse_rules(GAME.rules.canonical()) == plain.RULES
    for change in ({"won_boards": "playable"}, {"name": 3}, {"extra": 1}):
        with pytest.raises(NotACertificate):
            plain.parse_rules({**GAME.rules.canonical(), **change})
    for text in ("x", "." * 81 + " 9", "XXX" + "." * 78 + " *"):
        with pytest.raises(NotACertificate):
            plain.parse_position(plain.RULES, text)


def test_rules_hash_ignores_the_name() -> None:
    renamed = dataclasses.replace(GAME.rules, name="other")
    assert renamed.sha256() == GAME.rules.sha256()
    assert "name" in GAME.rules.canonical()


def test_critical_square_analysis_matches_brute_force() -> None:
    """threat_boards, immediate_wins and critical_cells agree with playing the moves out."""
    checked = 0
    for s in random_positions(150, seed=7):
        mover = GAME.to_move(s)
        winners = [m for m in GAME.legal_moves(s)
                   if GAME.is_terminal(after := play(s, m)) and GAME.returns(after)[mover - 1] == 1]
        assert immediate_wins(s) == winners
        for player in (1, 2):
            # a board is a threat when, sent there with the other marks fixed, `player` wins at once
            expected = 0
            for board in range(9):
                if s.closed >> board & 1:
                    continue
                probe = s._replace(sent=board, x=s.x, o=s.o)
                if GAME.to_move(probe) != player:  # give `player` the move without changing the boards
                    probe = probe._replace(**({"o": s.o | 1 << 81} if player == 1 else {"x": s.x | 1 << 81}))
                if immediate_wins(probe):
                    expected |= 1 << board
            assert threat_boards(s, player) == expected
        for move in GAME.legal_moves(s):
            if not GAME.is_terminal(play(s, move)):
                assert hands_over_win(s, move) == bool(immediate_wins(play(s, move)))
        if critical_cells(s):
            checked += 1
    assert checked > 50
