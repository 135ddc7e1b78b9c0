"""Each claim kind on tiny games whose answers are known by hand, and on tic-tac-toe facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certify.claims.facts import Bench
from certify.claims.run import audit_file
from certify.claims.symmetry import games_up_to_symmetry
from solver.games.positional.rules import board_symmetries
from solver.games.positional.engine import Game, parse_moves
from solver.search.retrograde import solve
from solver.games.positional.rules import make_rules

# A 1×2 board, X then O, a line is both cells: by hand, the states are
# . .  X .  . X  X O  O X  (5), the moves 2 + 1 + 1 = 4, the games 2, both drawn.
DOMINO = {"name": "domino", "rows": 1, "cols": 2, "k": 2, "marks": "own", "goal": "first-line-wins"}


@pytest.fixture()
def domino(tmp_path: Path) -> str:
    path = tmp_path / "domino.json"
    path.write_text(json.dumps(DOMINO))
    return str(path)


def audit(tmp_path: Path, body: str) -> dict[str, object]:
    """Audit a claims file made of `body`; map claim id → result."""
    path = tmp_path / "claims.toml"
    path.write_text('source = "t"\ntitle = "test"\n' + body)
    return {r.id: r for r in audit_file(path, Bench()).results}


def claim(ident: str, game: str, kind: str, **fields: object) -> str:
    lines = ["[[claim]]", f'id = "{ident}"', 'where = "here"', 'statement = "words"', f"game = {json.dumps(game)}", f'kind = "{kind}"']
    lines += [f"{k} = {json.dumps(v)}" for k, v in fields.items()]
    return "\n".join(lines) + "\n"


def primary(reading: str, *others: str, equally: str = "", tautology: str = "") -> str:
    """`[claim.primary]` naming `reading`, and `[[claim.other]]` for `others` (the one named by
    `equally` supported as well by a quoted sentence, the one named by `tautology` marked so)."""
    lines = ["[claim.primary]", f"reading = {json.dumps(reading)}", 'words = "the words"']
    for other in others:
        lines += ["[[claim.other]]", f"reading = {json.dumps(other)}", 'why = "a reason"']
        lines += ['equally = "a sentence"'] if other == equally else []
        lines += ["tautology = true"] if other == tautology else []
    return "\n".join(lines) + "\n"


REACHABLE, BY_A_MOVE = "states reachable from the empty board", "states reachable by at least one move"


def test_counts_known_by_hand(tmp_path: Path, domino: str) -> None:
    results = audit(
        tmp_path,
        claim("states", domino, "count", quantity="reachable_states", value=5)
        + claim("moves", domino, "count", quantity="edges", value=4)
        + claim("games", domino, "count", quantity="games", value=2)
        + claim("boards", domino, "count", quantity="unreachable_boards", value=4)
        + claim("drawn", domino, "count", quantity="terminal_states.draws", value=2)
        + claim("wrong", domino, "count", quantity="reachable_states", value=6)
        + claim("two", domino, "count", quantity=["reachable_states", "reachable_states_without_empty"], value=4)
        + primary(REACHABLE, BY_A_MOVE, equally=BY_A_MOVE)
        + claim("plain", domino, "count", quantity=["reachable_states", "reachable_states_without_empty"], value=4)
        + primary(REACHABLE, BY_A_MOVE)
        + claim("other", domino, "count", quantity=["reachable_states", "reachable_states_without_empty"], value=4)
        + primary(BY_A_MOVE, REACHABLE),
    )
    assert [results[k].verdict for k in ("states", "moves", "games", "boards", "drawn")] == ["holds"] * 5
    assert results["wrong"].verdict == "refuted"
    assert results["wrong"].readings[0].witness == "off by -1"
    # the primary reading decides; another one makes the claim ambiguous only when a sentence supports it
    assert results["two"].verdict == "ambiguous"
    assert [(r.role, r.holds) for r in results["two"].readings] == [("primary", False), ("alternative", True)]
    assert results["plain"].verdict == "refuted"
    assert results["other"].verdict == "holds"
    assert results["other"].readings[0].name.startswith(BY_A_MOVE)


def test_bound_ratio_value_and_moves(tmp_path: Path, domino: str) -> None:
    results = audit(
        tmp_path,
        claim("bound", domino, "upper_bound", quantity="games", bound=2)
        + claim("low", domino, "upper_bound", quantity="games", bound=1)
        + claim("ratio", domino, "ratio", quantity="edges", denominator="reachable_states", value=0.8, tolerance=0.001)
        + claim("root", domino, "root_value", value="draw")
        + claim("rootwin", domino, "root_value", value="win")
        + claim("first", domino, "first_moves", value="draw", count=2, classes=1)
        + claim("pos", domino, "position_value", moves="X0", value="draw")
        + claim("edge", domino, "move_between", parent=1, move="O1", child=7)
        + claim("badedge", domino, "move_between", parent=1, move="O1", child=5),
    )
    verdicts = {k: r.verdict for k, r in results.items()}
    assert verdicts == {
        "bound": "holds", "low": "refuted", "ratio": "holds", "root": "holds", "rootwin": "refuted",
        "first": "holds", "pos": "holds", "edge": "holds", "badedge": "refuted",
    }  # fmt: skip


def test_one_based_cells_are_converted(tmp_path: Path, domino: str) -> None:
    results = audit(tmp_path, claim("pos", domino, "position_value", moves="X1,O2", value="draw", one_based=True))
    assert "code 7 " in results["pos"].readings[0].measured  # X on cell 0, O on cell 1


def test_atlas_dump_readings(tmp_path: Path) -> None:
    # tic-tac-toe after X0 O3 X1 O4: X to move; X2 wins at once, the other moves do not.
    entries = ", ".join(f'{{ move = "X{c}", child = 0, label = "{"win" if c == 2 else "undef"}" }}' for c in (2, 5, 6, 7, 8))
    body = claim("dump", "tictactoe", "atlas_dump", moves="X0 O3 X1 O4") + f"entries = [{entries}]\n"
    body += '[[claim.reading]]\nname = "at once"\nproperty = "immediate"\nlabels = { win = ["win"], undef = ["none"] }\n'
    right = ", ".join(f'{{ move = "X{c}", child = {220 + 3**c}, label = "{"win" if c == 2 else "undef"}" }}' for c in (2, 5, 6, 7, 8))
    body += claim("good", "tictactoe", "atlas_dump", moves="X0 O3 X1 O4") + f"entries = [{right}]\n"
    body += '[[claim.reading]]\nname = "at once"\nproperty = "immediate"\nlabels = { win = ["win"], undef = ["none"] }\n'
    results = audit(tmp_path, body)
    assert results["good"].verdict == "holds"
    reading = results["dump"].readings[0]
    assert reading.holds is False  # the child codes given (0) are wrong
    assert "leads to" in reading.witness


def test_win_test_witnesses_are_real(tmp_path: Path) -> None:
    results = audit(tmp_path, claim("test", "tictactoe", "win_test") + primary("the test for each player", "the test for either player"))
    result = results["test"]
    assert result.verdict == "refuted"
    witness = result.readings[0].witness
    code = int(witness.split("code ")[1].split(" ")[0])
    solution = solve(make_rules("tictactoe", 3, 3, "own", "first-line-wins", k=3))
    with pytest.raises(KeyError):
        solution.index(code)  # accepted by the test, yet no game reaches it


def test_sequence_formula_counterexample(tmp_path: Path) -> None:
    body = claim("f", "tictactoe", "sequence_formula", formula="mark_count_factorials")
    body += primary("move sequences of a game (it stops", "move sequences of a game, on the boards", "placement orders", tautology="placement orders")
    result = audit(tmp_path, body)["f"]
    # as games (which stop at the first line) the formula fails; as placement orders it holds, but a
    # reading marked a tautology never decides the verdict
    assert result.verdict == "refuted"
    assert [r.verdict for r in result.readings] == ["refuted", "refuted", "tautology"]
    witness = result.readings[0].witness
    stated, measured = (int(x.replace(",", "")) for x in (witness.split("= ")[1].split(" ")[0], witness.split("but ")[1].split(" ")[0]))
    assert stated != measured
    assert [r.holds for r in result.readings] == [False, False, True]


def test_placement_orders_count_by_hand(domino: str) -> None:
    # 1×2 board: "X O" and "O X" are each reached by one order; "X ." by one; "X X" by none
    from certify.claims.boards import placement_orders

    game = Game(solve(make_rules("domino", 1, 2, "own", "first-line-wins", k=2)).rules)
    orders = placement_orders(game)
    assert [int(orders[c]) for c in (0, 1, 3, 1 + 2 * 3, 2 + 1 * 3, 1 + 1 * 3)] == [1, 1, 1, 1, 1, 0]


def test_atlas_nodes_compare_sets(tmp_path: Path, domino: str) -> None:
    # the domino's Atlas visits . . / X . / . X / X O / O X and references all but the empty board
    body = claim("atlas", domino, "atlas_nodes", value=4, codes=[1, 3, 8])
    result = audit(tmp_path, body + primary("nodes: every situation the rebuilt Atlas visits", "nodes: every situation some move references"))["atlas"]
    assert result.verdict == "holds"
    assert [r.measured.split(",")[0] for r in result.readings] == ["5 nodes", "4 nodes"]
    assert "not reachable: 8" in result.reasons[0]  # 8 = O O, never reached


def test_atlas_dump_is_shown_beside_the_source(tmp_path: Path, domino: str) -> None:
    body = claim("dump", domino, "atlas_dump", board=0) + 'entries = [{ move = "X0", child = 1, label = "win" }]\n'
    body += '[[claim.reading]]\nname = "win = wins"\nproperty = "move_value"\nlabels = { win = ["win"] }\n'
    result = audit(tmp_path, body)["dump"]
    (table,) = result.exhibits
    assert [row[0] for row in table.rows] == ["X0", "X1"]  # every legal move, the unlisted one too
    assert table.rows[1][1] == "not listed"


EVERY = "every position the player meets in tictactoe, as first and as second player"


def test_search_players_slower_and_fastest_wins(tmp_path: Path) -> None:
    result = audit(
        tmp_path,
        claim("fast", "tictactoe", "fastest_win", slower=["alphabeta"], fastest=["alphabeta-depth"], board=2371)
        + primary(f"{EVERY}, equally good moves broken to the first", f"{EVERY}, every equally good move", "the source's example")
        + claim("wrong", "tictactoe", "fastest_win", slower=["alphabeta-depth"], fastest=["alphabeta"])
        + primary(f"{EVERY}, equally good moves broken to the first", f"{EVERY}, every equally good move"),
    )
    assert result["fast"].verdict == "holds"
    assert result["wrong"].verdict == "refuted"
    # a random tie-break lets alpha-beta pick a slower win in more positions than the first-move rule
    first, random_ties = (r.measured.split("alphabeta: a slower win in ")[1].split(" states")[0] for r in result["fast"].readings[:2])
    assert sum(int(n.split(" ")[0].replace(",", "")) for n in first.split(" + ")) < sum(
        int(n.split(" ")[0].replace(",", "")) for n in random_ties.split(" + ")
    )


def test_a_policy_case_read_for_optimal_play_only_says_why(tmp_path: Path) -> None:
    result = audit(
        tmp_path,
        claim("case", "tictactoe", "policy_case", bot_first="edge", opponent_first="centre", outcomes=["draw"], opponents=["optimal"])
        + primary("T3DT reading 't3dt',", "T3DT reading 't3dt-alt',"),
    )["case"]
    assert result.verdict == "holds"
    assert all("optimally" in r.name for r in result.readings)
    assert any("for optimal play" in reason for reason in result.reasons)


def test_final_scores_and_bounds(tmp_path: Path) -> None:
    # 1×3 board, K=3, most lines: X takes two cells, O one; only X can complete the line.
    spec = tmp_path / "strip.json"
    spec.write_text(json.dumps({"name": "strip", "rows": 1, "cols": 3, "k": 3, "marks": "own", "goal": "most-lines"}))
    results = audit(
        tmp_path,
        claim("pairs", str(spec), "final_scores", pairs=[[0, 0]])
        + claim("bounds", str(spec), "score_bounds", t1=[0, 1], t2=[0, 0], total_max=1),
    )
    assert results["pairs"].verdict == "holds"  # every full strip holds an O
    assert results["bounds"].verdict == "holds"


def test_games_up_to_symmetry_matches_brute_force() -> None:
    rules = make_rules("2x2", 2, 2, "own", "first-line-wins", k=2)
    game = Game(rules)
    symmetries = board_symmetries(rules)
    seen = set()

    def walk(code: int, moves: tuple[tuple[int, int], ...]) -> None:
        if game.is_terminal(code):
            seen.add(min(tuple((p[c], m) for c, m in moves) for p in symmetries))
            return
        for move in game.legal_moves(code):
            walk(game.apply(code, move), moves + ((move.cell, move.mark),))

    walk(0, ())
    assert games_up_to_symmetry(solve(rules), swap=False) == len(seen)


def against(pairs: str) -> tuple[str, str]:
    """The names of a pairing claim's readings against any play and against a tactical opponent."""
    return f"player 1's pairing {pairs}, opening 4, every", f"player 1's pairing {pairs}, opening 4, opponent completes"


