"""The solver against the C peer mnk.c (an independent program), and the scale benchmark's plumbing.

The peer lives outside the project (../shared/bench/mnk.c) and is built here with gcc -O2; the
tests that need it are skipped, saying why, where it or gcc is absent. 3×4 and 4×3 boards run
by default; every 4×4 board is in `test_scale_slow.py` (`python -m pytest -m slow`).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from certify.bench.scale import PeerError, build_peer, default_peer_source, parse_peer, peer_arguments, run_peer
from solver.search.analysis import first_move_values
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

SMALL_BOARDS = [f"mnk:{r},{c},3{flags}" for r, c in ((3, 4), (4, 3)) for flags in ("", ",misere", ",wild", ",wild,misere")]


@pytest.fixture(scope="module")
def peer(tmp_path_factory) -> Path:
    source = default_peer_source()
    if source is None or shutil.which("gcc") is None:
        pytest.skip("the C peer ../shared/bench/mnk.c or gcc is not available here")
    return build_peer(source, tmp_path_factory.mktemp("peer"))


def test_peer_arguments_name_the_mode():
    assert peer_arguments("mnk:4,4,3") == ["4", "4", "3", "classic"]
    assert peer_arguments("mnk:4,4,4,wild,misere") == ["4", "4", "4", "wildmisere"]
    assert peer_arguments("mnk:3,4,3,misere") == ["3", "4", "3", "misere"]


@pytest.mark.parametrize("game", ["tictactoe", "mnk:5,5,3", "mnk:4,4,3,gravity", "mnk:4,x,3", "cells.json"])
def test_peer_arguments_refuse_other_games(game):
    with pytest.raises(PeerError):
        peer_arguments(game)


def test_parse_peer_reads_both_lines():
    out = "3x3 k=3 classic: lines 8 reachable 5478 edges 16167 root 0 time 0.00s\nfirst moves (cell:mark=value): 0:1=0 4:1=0 8:1=-1\n"
    result = parse_peer(out)
    assert (result.states, result.edges, result.root) == (5478, 16167, 0)
    assert result.first_moves == [(0, 1, 0), (4, 1, 0), (8, 1, -1)]
    with pytest.raises(PeerError):
        parse_peer("segfault\n")


@pytest.mark.parametrize("game", SMALL_BOARDS + ["mnk:3,3,3,wild", "mnk:4,2,2"])
def test_solver_agrees_with_the_c_peer(peer, game):
    """States, edges, root value and every first-move value, as two programs compute them."""
    solution = solve(resolve(game))
    _, theirs = run_peer(peer, game)
    assert len(solution) == theirs.states
    assert solution.edges == theirs.edges
    assert int(solution.values[0]) == theirs.root
    assert first_move_values(solution) == theirs.first_moves


def test_edges_count_every_legal_move():
    solution = solve(resolve("mnk:3,4,3,wild"))
    children = solution.children(np.flatnonzero(~solution.terminal))
    assert solution.edges == int((children >= 0).sum())


def test_findings_table_matches_the_published_4x4_entries():
    """docs/findings.md states each 4×4 result as certificates/index.json records it."""
    import json
    import re

    root = Path(__file__).resolve().parents[1]
    index = json.loads((root / "certificates" / "index.json").read_text(encoding="utf-8"))
    entries = index.get("scale_certificates", [])
    text = (root / "docs" / "findings.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(mnk:4,4,[^`]+)` \| (.+) \|$", text, re.M))
    results = {"win": "first player wins", "loss": "second player wins", "draw": "draw"}
    for entry in entries:
        moves = [m["value"] for m in entry["first_moves"]]
        counts = " / ".join(str(moves.count(word)) for word in ("win", "draw", "loss"))
        assert rows.get(entry["game"]) == f"{results[entry['root_value']]} | {entry['states']:,} | {entry['edges']:,} | {counts}"
