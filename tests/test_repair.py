"""`certify prove ... --within N --from-proof FILE` (certify/proving/repair.py): a proved win made shorter.

A plan whose plays are too long is repaired by bounded sub-searches where they are too long, and
the result is a plain bounded certificate the stdlib checker accepts; a plan that cannot be made
short enough is reported as such, with nothing written.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest
from typer.testing import CliRunner

from certify.cli import app
from certify.proving.repair import repair, walk
from certify.proving.single import read_proof, strategy_certificate, strategy_moves, write_proof
from solver.games.families import game_from_rules
from solver.search.pns import Claim
from solver.search.prooftree import canonical_strategy

ROOT = Path(__file__).resolve().parents[1]
PROOFS = ROOT / "certificates" / "proofs"
MNK = PROOFS / "mnk-4-4-3.p1-win.json"  # X wins 4x4 three-in-a-row, its longest play 7 plies
UTTT = PROOFS / "uttt-open.p1-win.json"
# two positions of the open-rules proof at ply 38, X to move, its plays there lasting 5 more plies:
SHORTER = ("....XO.X./.X.OX..X./.X.OXO.X./.X.OOO.../.X.OXO.X./.X.OOO.../...OOO.X./.X.OOO.X./.X..XO.X. 5")  # X wins in 3
NOT_SHORTER = ("XO.X...../.XO.X..X./.OX..X..X/...OOOX../.X.OXO.X./..XOOO..X/......OOO/.X..X.OOO/..X..XOOX 7")  # not in 3
runner = CliRunner()


def checker(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-S", "-m", "checker", str(path)], cwd=ROOT, capture_output=True, text=True)


def test_a_win_is_made_shorter_and_the_checker_accepts_it(tmp_path: Path) -> None:
    plan, game = read_proof(MNK)
    assert walk(game, game.initial(), 1, strategy_moves(plan, game)).height[game.key(game.initial())] == 7
    out = tmp_path / "short.json"
    result = runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--within", "5",
                                 "--from-proof", str(MNK), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "proved" and data["depth"] <= 5 and data["plan_longest_play"] == 7
    assert 0 < data["kept"] < data["prover_moves"]  # the plan kept where it fits, searched where it did not
    assert data["by_symmetry"] > 0  # some bad positions settled by an image's sub-proof: the checker below judges them too
    assert json.loads(out.read_text())["claim"]["within"] == 5
    checked = checker(out)
    assert checked.returncode == 0 and "player 1 wins within 5 plies" in checked.stdout, checked.stdout


def test_a_repair_that_cannot_reach_the_bound_says_so_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "short.json"
    result = runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--within", "4",
                                 "--from-proof", str(MNK), "-o", str(out), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["status"] == "disproved" and data["sub_searches"][-1]["ply"] == 0  # X needs 5 plies for 3 marks
    assert not out.exists()


def test_out_of_its_node_budget_a_repair_is_not_a_disproof() -> None:
    plan, game = read_proof(MNK)
    done = repair(game, plan, 4, job_nodes=1)
    assert done.status == "failed" and done.certificate is None
    assert {s.status for s in done.searches} >= {"node budget"}


def sub_plan(position: str, path: Path) -> None:
    """The open-rules proof's strategy from `position`, written as a proof of its own (the plan)."""
    plan, game = read_proof(UTTT)
    moves = strategy_moves(plan, game)
    state = game.parse_position(position)
    tree = canonical_strategy(game, state, 1, lambda s: moves[game.key(s)])
    certificate, _ = strategy_certificate(game, Claim(1, "win"), position, state, tree, "", time.perf_counter(), False)
    write_proof(certificate, path)


