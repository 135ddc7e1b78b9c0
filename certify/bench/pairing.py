"""`certify bench --suite pairing`: finding pairings and checking pairing certificates (issue 23).

The search (counting bound, then Z3) and the independent checker on the certificates it writes,
timed on the boards of the published record; the target is ≤ 0.1 s to check any pairing
certificate of up to 64 cells.
"""

from __future__ import annotations

from certify.bench.timing import Timing, time_runs
from certify.smt.pairing_certificate import search_pairing
from certify.render.text import plural
from solver.games.positional.rules import resolve

import checker

BOARDS = (("tictactoe", 1), ("mnk:8,8,8", 2), ("mnk:8,8,7", 1), ("mnk:6,6,5", 1))


def pairing_benchmarks(repeat: int) -> list[Timing]:
    """Per board: one search (time includes Z3; it writes nothing) and the checker on its certificate."""
    timings = []
    for game, player in BOARDS:
        rules = resolve(game)
        found = search_pairing(rules, player, None, 120.0, "bench")
        if found.text is None:
            raise RuntimeError(f"{game}: no pairing for player {player} ({found.cover.reason})")
        data = found.text.encode()
        shape = f"{plural(rules.cells, 'cell')}, {plural(len(rules.lines), 'line')}, {plural(len(found.cover.pairing.pairs), 'pair')}"  # type: ignore[union-attr]
        timings.append(time_runs(f"pairing search {game} --player {player} ({shape})",
                                 lambda: search_pairing(rules, player, None, 120.0, "bench"), max(1, repeat // 5)))
        timings.append(time_runs(f"checker: pairing certificate {game} p{player} ({len(data):,} bytes)",
                                 lambda: checker.check_bytes(data), repeat))
    return timings
