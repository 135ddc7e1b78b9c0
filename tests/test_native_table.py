"""The compiled df-pn's transposition table (solver/search/dfpn.c): buckets of 15 entries whose tags
share one cache line (with the bucket's lock for threads), sized up front from a search's budget, evicting only at its cap.

What could go wrong and is checked here: a table sized up front must hold the budget's entries
without growing or evicting, and a memory budget must bound it; sizing must not change what the
search does (node counts and verdicts equal a table that grows, and solver/search/pns.py's); at its
cap the table evicts and the verdicts stay; a checkpoint written before the buckets (checksum in
slot order) still loads.
"""

from __future__ import annotations

import struct

import pytest

from solver.games.families import resolve_game
from solver.search.native import GROWTH_HEADROOM, NODES_PER_SECOND, SLOT_BYTES, NativeProofSearch, table_mb_for
from solver.search.pns import Claim, ProofSearch

MASK = (1 << 64) - 1


def test_a_node_budget_sizes_the_table_before_the_search_and_it_never_grows() -> None:
    game = resolve_game("mnk:4,4,4")
    search = NativeProofSearch(game, Claim(2, "no-loss"), game.search_hooks())
    search.reserve(200_000, None)
    sized = search.table_bytes
    assert sized >= 200_000 * 4 // 3 * SLOT_BYTES  # room for every entry at 3/4 load
    outcome = search.search(game.initial(), max_nodes=200_000)
    assert outcome.entries <= 200_000 and search.table_bytes == sized and search.evictions == 0


def test_a_memory_budget_sizes_the_table_up_to_its_cap() -> None:
    game = resolve_game("mnk:4,4,4")
    cap_mb = 40.0
    search = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=cap_mb)
    search.reserve(None, 10_000)  # a budget larger than the cap: the cap, taken whole
    assert cap_mb * 2**20 - 16 * SLOT_BYTES < search.table_bytes <= cap_mb * 2**20
    small = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=cap_mb)
    small.reserve(10, None)  # a small node budget: what it needs (a new table's least), not the cap
    sized = small.table_bytes
    assert sized < 2 * 2**20
    assert small.search(game.initial()).status == "proved"  # and it grows past that when the search needs it
    assert small.table_bytes > sized


def test_a_time_budget_sizes_the_table_for_the_nodes_it_allows() -> None:
    """A time budget alone sizes the table for NODES_PER_SECOND nodes a second (within the cap):
    the suite `certify bench --suite uttt` gives only a time limit, and the table then no longer
    grows inside the search's clock."""
    game = resolve_game("mnk:4,4,4")
    search = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=512)
    search.reserve(None, None, 0.2)
    sized = search.table_bytes
    assert sized >= int(0.2 * NODES_PER_SECOND) * 4 // 3 * SLOT_BYTES
    outcome = search.search(game.initial(), max_seconds=0.2)  # within it the table does not grow
    assert search.table_bytes == sized and outcome.entries < 0.2 * NODES_PER_SECOND  # 4x4: proved in fewer
    capped = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=8)
    capped.reserve(None, None, 60.0)  # a minute: the cap, taken whole
    assert 8 * 2**20 - 16 * SLOT_BYTES < capped.table_bytes <= 8 * 2**20
    both = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=512)
    both.reserve(1_000, None, 60.0)  # the least of the budgets
    assert both.table_bytes < 2**20


def test_table_mb_for_a_memory_budget_leaves_the_process_room() -> None:
    assert table_mb_for(1000) < 1000 and table_mb_for(1) >= 1.0
    held = table_mb_for(1000, 300) - table_mb_for(1000)  # a table the process holds is freed by the resize
    assert 300 / GROWTH_HEADROOM - 1 < held < 300 / GROWTH_HEADROOM + 1


def test_a_table_past_half_its_cap_grows_only_as_far_as_both_copies_fit_the_headroom() -> None:
    """While a resize places the entries anew, the old and the new table are both mapped: together
    at most GROWTH_HEADROOM times the cap, the memory a budget leaves the table. A table reserved
    at 0.6 of its cap (as a resumed search's was) grows to 0.9 of it, not to the cap (1.6 times)."""
    game = resolve_game("mnk:4,4,4")
    cap = 2 * 2**20
    search = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks(), table_mb=cap / 2**20)
    search._core.reserve(int(0.6 * cap))
    before = search.table_bytes
    search.search(game.initial(), max_nodes=200_000)  # 63,557 positions: far past the cap's 40,000 slots
    assert before < search.table_bytes and before + search.table_bytes <= GROWTH_HEADROOM * cap
    assert search.evictions > 0


@pytest.mark.parametrize("game_text, player, result", [
    ("mnk:4,4,4", 1, "no-loss"), ("mnk:4,4,4", 2, "win"), ("tictactoe", 1, "win"), ("mnk:3,4,3", 2, "no-loss")])
