"""The parallel driver with the serial search's options (`certify prove --plain`, `--pairings`,
`--policy`, `--within` with `--workers`): the same verdict as the serial search with the same
option, and a certificate the checker accepts, carrying closures where the serial one does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import checker
from certify.cli.app import app
from certify.proving.parallel import prove_on_engine
from certify.proving.single import prove, write_proof
from solver.games.families import resolve_game
from solver.search.parallel import Options
from solver.search.pns import Claim
from solver.workers import EngineSpec

pytest.importorskip("solver.search.native", reason="the compiled df-pn is not built (pip install -e .)")


def centre_first(game: Any, state: Any) -> list[Any]:
    """A plan for tictactoe: the centre on the empty board, the search's choice after (a policy at
    module level, so workers load it); player 1 does not lose with it."""
    legal = game.legal_moves(state)
    return [m for m in legal if m.cell == 4] if len(legal) == 9 else []


def centre_then_edge(game: Any, state: Any) -> list[Any]:
    """A plan that fails: the centre, then always the first free edge."""
    legal = game.legal_moves(state)
    return [m for m in legal if m.cell == 4] if len(legal) == 9 else [m for m in legal if m.cell in (1, 3, 5, 7)][:1]


def valid(attempt: Any, path: Path) -> str:
    write_proof(attempt.certificate, path)
    verdict = checker.check_file(str(path))
    assert verdict.exit_code == 0 and verdict.message.startswith("VALID"), verdict.message
    return verdict.message


def both(game_text: str, claim: Claim, options: Options, root: str | None = None, workers: int = 2) -> tuple[Any, Any, Any]:
    """(serial attempt, parallel attempt, driver stats) with the same options; jobs of 40 nodes."""
    game = resolve_game(game_text)
    serial = prove(game, claim, root, plain=options.plain, pairings=options.pairings, policy=options.policy)
    parallel, stats = prove_on_engine(game, claim, root, EngineSpec("process", workers), job_nodes=40, options=options)
    assert parallel.outcome.status == serial.outcome.status
    return serial, parallel, stats


@pytest.mark.parametrize(("game_text", "claim"), [("tictactoe", Claim(1, "no-loss")), ("mnk:3,4,3", Claim(1, "win")),
                                                   ("tictactoe", Claim(2, "win"))])
def test_plain(game_text: str, claim: Claim, tmp_path: Path) -> None:
    serial, parallel, stats = both(game_text, claim, Options(plain=True))
    assert stats.jobs > 1
    if serial.certificate is not None:
        valid(parallel, tmp_path / "p.json")


def test_pairings_close_positions_and_check(tmp_path: Path) -> None:
    serial, parallel, stats = both("mnk:4,5,4", Claim(2, "no-loss"), Options(pairings=True))
    assert parallel.outcome.status == "proved" and stats.jobs > 1
    assert serial.certificate.proof.closures and parallel.certificate.proof.closures  # the closures are in the file
    valid(parallel, tmp_path / "p.json")


def test_policy(tmp_path: Path) -> None:
    serial, parallel, stats = both("tictactoe", Claim(1, "no-loss"), Options(policy=centre_first))
    assert parallel.outcome.status == "proved"
    valid(parallel, tmp_path / "p.json")
    assert parallel.tree.moves[0] == 4  # the plan's centre (on the empty board a move's index is its cell)
    failing, parallel_failing, _ = both("tictactoe", Claim(1, "no-loss"), Options(policy=centre_then_edge))
    assert parallel_failing.outcome.status == failing.outcome.status == "disproved"  # the plan's, not the claim's


@pytest.mark.parametrize(("game_text", "claim"), [("mnk:4,4,4", Claim(1, "win", 9)), ("mnk:4,4,4", Claim(2, "no-loss", 8)),
                                                   ("tictactoe", Claim(2, "no-loss", 6)), ("mnk:3,4,3", Claim(2, "no-loss", 4))])
def test_within(game_text: str, claim: Claim, tmp_path: Path) -> None:
    serial, parallel, stats = both(game_text, claim, Options())
    assert stats.jobs > 1
    if serial.certificate is not None:
        assert parallel.certificate.claim.within == claim.within
        valid(parallel, tmp_path / "p.json")


def test_within_uttt_count_closures(tmp_path: Path) -> None:
    """uttt's count closure (asked always for a bounded no-loss claim) in the driver and the workers."""
    from certify.bench.parallel import seeded_position

    game = resolve_game("uttt")
    state = seeded_position(game, 40, 0)
    claim = Claim(3 - game.to_move(state), "no-loss", 16)  # about 5,000 nodes serially, 315 positions closed by counts
    serial, parallel, stats = both("uttt", claim, Options(), game.format_position(state))
    assert parallel.outcome.status == "proved" and stats.jobs > 1
    assert serial.certificate.proof.closures and parallel.certificate.proof.closures
    valid(parallel, tmp_path / "p.json")


def claim_setup(hooks: Any) -> tuple[Any, ...]:
    """What a claim sets up in the hooks: uttt's key symmetries (how many) and win bound, positional threat space."""
    symmetries = getattr(hooks, "symmetries", None)
    return (None if symmetries is None else len(symmetries), getattr(hooks, "win_by", None),
            getattr(hooks, "threat_space", None))


@pytest.mark.parametrize(("game_text", "claim", "expected"), [
    ("uttt:open", Claim(2, "no-loss", 21), (8, -1, None)),  # the empty grid's 8 symmetries
    ("uttt:open", Claim(1, "win", 41), (8, 41, None)),  # a win claim's bound prunes by the count
    ("mnk:4,5,4", Claim(1, "win", 9), (None, None, False)),  # no threat space past a bound
    ("mnk:4,5,4", Claim(1, "win"), (None, None, True)),
])
def test_workers_set_up_the_hooks_for_the_claim(game_text: str, claim: Claim, expected: tuple[Any, ...]) -> None:
    """The driver and the workers set the hooks up for the claim as the serial search does (before,
    --workers searched uttt with exact keys and no win bound, and bounded positional claims with
    threat space on); --plain has no hooks to set up."""
    from solver.games.game import hooks_for_claim

    game = resolve_game(game_text)
    hooks = Options().hooks(game, claim, game.initial())
    assert claim_setup(hooks) == expected
    assert claim_setup(hooks_for_claim(game.search_hooks(), claim.result, claim.within, game.initial())) == expected
    assert type(Options(plain=True).hooks(game, claim, game.initial())).__name__ == "NoHooks"


def test_cli_takes_the_options_with_workers(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = CliRunner().invoke(app, ["prove", "mnk:4,5,4", "--claim", "no-loss", "--player", "2", "--pairings", "--workers", "2",
                                      "--job-nodes", "40", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert checker.check_file(str(out)).exit_code == 0
    result = CliRunner().invoke(app, ["prove", "tictactoe", "--claim", "win", "--player", "1", "--within", "5", "--plain",
                                      "--workers", "2", "--job-nodes", "40", "-o", str(tmp_path / "w.json"), "--json"])
    assert result.exit_code == 1, result.output  # disproved; the opposite (player 2 no-loss within 5) is certified
    assert checker.check_file(str(tmp_path / "w.json")).exit_code == 0  # the opposite's certificate, player 2 no-loss within 5