@pytest.mark.parametrize(("position", "holds"), [(SHORTER, True), (NOT_SHORTER, False)])
def test_an_open_rules_plan_from_the_published_proof_is_repaired_or_refused(tmp_path: Path, position: str, holds: bool) -> None:
    plan_path, out = tmp_path / "plan.json", tmp_path / "short.json"
    sub_plan(position, plan_path)
    result = runner.invoke(app, ["prove", "uttt:open", "--claim", "win", "--player", "1", "--within", "3", "--position", position,
                                 "--from-proof", str(plan_path), "-o", str(out), "--json"])
    data = json.loads(result.stdout)
    assert data["plan_longest_play"] == 5
    if holds:
        assert result.exit_code == 0 and data["status"] == "proved", result.output
        checked = checker(out)
        assert checked.returncode == 0 and "wins within 3 plies" in checked.stdout and checked.stdout.rstrip().endswith("3 plies")
    else:
        assert result.exit_code == 1 and data["status"] == "disproved" and not out.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--claim", "win", "--player", "1"], "give --claim win and --within N"),
    (["--claim", "no-loss", "--player", "1", "--within", "5"], "give --claim win and --within N"),
    (["--claim", "win", "--player", "2", "--within", "5"], "proves win for player 1, not win for player 2"),
    (["--claim", "win", "--player", "1", "--within", "5", "--policy", "x:y"], "leave out --policy"),
    (["--claim", "win", "--player", "1", "--within", "5", "--position", "X.../..../..../...."], "its root is the start"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["prove", "mnk:4,4,3", *args, "--from-proof", str(MNK)])
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_proof_of_another_game_or_no_proof_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["prove", "mnk:5,5,3", "--claim", "win", "--player", "1", "--within", "5", "--from-proof", str(MNK)])
    assert result.exit_code == 2 and "a proof about mnk:4,4,3, not mnk:5,5,3" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--within", "5", "--from-proof", str(bad)])
    assert result.exit_code == 2 and "not a certify certificate" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = runner.invoke(app, ["prove", "tictactoe", "--claim", "win", "--player", "1", "--within", "5", "--from-proof",
                                 str(ROOT / "certificates" / "tictactoe.json")])
    assert result.exit_code == 2 and "a table certificate, not a proof" in result.stderr


def test_a_compiled_search_with_a_policy_is_freed_when_dropped() -> None:
    # the core calls the policy back; holding the search itself there made a cycle the collector never saw:
    # every sub-search's table stayed resident (a repair of thousands of sub-searches ran out of memory)
    from solver.search.native import NativeProofSearch
    from solver.search.policy import PolicyHooks

    plan, game = read_proof(UTTT)
    search = NativeProofSearch(game, Claim(1, "win", 3), PolicyHooks(game, lambda g, s: (), game.search_hooks()))
    search.search(game.parse_position(SHORTER), 100)
    ref = weakref.ref(search)
    del search
    assert ref() is None


def test_a_plan_that_is_not_symmetric_is_searched_as_it_is() -> None:
    # positional hooks share one table entry among symmetric images; a policy's moves differ between them,
    # so a policy search keeps exact positions (a repair's plan is the proof's moves, never symmetric)
    plan, game = read_proof(PROOFS / "mnk-5-5-3.p1-win.json")
    done = repair(game, plan, 5, job_nodes=100_000)
    assert done.status == "proved" and done.tree is not None and done.tree.depth <= 5


def test_game_from_rules_round_trips_the_plan() -> None:
    plan, game = read_proof(MNK)
    assert game_from_rules(plan.rules).rules.sha256() == plan.rules_sha256


def test_a_plan_whose_play_ends_without_the_win_is_refused(tmp_path: Path) -> None:
    plan, game = read_proof(MNK)
    document = json.loads(MNK.read_text())
    document["claim"]["player"] = 2  # the same moves read as player 2's: its plays end in X's wins, not O's
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(document))
    result = runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "2", "--within", "5", "--from-proof", str(forged)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output


