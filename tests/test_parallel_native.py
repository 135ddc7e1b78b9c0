"""The parallel driver on compiled workers: the same verdicts as the serial compiled search,
certificates the checker accepts, a worker's table kept between jobs, job budgets that follow the
time jobs take, and a driver that resumes from its checkpoint without losing what was settled."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

import checker
from certify.proving.parallel import prove_on_engine
from certify.proving.single import write_proof
from solver.games.families import resolve_game
from solver.search.parallel import Context, Job, native_search, prove_parallel, run_job, worker_search
from solver.search.pns import Claim
from solver.workers import EngineSpec

native = pytest.importorskip("solver.search.native", reason="the compiled df-pn is not built (pip install -e .)")

CASES = [  # (game, claim): every family here has a compiled kernel
    ("tictactoe", Claim(1, "no-loss")),
    ("tictactoe", Claim(1, "win")),
    ("misere", Claim(2, "win")),
    ("mnk:3,4,3", Claim(1, "win")),
    ("mnk:4,4,3", Claim(1, "win")),
]


def serial(game: Any, state: Any, claim: Claim) -> Any:
    return native.NativeProofSearch(game, claim, game.search_hooks()).search(state)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(("game_text", "claim"), CASES)
def test_compiled_workers_agree_with_the_serial_compiled_search(game_text: str, claim: Claim, workers: int, tmp_path: Path) -> None:
    game = resolve_game(game_text)
    assert worker_search(game) is native_search
    root = None
    state = game.initial()
    attempt, stats = prove_on_engine(game, claim, root, EngineSpec("process", workers), job_nodes=40)
    assert attempt.outcome.status == serial(game, state, claim).status
    assert stats.jobs > 1 or stats.worker_nodes <= 40  # the budget split the work, unless one job settled it
    if attempt.certificate is not None:
        path = tmp_path / "p.json"
        write_proof(attempt.certificate, path)
        verdict = checker.check_file(str(path))
        assert verdict.exit_code == 0 and verdict.message.startswith("VALID"), verdict.message


def test_a_worker_keeps_its_compiled_table_between_jobs() -> None:
    game = resolve_game("mnk:4,4,4")
    context = Context(game, Claim(1, "win"), native_search)
    first = run_job(context, Job(game.initial(), 200))
    assert first.status == "unknown" and first.nodes > 0
    from solver.search import parallel

    kept = parallel._memo[context.token][("native", Claim(1, "win"))]
    entries = kept.entries
    move = first.children[0][0]
    run_job(context, Job(game.apply(game.initial(), move), 200))
    assert parallel._memo[context.token][("native", Claim(1, "win"))] is kept and kept.entries >= entries


def test_job_budgets_follow_the_time_jobs_take() -> None:
    game = resolve_game("mnk:4,4,4")
    claim = Claim(2, "no-loss", 8)  # proved in 2,763 nodes by the serial search (mnk:4,4,3 now takes 33)
    outcome = prove_parallel(game, game.initial(), claim, EngineSpec("process", 1), budget=50, job_seconds=0.05)
    assert outcome.status == serial(game, game.initial(), claim).status
    budgets = [record.budget for record in outcome.log]
    assert budgets[0] == 50 and max(budgets) >= 1_000  # compiled jobs of 50 nodes take far less than 0.05 s
    assert [r.job for r in sorted(outcome.log, key=lambda r: r.job)] == list(range(len(outcome.log)))


def test_a_resumed_driver_keeps_what_was_settled(tmp_path: Path) -> None:
    game = resolve_game("mnk:4,4,4")
    claim = Claim(2, "no-loss", 8)  # proved in 2,763 nodes by the serial search (mnk:4,4,3 now takes 33)
    saved: list[bytes] = []
    first = prove_parallel(game, game.initial(), claim, EngineSpec("process", 2), budget=40, max_nodes=400,
                           checkpoint=lambda state: saved.append(pickle.dumps(state)))
    assert first.status == "unknown" and saved  # stopped by the budget: the state was kept
    state = pickle.loads(saved[-1])  # as a new driver process would read it back
    settled = dict(state["known"])
    jobs_before = state["stats"].jobs
    second = prove_parallel(game, game.initial(), claim, EngineSpec("process", 2), budget=40, resume=state)
    assert second.status == serial(game, game.initial(), claim).status
    assert second.stats.jobs > jobs_before  # counted on from the checkpoint
    for key, numbers in settled.items():  # nothing settled was lost or searched again
        assert state["known"][key] == numbers


def test_a_killed_driver_resumes_from_its_checkpoint_file_to_a_valid_certificate(tmp_path: Path) -> None:
    game = resolve_game("mnk:4,4,4")
    claim = Claim(2, "no-loss", 8)  # proved in 2,763 nodes by the serial search (mnk:4,4,3 now takes 33)
    point = tmp_path / "driver.ckpt"
    spec = EngineSpec("process", 2)
    stopped, _ = prove_on_engine(game, claim, None, spec, job_nodes=40, max_nodes=400, checkpoint=point)
    assert stopped.outcome.status == "node budget" and point.is_file()  # a lost driver leaves this file
    attempt, stats = prove_on_engine(game, claim, None, spec, job_nodes=40, resume=point)
    assert attempt.outcome.status == "proved"
    path = tmp_path / "p.json"
    write_proof(attempt.certificate, path)
    assert checker.check_file(str(path)).exit_code == 0


def test_a_checkpoint_of_another_search_is_refused(tmp_path: Path) -> None:
    from certify.proving.checkpoint import CheckpointError

    game = resolve_game("mnk:4,4,4")
    point = tmp_path / "driver.ckpt"
    prove_on_engine(game, Claim(1, "win"), None, EngineSpec("process", 1), job_nodes=40, max_nodes=100, checkpoint=point)
    with pytest.raises(CheckpointError, match="another search"):
        prove_on_engine(game, Claim(2, "no-loss"), None, EngineSpec("process", 1), job_nodes=40, resume=point)


def test_the_simulation_follows_the_jobs_dependencies() -> None:
    from certify.bench.parallel import simulate
    from solver.search.parallel import JobRecord

    def record(job: int, parent: int) -> JobRecord:
        return JobRecord(job, parent, 0.0, 0.0, 100, 100, 1.0, "unknown")

    chain = tuple(record(j, j - 1) for j in range(4))  # each job's position comes from the one before
    fan = (record(0, -1), *(record(j, 0) for j in range(1, 5)))  # four jobs below the first
    assert simulate(chain, 1, 0.0) == simulate(chain, 64, 0.0) == 4.0
    assert simulate(fan, 1, 0.0) == 5.0 and simulate(fan, 4, 0.0) == 2.0 and simulate(fan, 64, 0.0) == 2.0
    assert simulate(fan, 4, 0.1) > 2.0  # one driver sends every job


def test_prove_with_workers_checkpoints_and_resumes(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from certify.cli import app

    runner = CliRunner()
    point, out = tmp_path / "run.ckpt", tmp_path / "p.json"
    words = ["prove", "mnk:4,4,4", "--claim", "no-loss", "--player", "2", "--within", "8", "--workers", "1", "--job-nodes", "40", "--job-seconds", "0"]
    stopped = runner.invoke(app, [*words, "--max-nodes", "200", "--checkpoint", str(point), "-o", str(out)])
    assert stopped.exit_code == 1 and point.is_file() and not out.exists(), stopped.output
    other = runner.invoke(app, ["prove", "mnk:4,4,4", "--claim", "win", "--player", "1", "--workers", "1", "--resume", str(point)])
    assert other.exit_code == 2 and "another search" in other.output
    resumed = runner.invoke(app, [*words, "--resume", str(point), "-o", str(out)])
    assert resumed.exit_code == 0, resumed.output
    assert checker.check_file(str(out)).exit_code == 0
    assert not point.exists()  # spent once the claim is settled (issue 32)


def test_the_bench_table_prints_every_run_and_the_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from certify.bench import parallel as bench
    from certify.cli import app

    def run(engine: str, workers: int, wall: float, jobs: int) -> dict[str, Any]:
        return {"engine": engine, "workers": workers, "wall_s": wall, "cpu_s": 1.0, "nodes": 1000 * workers, "jobs": jobs,
                "lost": 0, "driver_cpu_s": 0.01, "verdicts": ["proved"], "overhead_per_job_ms": 1.0 if jobs else None,
                "speedup": 1.0 / wall, "efficiency": 1.0 / wall / workers, "node_overhead": float(workers), "agrees_with_serial": True}

    recorded = {"positions": "two claims", "labels": ["a", "b"], "first_budget_nodes_per_job": 20_000, "job_seconds": 0.1,
                "load_average": [1.0, 1.0], "ray_start_s": None, "ray_note": "ray missing",
                "runs": [run("serial (compiled)", 1, 1.0, 0), run("process", 1, 1.2, 5), run("process", 2, 0.8, 9)],
                "simulation": {"from": "process pool ×2", "assumptions": bench.SIMULATION_ASSUMPTIONS,
                               "rows": [{"workers": w, "wall_s": 0.5, "speedup": 2.0, "efficiency": 2.0 / w} for w in (16, 64, 1024)]}}
    monkeypatch.setattr(bench, "parallel_benchmark", lambda: recorded)
    result = CliRunner().invoke(app, ["bench", "--suite", "parallel"], catch_exceptions=False)
    said = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "1,024" in said and "upper bounds on speedup" in said and "Ray not measured: ray missing" in said
