"""First proof numbers from the meta-line count (CriticalSquares.estimate, kernel.c `estimate`).

With `certify prove --estimate`, a search of Ultimate tic-tac-toe starts a position it has not
seen from numbers of the marks each side still needs for a meta line instead of 1/1: a win
claim's at every position (pn 4^(prover's marks - 1), dn 4^(opponent's marks - 1)), a bounded
no-loss claim's at the prover's positions (pn 32^(slack - 1), the slack being the opponent's
moves left before the bound less the marks it still needs, plus 1). Only the search's choices
depend on them, so what is tested is that the numbers are what they claim to be (never settling
a position, within the search's range, the slack's never growing down a play), that both cores
search alike with them and fewer nodes than without, and that the command records the option and
refuses it where it means nothing.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from certify.cli import app
import checker
from solver.games.uttt.engine import (ESTIMATE_BITS, ESTIMATE_SLACK, ESTIMATE_WIN_BITS, ESTIMATE_WIN_MARKS, OPEN_RULES,
                                      CriticalSquares, Uttt, UtttRules, marks_needed)
from solver.search.native import NativeProofSearch
from solver.search.pns import INF, Claim, ProofSearch


@pytest.mark.parametrize("rules", [UtttRules(), OPEN_RULES], ids=["standard", "open"])
def test_the_first_numbers_never_settle_and_never_grow_down_a_play(rules: UtttRules) -> None:
    """Along random plays, for either prover and several bounds. A bounded no-loss claim: 1/1 at
    the opponent's positions, at the prover's a power of 2^ESTIMATE_BITS of at most
    ESTIMATE_SLACK - 1 steps over dn 1 (so no estimate settles a position, and 81 children's sum
    stays below INF), and the proof number never grows from one of the prover's positions to the
    next (the opponent's moves left fall by one between them, its count by one at most; the
    prover's marks never lower it). A win claim, bounded or not: powers of 2^ESTIMATE_WIN_BITS,
    one step per mark a side lacks past the first, the prover's pn the other side's dn. 1/1 for an
    unbounded no-loss claim and for a search that did not ask (`estimating` off)."""
    game = Uttt(rules)
    hooks, win = CriticalSquares(rules.open, estimating=True), CriticalSquares(rules.open, win_by=81, estimating=True)
    rng = random.Random(36)
    seen = 0
    for _ in range(30):
        state, bound = game.initial(), rng.randrange(17, 44)
        before = {1: INF, 2: INF}
        for ply in range(bound):
            if game.is_terminal(state):
                break
            for prover in (1, 2):
                assert hooks.estimate(state, prover, "no-loss", None) is None
                assert CriticalSquares(rules.open).estimate(state, prover, "no-loss", bound - ply) is None  # not asked for
                assert CriticalSquares(rules.open).estimate(state, prover, "win", None) is None
                for searching, left in ((hooks, None), (win, bound - ply)):
                    pn, dn = searching.estimate(state, prover, "win", left) or (1, 1)
                    for number, player in ((pn, prover), (dn, 3 - prover)):
                        marks = min(marks_needed(state, player), ESTIMATE_WIN_MARKS)
                        assert number == 1 << ESTIMATE_WIN_BITS * max(marks - 1, 0) and 81 * number < INF
                    assert (searching.estimate(state, 3 - prover, "win", left) or (1, 1)) == (dn, pn)
                numbers = hooks.estimate(state, prover, "no-loss", bound - ply)
                if game.to_move(state) != prover:
                    assert numbers is None
                    continue
                pn, dn = numbers or (1, 1)
                steps = (pn.bit_length() - 1) // ESTIMATE_BITS
                assert dn == 1 and pn == 1 << ESTIMATE_BITS * steps and steps < ESTIMATE_SLACK
                assert 81 * pn < INF and pn <= before[prover]
                before[prover], seen = pn, seen + (pn > 1)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert seen  # some positions had slack to spare


# a standard-rules position of ply 45 (seeded random play) where O's win is proved
LATE = "O.OXOOX../XXO..XX../XOXXOXXX./XXO.X.O../OO.O.X.../....O.XO./...X..OOO/.O..X.X../OOOXOXX.. 5"


@pytest.mark.parametrize("rules, moves, claim", [
    (OPEN_RULES, "4.4 4.0", Claim(2, "no-loss", 21)),  # O's no-loss within 21 plies after 4.4 4.0
    (UtttRules(), None, Claim(2, "win")),  # O's win from LATE
], ids=["bounded no-loss", "win"])
def test_both_cores_search_alike_with_the_first_numbers_and_fewer_nodes_than_without(
        rules: UtttRules, moves: str | None, claim: Claim) -> None:
    """The Python core with 1/1 leaves takes more nodes than with the count's first numbers; the
    compiled core, with them, takes exactly the Python core's nodes (the search only: the
    certificate's walk is the same either way)."""
    game = Uttt(rules)
    root = game.play_moves(moves) if moves else game.parse_position(LATE)
    unit = game.search_hooks().for_claim(claim.result, claim.within, root)
    hooks = CriticalSquares(unit.open_rules, unit.win_by, unit.symmetries, estimating=True)
    plain = ProofSearch(game, claim, unit).search(root, max_nodes=20_000)
    python = ProofSearch(game, claim, hooks).search(root, max_nodes=20_000)
    native = NativeProofSearch(game, claim, hooks).search(root, max_nodes=20_000)
    assert plain.status == python.status == native.status == "proved"
    assert python.nodes < plain.nodes
    assert (native.nodes, native.root_pn, native.root_dn) == (python.nodes, python.root_pn, python.root_dn)


def test_the_command_records_the_option_and_refuses_it_where_it_means_nothing(tmp_path: Path) -> None:
    """`--estimate` is in the certificate's recorded command (its search is another search) and the
    file checks VALID; a family without first numbers, or --plain, is refused in one line, exit 2,
    nothing written."""
    out = tmp_path / "p.json"
    done = CliRunner().invoke(app, ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "21",
                                    "--estimate", "-o", str(out)])
    assert done.exit_code == 0, done.output
    document = json.loads(out.read_text())
    assert document["provenance"]["command"].endswith("--within 21 --estimate")
    assert checker.check_document(document).exit_code == 0
    for words, message in ((["mnk:3,3,3", "--claim", "no-loss", "--player", "2"], "has no first numbers of its own"),
                           (["uttt:open", "--claim", "no-loss", "--player", "2", "--within", "21", "--plain"], "--plain")):
        refused = tmp_path / "r.json"
        result = CliRunner().invoke(app, ["prove", *words, "--estimate", "-o", str(refused)])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.output
        assert result.stderr.startswith("error: --estimate: ") and not refused.exists()


def test_the_value_of_a_position_is_settled_with_the_first_numbers_and_they_are_recorded(tmp_path: Path) -> None:
    """`certify prove uttt --value --estimate`: each claim's certificate records the option in its
    command and checks VALID; a family without first numbers is refused in one line, nothing written."""
    done = CliRunner().invoke(app, ["prove", "uttt", "--value", "--position", LATE, "--estimate", "-o", str(tmp_path), "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["value"] in ("win", "draw", "loss") and report["files"]
    for name in report["files"]:
        document = json.loads(Path(name).read_text())
        assert document["provenance"]["command"].endswith(" --estimate")
        assert checker.check_document(document).exit_code == 0
    refused = tmp_path / "mnk"
    refused.mkdir()
    result = CliRunner().invoke(app, ["prove", "mnk:3,3,3", "--value", "--estimate", "-o", str(refused)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "has no first numbers of its own" in result.stderr
    assert not any(refused.iterdir())
