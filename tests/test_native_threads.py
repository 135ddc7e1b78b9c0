"""Threads sharing the compiled search's table (solver/search/dfpn.c "threads", `certify prove --threads`).

Several threads race on one table, so node counts and the certificate's bytes vary from run to
run; what may not vary is the verdict (the serial search's) and that every certificate is one the
checker accepts. Each test runs the threads on claims of at most some 100,000 nodes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import checker
from certify.cli import app
from certify.proving.single import CoreUnavailable, prove
from solver.games.families import resolve_game
from solver.search.pns import Claim

native = pytest.importorskip("solver.search.native", reason="the compiled df-pn is not built (pip install -e .)")


def checked(text: str | None) -> None:
    assert text is not None
    verdict = checker.check_document(json.loads(text))
    assert verdict.exit_code == 0, verdict.message


@pytest.mark.parametrize(("game_text", "claim"), [
    ("mnk:4,4,4", Claim(1, "no-loss")), pytest.param("mnk:4,4,4", Claim(2, "no-loss"), marks=pytest.mark.slow),  # its check: a minute
    ("mnk:4,4,4", Claim(1, "win")), ("tictactoe", Claim(1, "no-loss")), ("tictactoe", Claim(2, "no-loss")),
    ("mnk:3,4,3", Claim(1, "win"))])
def test_two_threads_give_the_serial_verdict_and_a_valid_certificate(game_text: str, claim: Claim) -> None:
    game = resolve_game(game_text)
    serial = prove(game, claim, core="native")
    for threads in (2, 3):
        threaded = prove(game, claim, threads=threads)
        assert threaded.core == "native"
        assert threaded.outcome.status == serial.outcome.status, (game_text, claim, threads)
        if threaded.outcome.status == "proved":
            checked(threaded.text)


def test_pairings_closures_in_the_threads() -> None:
    game = resolve_game("mnk:4,5,4")
    threaded = prove(game, Claim(2, "no-loss"), pairings=True, threads=2)
    assert threaded.outcome.status == "proved" and threaded.tree is not None and threaded.tree.closures
    checked(threaded.text)


def test_threads_on_a_table_that_evicts() -> None:
    """3 threads on the smallest table (1 MB, about 20,000 slots, for a claim of about 60,000 nodes):
    writers walk and lock runs of full buckets and evict under each other's readers (dfpn.c's
    per-bucket sequence locks); the verdict and a certificate the checker accepts stand."""
    game = resolve_game("mnk:4,4,4")
    search = native.NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=1, threads=3)
    assert search.search(game.initial()).status == "proved" and search.evictions > 0
    threaded = prove(game, Claim(1, "no-loss"), threads=3, table_mb=1)
    assert threaded.outcome.status == "proved"
    checked(threaded.text)


@pytest.mark.parametrize("within", [12, 16])
def test_open_rules_uttt_within_with_count_closures(within: int) -> None:
    """uttt:open, 40 seeded plies in, the opponent of the side to move does not lose within N plies:
    the count closure (asked always for a bounded no-loss claim) runs in every thread."""
    from certify.bench.parallel import seeded_position

    game = resolve_game("uttt:open")
    state = seeded_position(game, 40, 0)
    claim = Claim(3 - game.to_move(state), "no-loss", within)
    serial = prove(game, claim, game.format_position(state))
    threaded = prove(game, claim, game.format_position(state), threads=2)
    assert threaded.outcome.status == serial.outcome.status == "proved"
    checked(threaded.text)


def test_budgets_stop_every_thread() -> None:
    game = resolve_game("mnk:4,5,4")
    search = native.NativeProofSearch(game, Claim(2, "no-loss"), game.search_hooks(), table_mb=64, threads=2)
    outcome = search.search(game.initial(), max_nodes=5_000)
    assert outcome.status == "node budget" and 0 < outcome.nodes <= 5_000  # the threads' nodes together
    outcome = search.search(game.initial(), max_seconds=0.05)
    assert outcome.status == "time budget"
    outcome = search.search(game.initial(), max_memory_mb=1)  # the process is past 1 MB already
    assert outcome.status == "memory budget"
    pn, dn = search.numbers(game.initial())
    assert pn > 0 and dn > 0


def test_an_interrupt_stops_the_threads_and_the_table_resumes() -> None:
    """Ctrl-C (here: the progress callback raising KeyboardInterrupt, as a signal handler would) stops
    the threads with the table kept; the next search call goes on from it and proves the claim."""
    game = resolve_game("mnk:4,4,4")
    calls = []

    def progress(_report: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt

    search = native.NativeProofSearch(game, Claim(2, "no-loss"), game.search_hooks(), progress, progress_seconds=0.0,
                                      table_mb=64, threads=2)
    first = search.search(game.initial())
    if first.status == "proved":  # settled before the supervisor's second look: nothing to interrupt
        return
    assert first.status == "interrupted" and search.entries > 0
    again = search.search(game.initial())
    assert again.status == "proved" and again.nodes > first.nodes


def test_a_policy_runs_on_one_thread() -> None:
    from certify.players.load import imported_policy

    game = resolve_game("tictactoe")
    with pytest.raises(CoreUnavailable, match="--threads"):
        prove(game, Claim(1, "no-loss"), policy=imported_policy("certify.papers.bertholon:open_rules_plan"), threads=2)


def test_cli_threads_certificate_checkpoint_and_refusals(tmp_path: Path) -> None:
    runner = CliRunner()
    out, saved = tmp_path / "p.json", tmp_path / "run.ckpt"
    base = ["prove", "tictactoe", "--claim", "no-loss", "--player", "2", "--plain", "--threads", "2", "-o", str(out)]
    stopped = runner.invoke(app, base + ["--max-nodes", "50", "--checkpoint", str(saved), "--json"])
    assert stopped.exit_code == 1, stopped.output
    assert saved.exists() and not out.exists()
    resumed = runner.invoke(app, base + ["--resume", str(saved), "--max-memory", "400", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.output[resumed.output.index("{"):])["threads"] == 2
    assert checker.check_file(str(out)).exit_code == 0
    # the file says how it was found: a threaded run's bytes are not the serial command's
    assert json.loads(out.read_text())["provenance"]["command"].endswith("--plain --threads 2")
    for clash in (["--workers", "2"], ["--core", "python"], ["--policy", "certify.papers.bertholon:open_rules_plan"]):
        refused = runner.invoke(app, ["prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--threads", "2",
                                      "-o", str(tmp_path / "r.json"), *clash])
        assert refused.exit_code == 2 and "--threads" in refused.output, (clash, refused.output)


def test_the_spread_of_the_virtual_proof_numbers_is_a_choice_not_a_verdict() -> None:
    """`spread` (how much harder a child another thread searches looks) changes which child a thread
    takes, never what is proved; a negative one is refused."""
    game = resolve_game("mnk:4,4,4")
    serial = native.NativeProofSearch(game, Claim(1, "win"), game.search_hooks()).search(game.initial())
    for spread in (0, 2, 16):
        search = native.NativeProofSearch(game, Claim(1, "win"), game.search_hooks(), threads=2, spread=spread)
        assert search.search(game.initial()).status == serial.status
    with pytest.raises(ValueError, match="spread"):
        native.NativeProofSearch(game, Claim(1, "win"), game.search_hooks(), threads=2, spread=-1).search(game.initial())
