"""Where the driver sends the next job (solver/search/parallel.py `_select`): with a job running, to
work a proof needs besides it (virtual proof numbers), not to a guess among OR siblings; and the
target benchmark's machinery on a claim small enough for a test."""

from __future__ import annotations

from typing import Any

import pytest

from solver.search import parallel
from solver.search.parallel import INF, Node, _refresh, _refresh_up, _select


def tree(root_is_or: bool, shape: list[list[tuple[int, int]]]) -> tuple[Node, list[list[Node]]]:
    """A root with children, each with leaves of the given (pn, dn)."""
    root = Node(None, "r", None, None, root_is_or)
    root.children, leaves = [], []
    for i, kids in enumerate(shape):
        child = Node(None, f"c{i}", i, root, not root_is_or)
        child.children = [Node(None, f"c{i}.{j}", j, child, root_is_or, pn=pn, dn=dn) for j, (pn, dn) in enumerate(kids)]
        root.children.append(child)
        leaves.append(child.children)
    order = [leaf for kids in leaves for leaf in kids] + root.children + [root]
    for node in order:
        _refresh(node)
    return root, leaves


def test_a_running_job_sends_the_next_to_the_and_sibling_a_proof_needs() -> None:
    # root AND (the opponent moves), children OR: a proof needs every child proved
    root, leaves = tree(False, [[(1, 3), (2, 2)], [(2, 2), (3, 1)]])
    assert root.pn <= root.dn  # leans to a proof
    first = _select(root)[0]
    first.busy = True
    _refresh_up(first)
    second = _select(root)[0]
    assert second.parent is not first.parent  # not the OR sibling of the running leaf: the other child of the AND root
    parallel.VIRTUAL = False
    try:
        first_parent_sibling = _select(root)[0]
    finally:
        parallel.VIRTUAL = True
    assert first_parent_sibling is not None


def test_leaning_to_a_disproof_swaps_the_roles() -> None:
    root, leaves = tree(True, [[(4, 1), (4, 2)], [(4, 2), (4, 1)]])  # root OR: a disproof needs every child disproved
    assert root.pn > root.dn
    first = _select(root)[0]
    first.busy = True
    _refresh_up(first)
    assert _select(root)[0].parent is not first.parent


def test_nothing_left_but_guesses_falls_back_to_the_most_proving_open_leaf() -> None:
    root, leaves = tree(True, [[(1, 2), (1, 2)]])  # root OR with one AND child: no other work a proof needs
    first = _select(root)[0]
    first.busy = True
    _refresh_up(first)
    second = _select(root)[0]
    assert second is not None and second is not first
    second.busy = True
    _refresh_up(second)
    assert _select(root) is None  # every leaf busy


def test_a_job_gets_df_pn_thresholds_from_the_root() -> None:
    root, leaves = tree(True, [[(2, 5)], [(4, 3)], [(6, 1)]])  # root OR: children AND with one leaf each
    leaf, (pn_limit, dn_limit) = _select(root)
    assert leaf is leaves[0][0]
    assert pn_limit == 4 + 1 + 4 // 4  # the second-best child's pn, widened by 1 + epsilon
    assert dn_limit == INF  # the root's own is infinite
    parallel.THRESHOLDS = False
    try:
        assert _select(root)[1] == (INF, INF)
    finally:
        parallel.THRESHOLDS = True


def test_a_resolved_tree_has_nothing_to_select() -> None:
    root, _ = tree(False, [[(0, INF)], [(0, INF)]])
    assert root.pn == 0 and _select(root) is None


@pytest.mark.parametrize("workers", [1, 2])
def test_the_target_benchmark_measures_a_small_claim(workers: int) -> None:
    pytest.importorskip("solver.search.native", reason="the compiled df-pn is not built (pip install -e .)")
    from certify.bench.parallel import Target, target_benchmark

    result: dict[str, Any] = target_benchmark([Target("mnk:3,4,3 p1 win", "mnk:3,4,3", None, 1, "win")], workers=workers, uttt=False,
                                              table_mb=16)
    row = result["rows"][0]
    assert row["agrees"] and row["serial"]["status"] == "proved"
    assert row["parallel"]["nodes"] > 0 and row["serial"]["peak_rss_mb"] > 0 and row["parallel"]["process_cpu_s"] > 0
    last = row["parallel"]["footprint"][-1]
    assert last["jobs"] == row["parallel"]["jobs"] and last["checkpoint_bytes"] > 0 and last["tree_nodes"] >= 1
    assert row["threads"]["threads"] == 2 and row["threads_versus"]["agrees"] and row["threads"]["nodes"] > 0
    # the serial search and each worker get 16 MB; the two threads' one table what two workers get between them
    assert row["serial"]["table_mb"] == row["parallel"]["table_mb"] == 16 and row["threads"]["table_mb"] == result["threads_table_mb"] == 32


def test_the_target_benchmark_picks_a_position_by_its_serial_time(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("solver.search.native", reason="the compiled df-pn is not built (pip install -e .)")
    from certify.bench import parallel as bench
    from certify.bench.parallel import Target, target_benchmark

    quick, slower = Target("tictactoe p1 no-loss", "tictactoe", None, 1, "no-loss"), Target("mnk:4,4,3 p1 win", "mnk:4,4,3", None, 1, "win")
    monkeypatch.setattr(bench, "uttt_candidates", lambda: [slower, quick, slower])
    monkeypatch.setattr(bench, "UTTT_FIRST", 1)  # the scan starts at the recorded index: position 0 is never tried
    monkeypatch.setattr(bench, "UTTT_SERIAL_SECONDS", (0.0, 60.0))
    result = target_benchmark([Target("mnk:3,4,3 p1 win", "mnk:3,4,3", None, 1, "win")], table_mb=16)
    assert [row["claim"] for row in result["rows"]] == ["mnk:3,4,3 p1 win", quick.label] and not result["uttt_passed_over"]
    monkeypatch.setattr(bench, "UTTT_SERIAL_SECONDS", (1e9, 1e10))  # nothing takes that long: every candidate passed over
    result = target_benchmark([Target("mnk:3,4,3 p1 win", "mnk:3,4,3", None, 1, "win")], table_mb=16)
    assert len(result["rows"]) == 1 and [p["claim"] for p in result["uttt_passed_over"]] == [quick.label, slower.label]


def test_target_is_an_option_of_the_parallel_suite_only() -> None:
    from typer.testing import CliRunner

    from certify.cli.app import app

    result = CliRunner().invoke(app, ["bench", "--suite", "startup", "--target"])
    assert result.exit_code == 2 and "--target applies to --suite parallel only" in result.output
