"""A proof over a local two-node Ray cluster whose worker node is killed mid-run: the search
goes on with the head node alone and ends with a certificate the checker accepts.

Both nodes run on this machine on the loopback address only (127.0.0.1), each with its own
resources: the head node with 1 CPU, the worker node with 1 CPU and a custom resource naming it.
They are started with Ray's own multi-node test cluster (`ray.cluster_utils.Cluster`, the same
raylets `ray start --head` and `ray start --address` start; docs/scaling.md shows those commands),
so the test can kill the worker node's processes itself. Slow (starting two nodes takes tens of
seconds) and skipped without ray (an optional extra, not in the test extras).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import checker
from certify.proving.parallel import prove_on_engine
from certify.proving.single import write_proof
from solver.games.families import resolve_game
from solver.search.pns import Claim
from solver.search.parallel import Options
from solver.workers import EngineSpec

pytestmark = pytest.mark.slow

LOOPBACK = "127.0.0.1"


@pytest.fixture
def two_nodes(monkeypatch: pytest.MonkeyPatch) -> Any:
    # Ray turns 127.0.0.1 into this machine's routable address when a process joins a cluster,
    # unless it believes multi-node clusters are off: then every address it resolves is the
    # loopback one. Set for this process (already imported or not) and for the nodes it starts.
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray = pytest.importorskip("ray", reason="ray is not installed: pip install -e '.[ray]'")
    from ray._private import ray_constants
    from ray.cluster_utils import Cluster

    monkeypatch.setattr(ray_constants, "ENABLE_RAY_CLUSTER", False)

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "node_ip_address": LOOPBACK, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=1, resources={"worker_node": 1}, node_ip_address=LOOPBACK)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, _node_ip_address=LOOPBACK, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray, cluster, worker
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_killed_worker_node_still_ends_in_a_valid_certificate(two_nodes: Any, tmp_path: Path) -> None:
    ray, cluster, worker = two_nodes
    assert ray.cluster_resources().get("CPU") == 2 and ray.cluster_resources().get("worker_node") == 1
    game = resolve_game("mnk:4,5,4")  # about a million nodes without threat space (--plain): jobs run to their budget
    claim = Claim(1, "no-loss")
    killed: list[int] = []

    def kill() -> None:
        cluster.remove_node(worker, allow_graceful=False)

    def progress(root: Any, stats: Any, running: int) -> None:
        # called as an answer comes in, when the node that answered is idle: the kill waits until
        # the driver has sent the next job, so that a job is running on each node's one CPU
        if not killed and stats.jobs - running >= 3:
            killed.append(stats.jobs)
            threading.Timer(0.05, kill).start()

    attempt, stats = prove_on_engine(game, claim, None, EngineSpec("ray"), job_nodes=100_000,
                                     job_seconds=None, progress=progress, options=Options(plain=True))
    print(f"worker node killed after {killed[0] if killed else 0} jobs sent; {stats.jobs} jobs, {stats.lost} lost and retried")
    assert killed, "the worker node was never killed: the proof ended too soon"
    assert attempt.outcome.status == "proved"
    path = tmp_path / "p.json"
    write_proof(attempt.certificate, path)
    verdict = checker.check_file(str(path))
    assert verdict.exit_code == 0 and verdict.message.startswith("VALID"), verdict.message
    assert stats.lost >= 1  # the job running on the killed node, sent again
    assert ray.cluster_resources().get("worker_node") is None  # the node is gone