def test_a_level_disproved_almost_everywhere_is_jumped_over(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # mnk:4,4,3 within 5: both plan positions at ply 4 are disproved; with --jump 2 the ply-2 positions are skipped
    # unsearched and the root is searched directly, and the proof still checks
    import certify.proving.repair as repairing

    monkeypatch.setattr(repairing, "JUMP_MIN", 1)  # a level this small counts
    plan, game = read_proof(MNK)
    step = repair(game, plan, 5, job_nodes=100_000)
    leap = repair(game, plan, 5, job_nodes=100_000, jump=2)
    assert step.status == leap.status == "proved"
    assert {s.ply for s in step.searches if s.status == "proved"} == {2}  # one level at a time: ply 2 proved
    assert {(s.ply, s.status) for s in leap.searches if s.nodes} == {(4, "disproved"), (0, "proved")}
    assert sum(s.status == "skipped" for s in leap.searches) == 3
    assert leap.tree is not None and leap.tree.depth <= 5
    assert leap.certificate is not None
    write_proof(leap.certificate, tmp_path / "leap.json")
    checked = checker(tmp_path / "leap.json")
    assert checked.returncode == 0 and "wins within 5 plies" in checked.stdout, checked.stdout


def test_a_jump_never_skips_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # within 4 X cannot win (five plies for three marks); a jump past the root must still search it, or
    # the repair would end "failed" instead of disproving the claim
    import certify.proving.repair as repairing

    monkeypatch.setattr(repairing, "JUMP_MIN", 1)
    plan, game = read_proof(MNK)
    for jump in (2, 5):
        done = repair(game, plan, 4, job_nodes=100_000, jump=jump)
        assert done.status == "disproved" and done.searches[-1].ply == 0 and done.searches[-1].status == "disproved"


def test_a_stopped_repair_resumes_from_its_log(tmp_path: Path) -> None:
    plan, game = read_proof(MNK)
    log = tmp_path / "repair.log"
    whole = repair(game, plan, 5, job_nodes=100_000)
    stopped = repair(game, plan, 5, job_nodes=100_000, max_nodes=1, log=log)
    assert stopped.status == "node budget" and stopped.certificate is None
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "certify-repair-log" and len(lines) - 1 == len(stopped.searches)
    with log.open("a") as torn:  # a run killed while writing leaves half a line
        torn.write('{"position": "X')
    resumed = repair(game, plan, 5, job_nodes=100_000, log=log, resume=log)
    assert resumed.status == "proved" and resumed.resumed == len(stopped.searches)
    again = {s.position for s in resumed.searches[resumed.resumed:] if s.status not in ("no room",)}
    assert not again & {s.position for s in stopped.searches if s.status != "node budget"}  # nothing settled is searched twice
    assert resumed.certificate is not None and whole.certificate is not None
    assert resumed.tree is not None and resumed.tree.depth <= 5


def test_a_proved_sub_search_is_read_back_from_the_log(tmp_path: Path) -> None:
    # a log whose sub-proofs settle the repair: resuming from it searches nothing and writes a proof the checker accepts
    plan, game = read_proof(MNK)
    log = tmp_path / "repair.log"
    first = repair(game, plan, 5, job_nodes=100_000, log=log)
    assert first.status == "proved" and any(json.loads(line).get("moves") for line in log.read_text().splitlines()[1:])
    done = repair(game, plan, 5, job_nodes=100_000, resume=log)
    assert done.status == "proved" and len(done.searches) == done.resumed
    # the plan's own figures, whatever the log proved; what was still bad when this run began, apart
    assert (done.bad_before, done.longest_before) == (first.bad_before, first.longest_before) == (first.bad_at_start, 7)
    assert done.bad_at_start == 0 < done.bad_before
    assert done.certificate is not None
    write_proof(done.certificate, tmp_path / "again.json")
    assert checker(tmp_path / "again.json").returncode == 0


def test_the_cli_logs_resumes_and_refuses_another_repairs_log(tmp_path: Path) -> None:
    log, out = tmp_path / "repair.log", tmp_path / "short.json"
    base = ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--from-proof", str(MNK), "-o", str(out), "--json"]
    result = runner.invoke(app, [*base, "--within", "5", "--max-nodes", "1", "--checkpoint", str(log)])
    assert result.exit_code == 1 and json.loads(result.stdout)["status"] == "node budget" and log.exists()
    result = runner.invoke(app, [*base, "--within", "6", "--resume", str(log)])
    assert result.exit_code == 2 and "the log of another repair (its within differ)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = runner.invoke(app, [*base, "--within", "5", "--resume", str(MNK)])
    assert result.exit_code == 2 and "not a certify repair log" in result.stderr
    result = runner.invoke(app, [*base, "--within", "5", "--resume", str(log), "--checkpoint", str(log), "--jump", "2"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["status"] == "proved" and data["resumed_sub_searches"] > 0
    assert not log.exists()  # settled: the log is removed, as a search's checkpoint is
    assert checker(out).returncode == 0
    result = runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--jump", "2"])
    assert result.exit_code == 2 and "--jump skips levels of a repair: give it with --from-proof FILE" in result.stderr


@pytest.mark.parametrize("name", ["uttt", "uttt:open", "mnk:4,4,3", "mnk:5,4,4"])
def test_a_familys_symmetries_commute_with_the_rules(name: str) -> None:
    # a repair shares a sub-result among images: each map must carry positions, moves and results along
    import random

    from solver.games.families import resolve_game

    game = resolve_game(name)
    maps = game.symmetries()
    start = game.initial()
    assert [f(start) for f, _ in maps] == [start] * len(maps)
    assert len(maps) == (4 if name == "mnk:5,4,4" else 8)  # a square board's 8, a rectangle's 4: these lines have no more
    rng = random.Random(36)
    for _ in range(12):
        state = game.initial()
        while not game.is_terminal(state):
            legal = game.legal_moves(state)
            for image, move_image in maps:
                seen = image(state)
                assert sorted(move_image(m) for m in legal) == game.legal_moves(seen)
                assert game.is_terminal(seen) is False and game.to_move(seen) == game.to_move(state)
            move = rng.choice(legal)
            for image, move_image in maps:
                assert image(game.apply(state, move)) == game.apply(image(state), move_image(move))
            state = game.apply(state, move)
        assert {game.returns(image(state)) for image, _ in maps} == {game.returns(state)}
    if name.startswith("uttt"):
        assert len({image(game.parse_position(NOT_SHORTER)) for image, _ in maps}) == 8


def test_a_repair_shares_sub_results_among_symmetric_images(tmp_path: Path) -> None:
    # the corner-pin position below is its own mirror image (the grid's diagonal): its bad positions come in
    # mirrored pairs, and one search settles both; the same verdicts, fewer searches
    position = "X.O...X../.X..X..X./O.X..X..X/...OOO.../.X.OXO.X./..XOOO.../X.....OOO/.X..X.OO./..X...O.X 0"
    sub_plan(position, tmp_path / "plan.json")
    plan, game = read_proof(tmp_path / "plan.json")
    shared = repair(game, plan, 8, job_nodes=100_000)
    game.symmetries = lambda: []  # the same game without them: every bad position searched
    alone = repair(game, plan, 8, job_nodes=100_000)
    assert shared.status == alone.status
    assert shared.by_symmetry > 0 and alone.by_symmetry == 0
    searched = [s for s in shared.searches if s.status != "no room"]
    assert len(searched) + shared.by_symmetry >= len([s for s in alone.searches if s.status != "no room"]) > len(searched)


def test_one_disproved_reply_of_the_opponent_at_the_root_disproves_the_claim(tmp_path: Path) -> None:
    # O moves at this root (a corner-pin position at ply 37): once X is disproved after one of O's replies,
    # O plays it, so the claim is false there and the other replies are not searched
    position = "X.O...X../.X..X..X./O.X..X..X/...OOO.../.X.OXO.X./..XOOO..X/X.....OOO/.X..X.OOO/..X..XOOX 0"
    sub_plan(position, tmp_path / "plan.json")
    plan, game = read_proof(tmp_path / "plan.json")
    game.symmetries = lambda: []  # without them: the two replies below are each other's mirror images
    done = repair(game, plan, 4, job_nodes=100_000)
    replies = [s for s in done.searches if s.ply == 1]
    assert done.status == "disproved" and [s.status for s in replies] == ["disproved"]
