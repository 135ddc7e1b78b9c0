"""Ultimate tic-tac-toe under the open rules (`uttt:open`): the engine and the checker's plain
reading against a third implementation written here, hand-made positions for each rule, and the
two variants kept apart.

No OpenSpiel game has these rules, so the oracle is `OpenRulesOracle` below: a 9x9 grid of rows
and columns, written from the paper's §1 (docs/uttt.md) and sharing nothing with solver/ or
checker/ (it imports neither). The default run compares 1,000 seeded random games at every ply;
`python -m pytest -m slow tests/test_uttt_open.py` compares 100,000.
"""

from __future__ import annotations

import json
import random

import pytest

import checker
import checker.uttt as plain
from checker.load import NotACertificate
from solver.games.families import game_from_rules, resolve_game
from solver.games.positional.rules import RulesError
from solver.games.uttt.engine import OPEN_RULES, IllegalMove, PositionError, UtttRules

OPEN = resolve_game("uttt:open")
CLOSED = resolve_game("uttt")
LINES = [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
         [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
         [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


class OpenRulesOracle:
    """The open rules on a 9x9 grid of 'X', 'O', ' ': local board (R, C) is rows 3R..3R+2 and
    columns 3C..3C+2; a move is a grid square (row, col)."""

    def __init__(self) -> None:
        self.grid = [[" "] * 9 for _ in range(9)]
        self.owner = [[" "] * 3 for _ in range(3)]  # who first made a line in each local board
        self.target: tuple[int, int] | None = None  # the local board the player to move must use
        self.turn = "X"

    def local_full(self, R: int, C: int) -> bool:
        return all(self.grid[3 * R + r][3 * C + c] != " " for r in range(3) for c in range(3))

    def local_line(self, R: int, C: int, mark: str) -> bool:
        return any(all(self.grid[3 * R + r][3 * C + c] == mark for r, c in line) for line in LINES)

    def winner(self) -> str | None:
        for mark in "XO":
            if any(all(self.owner[r][c] == mark for r, c in line) for line in LINES):
                return mark
        return None

    def over(self) -> bool:
        return self.winner() is not None or all(self.grid[r][c] != " " for r in range(9) for c in range(9))

    def moves(self) -> list[tuple[int, int]]:
        if self.over():
            return []
        squares = [(r, c) for r in range(9) for c in range(9) if self.grid[r][c] == " "]
        if self.target is None:
            return squares
        R, C = self.target
        return [(r, c) for r, c in squares if r // 3 == R and c // 3 == C]

    def play(self, row: int, col: int) -> None:
        assert (row, col) in self.moves()
        self.grid[row][col] = self.turn
        R, C = row // 3, col // 3
        if self.owner[R][C] == " " and self.local_line(R, C, self.turn):
            self.owner[R][C] = self.turn
        # the square's place inside its local board names the next local board
        self.target = None if self.local_full(row % 3, col % 3) else (row % 3, col % 3)
        self.turn = "O" if self.turn == "X" else "X"


def to_index(square: tuple[int, int]) -> int:
    """A grid square as the engines' global index 9 * board + cell."""
    row, col = square
    return 9 * (row // 3 * 3 + col // 3) + row % 3 * 3 + col % 3


def compare(oracle: OpenRulesOracle, s, cstate) -> None:  # type: ignore[no-untyped-def]
    """The engine state `s` (and the checker state `cstate`, unless None) agree with the oracle."""
    expected = sorted(to_index(q) for q in oracle.moves())
    assert OPEN.legal_moves(s) == expected
    assert OPEN.is_terminal(s) == oracle.over()
    won = {"X": 1, "O": 2, " ": 0}
    winners = [won[oracle.owner[b // 3][b % 3]] for b in range(9)]
    assert [1 if s.xw >> b & 1 else 2 if s.ow >> b & 1 else 0 for b in range(9)] == winners
    if oracle.over():
        w = oracle.winner()
        assert OPEN.returns(s) == {"X": (1, -1), "O": (-1, 1), None: (0, 0)}[w]
    else:
        assert OPEN.to_move(s) == (1 if oracle.turn == "X" else 2)
    if cstate is not None:
        game = plain.parse_rules(OPEN_RULES.canonical())
        assert [m for m, _ in plain.moves(game, cstate)] == expected
        assert list(cstate[2]) == winners
        assert plain.result(game, cstate) == (None if not oracle.over() else {"X": 1, "O": 2, None: 0}[oracle.winner()])
        assert plain.parse_position(game, OPEN.format_position(s)) == cstate


def compare_random_games(count: int, seed: int, plain_games: int) -> int:
    """Play `count` seeded random games in the engine and the oracle (the first `plain_games`
    in the checker too), comparing at every ply; returns the plies compared."""
    rng = random.Random(seed)
    game = plain.parse_rules(OPEN_RULES.canonical())
    plies = 0
    for number in range(count):
        oracle, s = OpenRulesOracle(), OPEN.initial()
        cstate = plain.initial(game) if number < plain_games else None
        while True:
            compare(oracle, s, cstate)
            assert OPEN.parse_position(OPEN.format_position(s)) == s
            plies += 1
            squares = oracle.moves()
            if not squares:
                break
            square = rng.choice(squares)
            oracle.play(*square)
            s = OPEN.apply(s, to_index(square))
            if cstate is not None:
                cstate = dict(plain.moves(game, cstate))[to_index(square)]
    return plies


def test_open_rules_agree_with_the_oracle_on_1000_seeded_random_games() -> None:
    assert compare_random_games(1000, seed=22, plain_games=200) > 40_000


@pytest.mark.slow
def test_open_rules_agree_with_the_oracle_on_100000_seeded_random_games() -> None:
    assert compare_random_games(100_000, seed=2022, plain_games=10_000) > 4_000_000


def play_through(moves: str):  # type: ignore[no-untyped-def]
    """The engine's position after `moves`, checked against the oracle and the checker at every ply."""
    oracle, s = OpenRulesOracle(), OPEN.initial()
    game = plain.parse_rules(OPEN_RULES.canonical())
    cstate = plain.initial(game)
    for token in moves.split():
        move = OPEN.parse_move(token)
        board, cell = divmod(move, 9)
        oracle.play(board // 3 * 3 + cell // 3, board % 3 * 3 + cell % 3)
        s = OPEN.apply(s, move)
        cstate = dict(plain.moves(game, cstate))[move]
        compare(oracle, s, cstate)
    return s


# X wins board 0 with its cells 0, 1, 2 (O, sent to boards 0, 3, 1, answers so as to send X back
# to board 0); O is then sent to board 2
X_WINS_BOARD_0 = "0.0 0.3 3.3 3.0 0.1 1.0 0.2"


def test_sent_to_a_won_board_with_empty_cells_play_there() -> None:
    s = play_through(X_WINS_BOARD_0)
    assert s.xw == 1 and s.sent == 2
    s = play_through(X_WINS_BOARD_0 + " 2.0")  # O sends X to board 0: won, with empty cells
    assert s.sent == 0 and OPEN.legal_moves(s) == [4, 5, 6, 7, 8]
    closed = CLOSED.play_moves(X_WINS_BOARD_0 + " 2.0")  # the rules `uttt`: board 0 is closed
    assert closed.sent == -1 and 4 not in CLOSED.legal_moves(closed)
    with pytest.raises(IllegalMove):
        CLOSED.play_moves(X_WINS_BOARD_0 + " 2.0 0.4")


def test_sent_to_a_full_board_play_any_empty_cell_even_in_won_boards() -> None:
    # board 4 filled: X takes its centre, O the other eight cells (O's first line wins it)
    moves = "4.4 " + " ".join(f"4.{c} {c}.4" for c in (0, 1, 2, 3, 5, 6, 7, 8))
    s = play_through(moves)
    assert s.sent == -1 and s.ow == 1 << 4 and s.xw == 0
    empty = [m for m in range(81) if not (s.x | s.o) >> m & 1]
    assert OPEN.legal_moves(s) == empty and len(empty) == 81 - 17


def test_a_second_line_inside_a_won_board_changes_nothing() -> None:
    # X wins board 0 (0.0 0.1 0.2); O later completes 0.3 0.4 0.5 there: board 0 stays X's
    s = play_through(X_WINS_BOARD_0 + " 2.4 4.0 0.4 4.1 1.5 5.0 0.5")
    assert s.xw == 1 and s.ow == 0
    text = OPEN.format_position(s)
    assert text.endswith(" X........")  # both marks hold a line: the winners are written
    assert OPEN.parse_position(text) == s
    with pytest.raises(PositionError, match="lines of both marks"):
        OPEN.parse_position(text.rsplit(" ", 1)[0])
    o_first = OPEN.parse_position(text.rsplit(" ", 1)[0] + " O........")  # O's line came first
    assert (o_first.xw, o_first.ow) == (0, 1) and o_first != s
    with pytest.raises(PositionError, match="board 1: winner 'O'"):
        OPEN.parse_position(text.rsplit(" ", 1)[0] + " XO.......")  # board 1 holds no line
    with pytest.raises(PositionError, match="holds a line of X and a line of O"):
        CLOSED.parse_position(text.rsplit(" ", 1)[0])
    game = plain.parse_rules(OPEN_RULES.canonical())
    with pytest.raises(NotACertificate):
        plain.parse_position(game, text.rsplit(" ", 1)[0])


def test_the_variants_have_their_own_rules_and_sha() -> None:
    assert OPEN.rules.name == "uttt:open" and CLOSED.rules == UtttRules()
    assert OPEN.rules.sha256() != CLOSED.rules.sha256()
    assert game_from_rules(OPEN.rules.canonical()).rules == OPEN_RULES
    assert game_from_rules(CLOSED.rules.canonical()).rules == UtttRules()
    with pytest.raises(RulesError):
        UtttRules(won_boards="playable")  # half a variant is none
    with pytest.raises(RulesError):
        resolve_game("uttt:other")


def test_no_certificate_of_one_variant_passes_as_the_other(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from certify.proving.single import prove
    from solver.search.pns import Claim

    # a late position of a seeded random game under the open rules, where a proof is small
    rng, s = random.Random(7), OPEN.initial()
    for _ in range(60):
        s = OPEN.apply(s, rng.choice(OPEN.legal_moves(s)))
    attempt = prove(OPEN, Claim(OPEN.to_move(s), "no-loss"), OPEN.format_position(s), max_nodes=200_000)
    if attempt.certificate is None:
        attempt = prove(OPEN, Claim(3 - OPEN.to_move(s), "win"), OPEN.format_position(s), max_nodes=200_000)
    assert attempt.certificate is not None
    document = json.loads(attempt.text)  # the file as written
    assert checker.check_document(document).message.startswith("VALID")
    assert checker.check_document(document, rules_sha256=CLOSED.rules.sha256()).exit_code == 1
    swapped = {**document, "rules": CLOSED.rules.canonical()}  # the other rules, the old sha
    assert checker.check_document(swapped).exit_code == 1
    swapped["rules_sha256"] = CLOSED.rules.sha256()  # and a consistent sha: the proof must not fit
    assert checker.check_document(swapped).exit_code != 0


def test_bounded_claims_pin_the_exact_length_and_the_checker_states_the_longest_play() -> None:
    """mnk:3,4,3: player 1 wins; the longest play of the unbounded proof bounds the optimum from
    above, and a bounded search one ply shorter is disproved (its opposite certified)."""
    from certify.proving.single import prove
    from solver.search.pns import Claim

    game = resolve_game("mnk:3,4,3")
    whole = prove(game, Claim(1, "win"), max_nodes=100_000)
    verdict = checker.check_document(json.loads(whole.text)).message
    longest = int(verdict.rsplit("lasts ", 1)[1].split()[0])
    assert verdict.startswith("VALID") and longest == whole.tree.depth
    bounded = prove(game, Claim(1, "win", longest), max_nodes=100_000)
    document = json.loads(bounded.text)
    assert document["claim"]["within"] == longest
    assert f"player 1 wins within {longest} plies" in checker.check_document(document).message
    assert prove(game, Claim(1, "win", longest - 1), max_nodes=100_000).outcome.status == "disproved"
    held = prove(game, Claim(2, "no-loss", longest - 1), max_nodes=100_000)
    assert checker.check_document(json.loads(held.text)).exit_code == 0
    tighter = {**document, "claim": {**document["claim"], "within": longest - 1}}  # the same moves
    assert checker.check_document(tighter).exit_code == 1


def p1_win_certificate(tmp_path) -> str:  # type: ignore[no-untyped-def]
    """A checked file: player 1 wins mnk:3,4,3 (longest play 7 plies)."""
    from certify.proving.single import prove, write_proof
    from solver.search.pns import Claim

    path = tmp_path / "p1-win.json"
    write_proof(prove(resolve_game("mnk:3,4,3"), Claim(1, "win")).certificate, path)
    return str(path)


def test_strategy_bound_claims_read_the_checked_longest_play_and_search_the_rest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from certify.claims.bounds import StrategyBound
    from certify.claims.facts import Bench

    path = p1_win_certificate(tmp_path)
    claim = StrategyBound(id="t.1", where="test", statement="player 1 wins within 7 moves", game="mnk:3,4,3",
                          kind="strategy_bound", player=1, result="win", certificate=path, max_nodes=50_000,
                          readings=[{"name": "7 plies", "within": 7}, {"name": "6 plies", "within": 6}])
    seven, six = claim.evaluate(None, Bench(published_dir=None))
    assert seven.holds is True and "longest play is 7 plies" in seven.measured
    assert six.holds is False and "player 2 does not lose within 6 plies" in six.measured


def test_a_checked_win_refutes_holding_out_past_its_longest_play(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A no-loss bound of player 2 at or past the longest play of a checked player-1 win is refuted
    by that certificate; a shorter bound is left to the search."""
    from certify.claims.bounds import StrategyBound
    from certify.claims.facts import Bench

    path = p1_win_certificate(tmp_path)
    claim = StrategyBound(id="t.2", where="test", statement="player 2 holds on", game="mnk:3,4,3",
                          kind="strategy_bound", player=2, result="no-loss", opponent_certificate=path,
                          max_nodes=50_000, readings=[{"name": "7 plies", "within": 7}, {"name": "6 plies", "within": 6}])
    seven, six = claim.evaluate(None, Bench(published_dir=None))
    assert seven.holds is False and "refuted" in seven.measured and "by ply 7" in seven.measured
    assert six.holds is True and "refuted" not in six.measured


def test_prove_takes_within_and_policy_and_refuses_bad_ones(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from certify.cli import app

    runner = CliRunner()
    out = tmp_path / "w.json"
    done = runner.invoke(app, ["prove", "mnk:3,4,3", "--claim", "win", "--player", "1", "--within", "7",
                               "-o", str(out), "--json"], catch_exceptions=False)
    assert done.exit_code == 0 and json.loads(out.read_text())["claim"]["within"] == 7
    assert "--within 7" in json.loads(out.read_text())["provenance"]["command"]
    bad = runner.invoke(app, ["prove", "uttt:open", "--claim", "win", "--player", "1", "--policy", "no_such_module:plan",
                              "-o", str(tmp_path / "p.json")], catch_exceptions=False)
    assert bad.exit_code == 2 and "no_such_module" in bad.output and not (tmp_path / "p.json").exists()
    plan = tmp_path / "plan.py"  # a plan that names an illegal move: one line, exit 2, nothing written
    plan.write_text("def plan(game, state):\n    return (0,) if game.to_move(state) == 1 else ()\n")
    root = OPEN.format_position(OPEN.play_moves("4.4 4.0"))
    bad = runner.invoke(app, ["prove", "uttt:open", "--claim", "win", "--player", "1", "--position", root,
                              "--policy", f"{plan}:plan", "-o", str(tmp_path / "p.json")], catch_exceptions=False)
    assert bad.exit_code == 2 and "not legal" in bad.output and not (tmp_path / "p.json").exists()


def test_a_reading_settled_by_its_own_certificate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A reading may name a published certificate of exactly its claim: it holds when the checker's
    verdict states that claim, and settles nothing when the claim differs (here: the bound)."""
    from certify.claims.bounds import StrategyBound
    from certify.claims.facts import Bench
    from certify.proving.single import prove, write_proof
    from solver.search.pns import Claim

    path = tmp_path / "p2-within-5.json"
    write_proof(prove(resolve_game("mnk:3,4,3"), Claim(2, "no-loss", 5)).certificate, path)
    claim = StrategyBound(id="t.3", where="test", statement="player 2 holds on", game="mnk:3,4,3",
                          kind="strategy_bound", player=2, result="no-loss", max_nodes=1,
                          readings=[{"name": "5 plies", "within": 5, "certificate": str(path)},
                                    {"name": "6 plies", "within": 6, "certificate": str(path)}])
    five, six = claim.evaluate(None, Bench(published_dir=None))
    assert five.holds is True and "its checked certificate proves it" in five.measured
    assert six.holds is None and "does not settle it" in six.measured


def test_a_bounded_no_loss_certificate_settles_no_longer_bound(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A claim's no-loss certificate of a bound (within 5) settles that bound and shorter ones,
    never a longer one: those are left to the search (here out of budget)."""
    from certify.claims.bounds import StrategyBound
    from certify.claims.facts import Bench
    from certify.proving.single import prove, write_proof
    from solver.search.pns import Claim

    path = tmp_path / "p2-within-5.json"
    write_proof(prove(resolve_game("mnk:3,4,3"), Claim(2, "no-loss", 5)).certificate, path)
    claim = StrategyBound(id="t.4", where="test", statement="player 2 holds on", game="mnk:3,4,3",
                          kind="strategy_bound", player=2, result="no-loss", certificate=str(path), max_nodes=1,
                          readings=[{"name": "4 plies", "within": 4}, {"name": "5 plies", "within": 5},
                                    {"name": "6 plies", "within": 6}, {"name": "no bound"}])
    four, five, six, unbounded = claim.evaluate(None, Bench(published_dir=None))
    assert four.holds is True and five.holds is True and "longest play" in five.measured
    assert six.holds is None and "not settled" in six.measured
    assert unbounded.holds is None and "not settled" in unbounded.measured


def test_a_reading_cites_the_verdict_publish_recorded_for_exactly_its_bytes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An audit cites the checker's line `certify publish` recorded for a certificate (a kept proof
    whose check takes minutes) only while the file holds exactly the bytes checked and speaks of
    the claim's rules; a changed file is checked again, and a recorded INVALID settles nothing."""
    import hashlib

    from certify.claims.bounds import StrategyBound
    from certify.claims.facts import Bench
    from certify.proving.single import prove, write_proof
    from solver.search.pns import Claim

    path = tmp_path / "p2-within-5.json"
    write_proof(prove(resolve_game("mnk:3,4,3"), Claim(2, "no-loss", 5)).certificate, path)
    rules = resolve_game("mnk:3,4,3").rules.sha256()
    claim = StrategyBound(id="t.5", where="test", statement="player 2 holds on", game="mnk:3,4,3",
                          kind="strategy_bound", player=2, result="no-loss", max_nodes=1,
                          readings=[{"name": "5 plies", "within": 5, "certificate": str(path)}])

    def evaluated(sha256: str, rules_sha256: str, line: str):  # type: ignore[no-untyped-def]
        bench = Bench(published_dir=None)
        bench.record([{"file": str(path), "sha256": sha256, "rules_sha256": rules_sha256, "checker": line}])
        return claim.evaluate(None, bench)[0]

    exact = hashlib.sha256(path.read_bytes()).hexdigest()
    recorded = evaluated(exact, rules, "VALID strategy (recorded) player 2 does not lose within 5 plies from the start: x")
    assert recorded.holds is True and "(recorded)" in recorded.witness and "certify publish" in recorded.witness
    for sha256, rules_sha256 in ((hashlib.sha256(b"other bytes").hexdigest(), rules), (exact, "0" * 64)):
        checked = evaluated(sha256, rules_sha256, "VALID strategy (recorded) player 2 does not lose within 5 plies from the start: x")
        assert checked.holds is True and "(recorded)" not in checked.witness and "certify publish" not in checked.witness
    refused = evaluated(exact, rules, "INVALID strategy (recorded): a wrong move")
    assert refused.holds is None and "does not settle it" in refused.measured


def test_the_audit_reads_the_index_of_its_published_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`certify audit` (Bench with a published folder) takes the recorded verdicts from its
    index.json's proofs and closed proofs; an unreadable index gives none."""
    from certify.claims.facts import Bench

    entry = {"file": "a.json", "sha256": "1" * 64, "rules_sha256": "2" * 64, "checker": "VALID x"}
    (tmp_path / "index.json").write_text(json.dumps({"proofs": [entry], "pairing_proofs": [{**entry, "file": "b.json"}],
                                                     "certificates": [{**entry, "file": "c.json"}]}))
    assert sorted(Bench(published_dir=tmp_path).recorded) == ["a.json", "b.json"]
    (tmp_path / "index.json").write_text("not json")
    assert Bench(published_dir=tmp_path).recorded == {}
