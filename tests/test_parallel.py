"""Parallel proof search: the driver on a process pool (and on Ray, in the slow tests) agrees with
the serial search, its strategies hold, and a worker killed mid-job costs only a retry."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from solver.workers import EngineSpec, ProcessEngine, Retrying, WorkerLost
from solver.games.families import resolve_game
from solver.search.parallel import JobFailed, prove_parallel

pns = pytest.importorskip("solver.search.pns", reason="the proof search (solver/search/pns.py) has not landed")
Claim, ProofSearch = pns.Claim, pns.ProofSearch

# (game, moves from the start, claim): small enough that a 30-node budget forces many jobs
CASES = [
    ("tictactoe", [], Claim(1, "no-loss")),
    ("tictactoe", [], Claim(1, "win")),
    ("tictactoe", ["X0", "O1"], Claim(1, "win")),
    ("misere", [], Claim(2, "win")),
    ("mnk:3,4,3", [], Claim(1, "win")),
]
MORE_CASES = [("tictactoe", [], Claim(2, "no-loss")), ("w3t", [], Claim(1, "win"))]  # slow: seconds each


def start(game_text: str, moves: list[str]) -> tuple[Any, Any]:
    game = resolve_game(game_text)
    state = game.initial()
    for text in moves:
        state = game.apply(state, game.parse_move(text))
    return game, state


def serial_status(game: Any, state: Any, claim: Claim) -> str:
    return ProofSearch(game, claim, hooks=game.search_hooks()).search(state).status


def assert_strategy_wins(game: Any, root: Any, claim: Claim, strategy: dict) -> None:
    """Every play from `root` under `strategy` ends as `claim` says, and no entry is unused."""
    used, seen, stack = set(), set(), [root]
    while stack:
        state = stack.pop()
        key = game.key(state)
        if key in seen:
            continue
        seen.add(key)
        if game.is_terminal(state):
            assert claim.holds_at_end(game.returns(state)), game.format_position(state)
        elif game.to_move(state) == claim.player:
            move = strategy[key]
            assert move in game.legal_moves(state)
            used.add(key)
            stack.append(game.apply(state, move))
        else:
            stack.extend(game.apply(state, m) for m in game.legal_moves(state))
    assert used == set(strategy)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(("game_text", "moves", "claim"), CASES)
def test_process_pool_agrees_with_serial(game_text: str, moves: list[str], claim: Claim, workers: int) -> None:
    game, state = start(game_text, moves)
    outcome = prove_parallel(game, state, claim, EngineSpec("process", workers), budget=10)
    assert outcome.status == serial_status(game, state, claim)
    if outcome.status == "proved":
        assert_strategy_wins(game, state, claim, outcome.strategy)
    assert outcome.stats.jobs > 1 or outcome.stats.worker_nodes <= 10  # the budget split the work, unless one job settled it


@pytest.mark.parametrize("workers", [1, 2])
def test_tiny_jobs_cover_the_replies_the_hooks_leave_out(workers: int) -> None:
    """Jobs of 3 nodes: the driver expands positions itself, with the hooks that leave out an
    opponent's reply losing at once; the strategy's walk visits that reply too (no worker's proof
    covers it) and must find the prover's winning move there (it raised "no move for a position
    the strategy reaches: OOX/.X./..." before)."""
    game, state = start("tictactoe", [])
    claim = Claim(1, "no-loss")
    outcome = prove_parallel(game, state, claim, EngineSpec("process", workers), budget=3)
    assert outcome.status == "proved"
    assert_strategy_wins(game, state, claim, outcome.strategy)
    assert outcome.walk is not None and outcome.walk.tree().positions > 0


def test_node_budget_leaves_the_root_unknown() -> None:
    game, state = start("mnk:3,4,3", [])
    outcome = prove_parallel(game, state, Claim(1, "win"), EngineSpec("process", 2), budget=5, max_nodes=15)
    assert (outcome.status, outcome.stopped) == ("unknown", "node budget")
    assert outcome.stats.jobs >= 2 and 0 < outcome.stats.worker_nodes <= 15 + 2  # a job may pass its budget by a node
    assert outcome.pn > 0 and outcome.dn > 0 and not outcome.strategy


def test_killed_worker_costs_one_retry(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CERTIFY_TEST_DIE_ONCE", str(tmp_path / "died"))
    game, state = start("tictactoe", [])
    claim = Claim(1, "no-loss")
    outcome = prove_parallel(game, state, claim, EngineSpec("process", 2), budget=30)
    assert (tmp_path / "died").exists()
    assert outcome.stats.lost >= 1  # the killed job (and any job sharing its broken pool)
    assert outcome.status == "proved"
    assert_strategy_wins(game, state, claim, outcome.strategy)


def always_dies(context: Any, task: Any) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def echo(context: Any, task: Any) -> tuple[Any, Any]:
    return context, task


def test_retries_are_bounded() -> None:
    engine = Retrying(ProcessEngine(1, context="ctx"), max_attempts=2)
    try:
        engine.submit(always_dies, 1)
        ((_, result),) = engine.wait()
        assert isinstance(result, WorkerLost) and "after 2 attempts" in result.reason
        assert (engine.lost, engine.retried) == (2, 1)
        handle = engine.submit(echo, 7)  # the pool was replaced: the engine still works
        assert engine.wait() == [(handle, ("ctx", 7))]
    finally:
        engine.close()


def test_a_job_that_keeps_dying_fails_the_run(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = start("tictactoe", [])
    claim = Claim(1, "no-loss")
    with pytest.raises(JobFailed, match="died too often"):
        prove_parallel(game, state, claim, EngineSpec("process", 1), budget=30, max_attempts=1,
                       search=dying_search)


def dying_search(game: Any, position: Any, claim: Any, max_nodes: int, memo: dict, options: Any, limits: Any) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.parametrize(("game_text", "moves", "claim"), MORE_CASES)
def test_process_pool_agrees_with_serial_more(game_text: str, moves: list[str], claim: Claim) -> None:
    test_process_pool_agrees_with_serial(game_text, moves, claim, 2)


@pytest.mark.slow
@pytest.mark.parametrize(("game_text", "moves", "claim"), CASES + MORE_CASES)
def test_ray_agrees_with_serial(ray_cluster: None, game_text: str, moves: list[str], claim: Claim) -> None:
    game, state = start(game_text, moves)
    outcome = prove_parallel(game, state, claim, EngineSpec("ray", 2), budget=30)
    assert outcome.status == serial_status(game, state, claim)
    if outcome.status == "proved":
        assert_strategy_wins(game, state, claim, outcome.strategy)


@pytest.mark.slow
def test_ray_killed_worker_costs_one_retry(ray_cluster: None, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CERTIFY_TEST_DIE_ONCE", str(tmp_path / "died"))
    game, state = start("tictactoe", [])
    claim = Claim(1, "no-loss")
    outcome = prove_parallel(game, state, claim, EngineSpec("ray", 2), budget=30)
    assert (tmp_path / "died").exists() and outcome.stats.lost == 1
    assert outcome.status == "proved"
    assert_strategy_wins(game, state, claim, outcome.strategy)