def test_sizing_up_front_changes_no_node_count_and_no_verdict(game_text: str, player: int, result: str) -> None:
    """Sized up front, grown as needed, and the Python reference: the same search, nothing evicted."""
    game = resolve_game(game_text)
    claim = Claim(player, result)
    sized, grown = NativeProofSearch(game, claim, game.search_hooks()), NativeProofSearch(game, claim, game.search_hooks())
    a, b = sized.search(game.initial(), max_nodes=2_000_000), grown.search(game.initial())
    assert (a.status, a.nodes) == (b.status, b.nodes) and a.status in ("proved", "disproved")
    assert sized.evictions == grown.evictions == 0
    if b.nodes < 60_000:  # the reference is slow: small searches only
        reference = ProofSearch(game, claim, game.search_hooks()).search(game.initial())
        assert (reference.status, reference.nodes) == (b.status, b.nodes)


def test_uttt_sized_or_grown_gives_the_same_search() -> None:
    """A ply-40 position of a seeded random game: the same budget, the table sized up front or grown."""
    from certify.bench.uttt import sample

    game = resolve_game("uttt")
    state = sample([40], 1, 2026)[40][0]
    claim = Claim(game.to_move(state), "win")
    sized = NativeProofSearch(game, claim, game.search_hooks())
    sized.search(state, max_nodes=200_000)
    grown = NativeProofSearch(game, claim, game.search_hooks())
    grown._core.search(grown.kernel.position(state), 200_000)  # the core itself: no reserve
    assert grown.table_bytes != sized.table_bytes and sized.evictions == grown.evictions == 0  # two tables, one search
    assert (sized.nodes, sized.entries, sized.table_checksum()) == (grown.nodes, grown.entries, grown.table_checksum())


def test_a_table_at_its_cap_evicts_and_keeps_the_verdicts() -> None:
    game = resolve_game("mnk:4,4,4")
    for player, result in ((1, "no-loss"), (2, "win")):
        claim = Claim(player, result)
        roomy = NativeProofSearch(game, claim, game.search_hooks()).search(game.initial())
        tight = NativeProofSearch(game, claim, game.search_hooks(), table_mb=2)
        squeezed = tight.search(game.initial(), max_seconds=120)
        assert tight.evictions > 0 and tight.table_bytes <= 2 * 2**20
        assert squeezed.status == roomy.status


def _mix(z: int) -> int:  # splitmix64's finalizer, as dfpn.c's mix
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _key_hash(w: tuple[int, int, int]) -> int:
    return _mix(w[0] ^ _mix(w[1] ^ _mix((w[2] + 0x9E3779B97F4A7C15) & MASK)))


def test_a_checkpoint_written_before_the_buckets_still_loads(tmp_path) -> None:
    """Its checksum chains the entries in the old table's slot order; the new one sums them in any order."""
    game = resolve_game("mnk:4,4,4")
    claim = Claim(1, "no-loss")
    stopped = NativeProofSearch(game, claim, game.search_hooks())
    stopped.search(game.initial(), max_nodes=5_000)
    dump = tmp_path / "table"
    with open(dump, "wb") as handle:
        count = stopped.dump_table(handle.fileno())
    raw = dump.read_bytes()
    ordered = 0
    for i in range(count):
        w0, w1, w2, pn, dn, work = struct.unpack_from("<6Q", raw, 48 * i)
        ordered = _mix(ordered ^ _key_hash((w0, w1, w2)) ^ _mix((pn + 3 * _mix((dn + 5 * work) & MASK)) & MASK))
    assert ordered != stopped.table_checksum()  # the two checksums differ: both are accepted
    for checksum in (ordered, stopped.table_checksum()):
        resumed = NativeProofSearch(game, claim, game.search_hooks())
        resumed.load_table(dump, 0, count, stopped.nodes, checksum)
        assert (resumed.entries, resumed.table_checksum()) == (stopped.entries, stopped.table_checksum())
    with pytest.raises(ValueError, match="checksum"):
        NativeProofSearch(game, claim, game.search_hooks()).load_table(dump, 0, count, stopped.nodes, ordered ^ 1)


def test_sizing_a_table_that_holds_entries_keeps_every_one() -> None:
    """`reserve` between two searches moves the entries into the larger table: none is lost, and
    the search goes on as it would in the table that grew."""
    game = resolve_game("mnk:4,5,4")
    claim = Claim(2, "no-loss")
    moved, kept = NativeProofSearch(game, claim, game.search_hooks()), NativeProofSearch(game, claim, game.search_hooks())
    for search in (moved, kept):
        search._core.search(search.kernel.position(game.initial()), 30_000)
    before = moved.table_bytes
    moved.reserve(200_000, None)
    assert moved.table_bytes > before
    assert (moved.entries, moved.table_checksum()) == (kept.entries, kept.table_checksum())
    for search in (moved, kept):
        search._core.search(search.kernel.position(game.initial()), 30_000)
    assert (moved.nodes, moved.entries, moved.table_checksum()) == (kept.nodes, kept.entries, kept.table_checksum())


def test_a_proof_found_in_a_table_at_its_cap_is_walked_into_a_valid_certificate() -> None:
    """Once the table evicts, keys are looked for within fewer buckets of home (dfpn.c
    EVICTING_WINDOW): entries left further out are lost, not misread, so the walk searches again
    where a proof went missing and the certificate checks."""
    import json

    import checker
    from certify.proving.single import prove

    game = resolve_game("mnk:4,4,4")
    attempt = prove(game, Claim(1, "no-loss"), None, None, None, table_mb=2)
    assert attempt.outcome.status == "proved" and attempt.outcome.evictions > 0
    assert checker.check_document(json.loads(attempt.text)).exit_code == 0