def test_pairing_claims_are_read_against_each_opponent(tmp_path: Path) -> None:
    results = audit(
        tmp_path,
        claim("mirror", "cumulative", "pairing_strategy", player=1, opening=4,
              pairs=[[0, 8], [1, 7], [2, 6], [3, 5]], property="no-loss", opponents=["any", "tactics"])
        + primary(*against("0-8,1-7,2-6,3-5"))
        + claim("nolines", "cumulative", "pairing_strategy", player=1, opening=4,
                pairs=[[0, 1], [2, 5], [3, 6], [7, 8]], property="no-lines", opponents=["any", "tactics"])
        + primary(*against("0-1,2-5,3-6,7-8"), equally=against("0-1,2-5,3-6,7-8")[1]),
    )  # fmt: skip
    assert [r.holds for r in results["mirror"].readings] == [True, True]
    assert results["mirror"].verdict == "holds"
    refuted, proved = results["nolines"].readings
    assert (refuted.holds, proved.holds, results["nolines"].verdict) == (False, True, "ambiguous")
    # the counterexample is a real game of cumulative that ends with a complete line
    played = " ".join(t for t in refuted.witness.split() if t[:1] in "XO" and t[1:].isdigit())
    game = Game(make_rules("cumulative", 3, 3, "own", "most-lines", k=3))
    final = game.board(game.play(parse_moves(played)))
    assert 0 not in final
    assert any(len({final[c] for c in line}) == 1 for line in game.rules.lines)


def test_a_universal_pairing_with_every_opening(tmp_path: Path) -> None:
    # the opening is the pairing strategy's first free move: no pairing forces an exact draw from
    # every opening in both roles, while one never out-scored from every opening exists
    body = claim("exact", "cumulative", "universal_pairing", exists=False) + 'reading = [{ property = "draw", free_moves = "every", opening = "every" }]\n'
    body += claim("never", "cumulative", "universal_pairing", exists=False) + 'reading = [{ property = "no-loss", free_moves = "every", opening = "every" }]\n'
    results = audit(tmp_path, body)
    assert results["exact"].verdict == "holds"
    assert "no pairing serves both roles" in results["exact"].primary.measured
    assert results["never"].verdict == "refuted"
    assert "(player 1 any opening) serves both roles" in results["never"].primary.measured


def test_an_opening_for_every_cell_needs_every_free_move(tmp_path: Path) -> None:
    from certify.claims.load import ClaimsFileError

    body = claim("x", "cumulative", "universal_pairing", exists=False) + 'reading = [{ property = "draw", free_moves = "some", opening = "every" }]\n'
    with pytest.raises(ClaimsFileError, match="opening = 'every' reads the opening as a free move"):
        audit(tmp_path, body)
