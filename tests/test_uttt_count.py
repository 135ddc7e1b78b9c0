"""The meta-line count closure of Ultimate tic-tac-toe: a bounded no-loss proof closes a prover's
position where the opponent needs more marks for a meta line than it has moves left (an unbounded
one where it needs more than the cells left allow it)
(solver/games/uttt/engine.py `marks_needed`, checker/uttt_count.py `check_count`).

The engine's count and the checker's plain one are compared on seeded random positions under both
rules; a proof with count closures is checked, and every mutation of its closures is refused.
"""

from __future__ import annotations

import json
import random

import pytest
from samples import assert_closure_mismatch_refused

import checker
import checker.uttt as plain
import checker.uttt_count as plain_count
from certify.proving.single import pack_moves, prove, unpack_moves
from solver.games.families import resolve_game
from solver.games.uttt.engine import DEEP, NEVER, NO_MOVE, O, X, marks_needed
from solver.search.pns import Claim


@pytest.mark.parametrize("name", ["uttt", "uttt:open"])
def test_the_engine_and_the_checker_count_alike_on_random_play(name: str) -> None:
    game = resolve_game(name)
    rules = plain.parse_rules(game.rules.canonical())
    rng = random.Random(36)
    seen = set()
    for _ in range(200):
        s, cstate = game.initial(), plain.initial(rules)
        while not game.is_terminal(s):
            for player in (X, O):
                count = marks_needed(s, player)
                assert count == plain_count.marks_needed(rules, cstate, player)
                lowered = rng.randrange(9)
                assert marks_needed(s, player, lowered) == plain_count.marks_needed(rules, cstate, player, lowered)
                seen.add(count)
            move = rng.choice(game.legal_moves(s))
            s, cstate = game.apply(s, move), dict(plain.moves(rules, cstate))[move]
    assert {1, 9, NEVER} <= seen  # one mark from a win, the empty grid, no meta line left



@pytest.mark.parametrize("name", ["uttt", "uttt:open"])
def test_the_checker_carries_the_counts_move_by_move_as_it_would_recount_them(name: str) -> None:
    """checker/uttt_count.py `moved` recounts only the board a move marked; along random play that
    equals counting all nine boards again, for both players, under both rules."""
    rules = plain.parse_rules(resolve_game(name).rules.canonical())
    rng = random.Random(35)
    for _ in range(100):
        state = plain.initial(rules)
        costs = {player: plain_count.board_costs(rules, state, player) for player in (X, O)}
        while children := plain.moves(rules, state):
            move, state = rng.choice(children)
            for player in (X, O):
                costs[player] = plain_count.moved(rules, costs[player], state, move, player)
                assert costs[player] == plain_count.board_costs(rules, state, player)
                assert plain_count.meta_count(costs[player]) == plain_count.marks_needed(rules, state, player)

def test_hand_counts() -> None:
    game = resolve_game("uttt:open")
    assert marks_needed(game.initial(), X) == 9
    s = game.initial()
    for move in (40, 36):  # X takes the centre of the centre board, O its corner
        s = game.apply(s, move)
    assert marks_needed(s, X) == 8 and marks_needed(s, O) == 8
    # O wins board 4 under the open rules: X's four meta lines through it are dead, the rest cost 9
    s = game.parse_position("........./........./........./...OOO.../....X..../...XX..../........./........./......... 0")
    assert s.ow == 1 << 4 and marks_needed(s, X) == 9 - 0 and marks_needed(s, O) == 6
    assert marks_needed(s, X, 4) == 9 and marks_needed(s, X, 0) == 8  # a move in a dead board lowers nothing


@pytest.fixture(scope="module")
def counted() -> dict:
    """X cannot win uttt:open within 19 plies (9 marks need ply 17; O answers so that a count
    closes): a proof with count closures, checked."""
    attempt = prove(resolve_game("uttt:open"), Claim(2, "no-loss", 19), max_nodes=200_000, core="python")
    assert attempt.outcome.status == "proved"
    return json.loads(attempt.text)


def test_a_proof_closed_by_counts_is_checked(counted: dict) -> None:
    verdict = checker.check_document(counted)
    assert verdict.exit_code == 0, verdict.message
    assert "closed by a count" in verdict.message and "does not lose within 19 plies" in verdict.message
    assert counted["proof"]["closures"] > 0 and "pairings" not in counted["proof"]


def with_counts(document: dict, records: list[list[int]]) -> dict:
    flat = [byte for record in records for byte in record]
    return {**document, "proof": {**document["proof"], "closures": len(records), "closure_bytes": len(flat),
                                  "counts": pack_moves(flat)}}


def records_of(document: dict) -> list[list[int]]:
    flat = bytes(unpack_moves(document["proof"]["counts"], document["proof"]["closure_bytes"]))
    records, at = [], 0
    while at < len(flat):
        records.append(list(flat[at:at + plain_count.record_length(flat, at)]))
        at += len(records[-1])
    return records


def two_byte_spots(records: list[list[int]]) -> list[tuple[int, int]]:
    """Where the two-byte records are: (record, offset inside it), inside deep records too."""
    def inside(record: bytes, at: int) -> list[int]:
        if record[at] != DEEP:
            return [at]
        out, sub = [], at + 3
        for _ in range(record[at + 2]):
            out += inside(record, sub)
            sub += plain_count.record_length(record, sub)
        return out
    return [(index, at) for index, record in enumerate(records) for at in inside(bytes(record), 0)]


def edited(records: list[list[int]], index: int, at: int, pair: list[int]) -> list[list[int]]:
    record = records[index][:at] + pair + records[index][at + 2:]
    return records[:index] + [record] + records[index + 1:]


def test_a_wrong_count_is_refused(counted: dict) -> None:
    records = records_of(counted)
    spots = two_byte_spots(records)
    assert any(records[i][at] != NO_MOVE for i, at in spots) and any(r[0] == DEEP for r in records)  # after a move, deep
    for index, at in spots[::max(1, len(spots) // 20)]:
        move, count = records[index][at:at + 2]
        for wrong in ([move, count - 1], [move, count + 1], [move, 255] if count != 255 else [move, 9]):
            verdict = checker.check_document(with_counts(counted, edited(records, index, at, wrong)))
            assert verdict.exit_code == 1 and "needs" in verdict.message, verdict.message


def test_a_wrong_move_is_refused(counted: dict) -> None:
    """A closure's move changed to another (or to none): the count no longer fits, or does not close."""
    records = records_of(counted)
    refused = 0
    spots = [(i, at) for i, at in two_byte_spots(records) if records[i][at] != NO_MOVE][:20]
    for index, at in spots:
        move, count = records[index][at:at + 2]
        for other in (NO_MOVE, move + 1, 80):
            verdict = checker.check_document(with_counts(counted, edited(records, index, at, [other, count])))
            refused += verdict.exit_code == 1
    assert refused >= 2 * len(spots)  # a neighbouring move may close alike; most do not


def test_a_wrong_deep_record_is_refused(counted: dict) -> None:
    """A deep record's move, its number of replies, an answer cut off or made deep itself: refused."""
    records = records_of(counted)
    deep = [i for i, record in enumerate(records) if record[0] == DEEP][:10]
    assert deep
    for index in deep:
        record = records[index]
        wrongs = [record[:1] + [record[1] + 1] + record[2:], record[:2] + [record[2] - 1] + record[3:-2],
                  record[:2] + [record[2] + 1] + record[3:] + [NO_MOVE, 9], record[:-2],
                  record[:3] + [DEEP] + record[4:], record[:3] + record[5:] + record[3:5]]
        for wrong in wrongs:
            if wrong == record:
                continue
            verdict = checker.check_document(with_counts(counted, records[:index] + [wrong] + records[index + 1:]))
            assert verdict.exit_code != 0, (record, wrong)


def test_a_count_that_does_not_close_is_refused(counted: dict) -> None:
    """The same closures under a looser bound: the opponent has moves enough, so they close nothing."""
    looser = {**counted, "claim": {**counted["claim"], "within": 21}}
    verdict = checker.check_document(looser)
    assert verdict.exit_code == 1 and "does not close" in verdict.message


def test_counts_are_for_no_loss_proofs_only_and_must_all_be_used(counted: dict) -> None:
    as_win = {**counted, "claim": {**counted["claim"], "result": "win"}}
    assert checker.check_document(as_win).exit_code != 0
    records = records_of(counted)
    assert checker.check_document(with_counts(counted, records[:-1])).exit_code != 0
    assert checker.check_document(with_counts(counted, records + [[NO_MOVE, 9]])).exit_code != 0
    odd = {**counted, "proof": {**counted["proof"], "closure_bytes": counted["proof"]["closure_bytes"] - 1}}
    assert checker.check_document(odd).exit_code != 0
    missing = {**counted, "proof": {k: v for k, v in counted["proof"].items() if k != "counts"}}
    assert checker.check_document(missing).exit_code != 0


def test_the_compiled_search_closes_as_the_python_one(counted: dict) -> None:
    """The kernel's count (solver/games/uttt/kernel.c) closes the same positions: the same file."""
    native = prove(resolve_game("uttt:open"), Claim(2, "no-loss", 19), max_nodes=200_000, core="native")
    assert native.core == "native" and json.loads(native.text) == counted


def test_plain_search_closes_nothing() -> None:
    game = resolve_game("uttt")
    root = "XO......./........./........./........./........./........./........./........./......... 1"
    for core in ("python", "native"):
        plain_search = prove(game, Claim(2, "no-loss", 3), root=root, plain=True, max_nodes=100_000, core=core)
        assert "closures" not in json.loads(plain_search.text)["proof"]


def test_a_win_claims_bound_prunes_by_the_count_without_changing_verdicts() -> None:
    """`for_claim` of a win claim within N drops the prover's moves after which it needs more marks
    than it has moves left: the same verdicts as the search without it, and fewer nodes in all."""
    from solver.search.native import NativeProofSearch

    game = resolve_game("uttt:open")
    rng, settled, nodes = random.Random(7), 0, [0, 0]
    for _ in range(12):
        s = game.initial()
        while not game.is_terminal(s) and (s.x | s.o).bit_count() < 30:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.is_terminal(s):
            continue
        for within in (7, 9, 11):
            claim = Claim(X if s.x.bit_count() == s.o.bit_count() else O, "win", within)
            hooks = game.search_hooks()
            free = NativeProofSearch(game, claim, hooks.for_claim("win", 200, s)).search(s, max_nodes=100_000)  # no bound to prune by, the same refutations
            pruned = NativeProofSearch(game, claim, hooks.for_claim("win", within, s)).search(s, max_nodes=100_000)
            if {free.status, pruned.status} <= {"proved", "disproved"}:
                assert free.status == pruned.status, (game.format_position(s), within)
                settled += 1
                nodes[0] += free.nodes
                nodes[1] += pruned.nodes
    assert settled >= 10 and nodes[1] < nodes[0]


def test_the_counts_work_is_budgeted_and_the_budget_fits_it(counted: dict) -> None:
    """A deep record checks a position per reply: `closure_bytes` / 2 positions' work counts against
    --max-work before any record is read, and `proof_limits` raises the budget to fit it."""
    from checker.load import Limits
    from certify.record.budget import proof_limits

    needed = counted["proof"]["closure_bytes"] // 2 * plain.position_work({})
    assert counted["proof"]["closure_bytes"] // 2 > counted["proof"]["positions"]  # the deep records weigh more
    refused = checker.check_document(counted, Limits(max_states=10**6, max_work=needed - 1))
    assert refused.exit_code != 0 and f"--max-work {needed}" in refused.message
    assert checker.check_document(counted, proof_limits(counted, Limits(max_states=1, max_work=1))).exit_code == 0


def test_record_lengths_are_read_from_the_bytes_and_nest_three_deep_at_most() -> None:
    assert plain_count.record_length(bytes([NO_MOVE, 9]), 0) == 2
    assert plain_count.record_length(bytes([DEEP, 0, 2, 3, 9, NO_MOVE, 9]), 0) == 7
    assert plain_count.record_length(bytes([DEEP, 0, 1, DEEP, 0, 1, NO_MOVE, 9]), 0) == 8
    assert plain_count.record_length(bytes([DEEP, 0, 1, DEEP, 0, 1, DEEP, 0, 1, NO_MOVE, 9]), 0) == 11
    assert plain_count.record_length(bytes([DEEP, 0, 1] * 4 + [NO_MOVE, 9]), 0) == 0  # four deep
    assert plain_count.record_length(largest(3), 0) == len(largest(3)) == 1731
    assert plain_count.record_length(largest(4), 0) == 0
    assert plain_count.record_length(bytes([DEEP, 0, 2, NO_MOVE, 9]), 0) == 0  # cut short
    assert plain_count.record_length(bytes([NO_MOVE]), 0) == 0


def test_a_closure_nested_too_deep_or_cut_short_is_refused(counted: dict) -> None:
    records = records_of(counted)
    for wrong in ([DEEP, 0, 1] * 4 + [NO_MOVE, 9], [DEEP, 0, 2, NO_MOVE, 9], list(largest(4))):  # last: a record cut
        verdict = checker.check_document(with_counts(counted, records[:-1] + [wrong]))  # short runs past the end
        assert verdict.exit_code != 0 and "nests deeper" in verdict.message, verdict.message


def test_prove_reports_closures_apart_from_the_provers_moves(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`certify prove`'s summary: a closure's CLOSE byte sits among proof.moves but is no move."""
    from typer.testing import CliRunner

    from certify.cli import app

    out = tmp_path / "p.json"
    result = CliRunner().invoke(app, ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "21",
                                      "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data, proof = json.loads(result.output), json.loads(out.read_text())["proof"]
    assert data["closures"] == proof["closures"] > 0
    assert data["prover_moves"] == proof["turns"] - proof["closures"]


@pytest.mark.parametrize("name", ["uttt", "uttt:open"])
def test_an_unbounded_no_loss_proof_closes_by_the_count_alike_in_both_cores(name: str) -> None:
    """Without a bound the count closes where the opponent cannot complete a meta line in the cells
    left (a (NO_MOVE, count) record, counted against 81 plies): the Python and compiled searches
    write the same file, the checker accepts it, and the verdicts are plain search's."""
    game = resolve_game(name)
    rng, proved, closed = random.Random(3602), 0, 0
    while proved < 4:
        s = game.initial()
        while not game.is_terminal(s) and (s.x | s.o).bit_count() < 52:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.is_terminal(s):
            continue
        root = game.format_position(s)
        for player in (X, O):
            claim = Claim(player, "no-loss")
            native = prove(game, claim, root, max_nodes=5_000, core="native")
            python = prove(game, claim, root, max_nodes=5_000, core="python")
            plain_search = prove(game, claim, root, max_nodes=50_000, plain=True, core="native")
            assert native.outcome.status == python.outcome.status and native.outcome.nodes == python.outcome.nodes
            if {native.outcome.status, plain_search.outcome.status} <= {"proved", "disproved"}:
                assert native.outcome.status == plain_search.outcome.status, (root, player)
            if native.outcome.status != "proved":
                continue
            assert native.text == python.text
            document = json.loads(native.text or "")
            verdict = checker.check_document(document)
            assert verdict.exit_code == 0, verdict.message
            records = records_of(document) if "counts" in document["proof"] else []
            assert all(record[0] == NO_MOVE and len(record) == 2 for record in records)
            if records:  # a count one off is refused
                wrong = [[NO_MOVE, records[0][1] - 1]] + records[1:]
                assert checker.check_document(with_counts(document, wrong)).exit_code != 0
            proved += 1
            closed += len(records)
    assert closed > 0


def largest(nest: int) -> bytes:
    """The largest record nested `nest` deep: every deep record answers 9 replies."""
    return bytes([DEEP, 0, 9]) + 9 * largest(nest - 1) if nest else bytes([NO_MOVE, 9])


def test_the_proof_uses_deep_records_three_deep(counted: dict) -> None:
    """Within 21 plies the search closes O's positions with records nested three deep (within 19
    the shortest records need two levels at most), and the checker reads them all."""
    def nest(record: bytes, at: int) -> int:
        if record[at] != DEEP:
            return 0
        deepest, sub = 0, at + 3
        for _ in range(record[at + 2]):
            deepest = max(deepest, nest(record, sub))
            sub += plain_count.record_length(record, sub)
        return 1 + deepest
    deeper = json.loads(prove(resolve_game("uttt:open"), Claim(2, "no-loss", 21), max_nodes=10_000, core="native").text)
    assert max(nest(bytes(record), 0) for record in records_of(counted)) == 2
    assert max(nest(bytes(record), 0) for record in records_of(deeper)) == plain_count.NEST == 3
    assert checker.check_document(deeper).exit_code == 0


def test_a_hostile_file_of_the_largest_records_is_budgeted_before_any_is_read(counted: dict) -> None:
    """Records of 1,731 bytes each, as many as the proof has closures: their work (bytes / 2
    positions) is over the default budget, so the file is refused before one is read; within the
    budget, the first wrong count inside the first record refuses it."""
    records = records_of(counted)
    hostile = with_counts(counted, [list(largest(3))] * len(records))
    verdict = checker.check_document(hostile)
    assert verdict.exit_code != 0 and "over the work budget" in verdict.message, verdict.message
    few = with_counts(counted, [list(largest(3))] + records[1:])
    verdict = checker.check_document(few)
    assert verdict.exit_code == 1, verdict.message


def test_a_checkpoint_of_another_closure_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The checkpoint's header names the closure (`closure_version`): a table searched with
    another one (or one saved before the header named it) is refused, not resumed as this search."""
    from typer.testing import CliRunner

    from certify.cli import app

    checkpoint = tmp_path / "c"
    claim = ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "27", "--max-nodes", "40"]
    runner = CliRunner()
    runner.invoke(app, [*claim, "--checkpoint", str(checkpoint)])
    assert_closure_mismatch_refused(lambda args: runner.invoke(app, args), claim, checkpoint)


def test_the_index_counts_the_provers_moves_without_the_closures(counted: dict, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """certificates/index.json's `prover_moves`, for a proof written now and for one carried over
    from an index that counted the closures among them."""
    from pathlib import Path

    from certify.publish.record import large_entry, proof_entry

    text = json.dumps(counted)
    entry = proof_entry("uttt:open", 2, "no-loss", Path("p.json"), text, None)
    assert entry["prover_moves"] == counted["proof"]["turns"] - counted["proof"]["closures"] < counted["proof"]["turns"]
    (tmp_path / "p.json").write_text(text, encoding="utf-8")
    carried = {"p.json": {**entry, "prover_moves": counted["proof"]["turns"]}}
    assert large_entry(tmp_path, "uttt:open", 2, "no-loss", Path("p.json"), carried, False, None) == entry


def test_the_prove_bench_counts_the_provers_moves_without_the_closures() -> None:
    """`certify bench --suite prove`'s prover_moves: proof.moves less the CLOSE bytes (as the index's)."""
    from certify.bench.prove import prove_benchmarks

    row = prove_benchmarks([("uttt:open", 2, "no-loss", 19)])[0]
    attempt = prove(resolve_game("uttt:open"), Claim(2, "no-loss", 19))
    assert attempt.tree is not None and attempt.tree.closures and row["verdict"] == "VALID"
    assert row["prover_moves"] == len(attempt.tree.moves) - len(attempt.tree.closures) < len(attempt.tree.moves)


def test_prove_json_prints_plain_json_not_through_rich(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`certify prove --json` writes json.dumps itself: rich's print_json re-parses and highlights the
    report (a 9.5 MB one raised the peak from 470 MB to 1.2 GB)."""
    from rich.console import Console
    from typer.testing import CliRunner

    from certify.cli import app

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("print_json")

    monkeypatch.setattr(Console, "print_json", refuse)
    out = tmp_path / "p.json"
    result = CliRunner().invoke(app, ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "19",
                                      "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "proved"
    (tmp_path / "v").mkdir()
    value = CliRunner().invoke(app, ["prove", "tictactoe", "--value", "--json", "-o", str(tmp_path / "v")])
    assert value.exit_code == 0, value.output
    assert json.loads(value.output)["value"] == "draw"


def shortest(game, hooks, s, plies_left: int, nest: int) -> int | None:  # type: ignore[no-untyped-def]
    """The length of the shortest record closing `s` (O to move, X the opponent), every move of O
    tried to the end: the choice `deep_record` makes, spelled out without its cut-offs."""
    if hooks.count_record(s, X, plies_left) is not None:
        return 2
    lengths = []
    for after in hooks.sending(s) if nest else []:
        if after is None:
            continue
        total = 3
        for move in game.legal_moves(after):
            reply = game.apply(after, move)
            length = None if game.is_terminal(reply) else shortest(game, hooks, reply, plies_left - 2, nest - 1)
            if length is None:
                break
            total += length
        else:
            lengths.append(total)
    return min(lengths, default=None)


def test_a_deep_record_is_the_shortest_and_both_cores_write_it() -> None:
    """Of O's moves whose replies all close, the record names the one with the shortest record
    (the first at that length), which is often not the first such move: on seeded random
    positions the Python hook's record has the least length (nested two deep, where every move can
    be tried to the end here), and the compiled closure writes the same bytes (three deep)."""
    from solver.games.uttt.engine import NEST
    from solver.search.native import NativeProofSearch

    game = resolve_game("uttt:open")
    hooks, rng, deep, not_first, within = game.search_hooks(), random.Random(5), 0, 0, 21
    native = NativeProofSearch(game, Claim(O, "no-loss", within), hooks, table_mb=1, closures=True)
    for _ in range(60):
        s = game.initial()
        while not game.is_terminal(s) and ((s.x | s.o).bit_count() < 8 or game.to_move(s) != O):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        ply = (s.x | s.o).bit_count()
        if game.is_terminal(s):
            continue
        record = hooks.deep_record(s, X, within - ply, 2)
        if record is None or record[0] != DEEP:
            continue
        deep += 1
        assert len(record) == shortest(game, hooks, s, within - ply, 2), game.format_position(s)
        first = next(index for index, after in enumerate(hooks.sending(s)) if after is not None and all(
            not game.is_terminal(r) and hooks.deep_record(r, X, within - ply - 2, 1) is not None
            for r in (game.apply(after, move) for move in game.legal_moves(after))))
        not_first += record[1] != first
        assert native.strategy(s, ply).closures == (hooks.deep_record(s, X, within - ply, NEST),)
    assert deep >= 5 and not_first >= 1, (deep, not_first)


def test_the_python_search_asks_whether_a_position_closes_and_the_walk_for_the_shortest_record() -> None:
    """As dfpn.h `close` takes `written`: pns.py's search asks the hook only whether a position
    closes (written=False: the first record found will do), and the same positions close either
    way; the record the certificate's walk asks for (written, the default) is the shortest, which
    on some positions is not the first found."""
    from solver.search.pns import ProofSearch

    game = resolve_game("uttt:open")
    hooks, rng, within, asked, differ = game.search_hooks(), random.Random(5), 21, [], 0
    closure = hooks.closure
    hooks.closure = lambda *args, **named: asked.append(named.get("written", True)) or closure(*args, **named)  # type: ignore[method-assign]
    search = ProofSearch(game, Claim(O, "no-loss", within), hooks)
    for _ in range(40):
        s = game.initial()
        while not game.is_terminal(s) and ((s.x | s.o).bit_count() < 8 or game.to_move(s) != O):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.is_terminal(s):
            continue
        ply = (s.x | s.o).bit_count()
        search.plies[game.key(s)] = ply
        found = closure(s, O, "no-loss", 0, within - ply, written=False)
        written = closure(s, O, "no-loss", 0, within - ply)
        assert search.closes(s, game.key(s)) == (found is not None) == (written is not None), game.format_position(s)
        if written is not None:
            assert len(written) <= len(found), game.format_position(s)  # type: ignore[arg-type]
            differ += written != found
    assert asked and not any(asked), "the search asked for a written record"
    assert differ >= 1, differ


@pytest.mark.parametrize("name", ["uttt", "uttt:open"])
def test_the_compiled_closure_closes_where_the_python_one_does_with_the_same_record(name: str) -> None:
    """kernel.c counts a move's replies and their costs without playing them (sends_to,
    reply_cost, marked_cost); on seeded random positions of O at every bound of 1 to 16 plies,
    its closure at the root is the Python hook's: the same positions close, with the same record
    (a one-node proof without a closure is O's winning move, not a closure)."""
    from solver.games.uttt.engine import NEST
    from solver.search.native import NativeProofSearch

    game = resolve_game(name)
    hooks, rng, closed, deep = game.search_hooks(), random.Random(11), 0, 0
    for _ in range(25):
        s, target = game.initial(), rng.randrange(6, 50)
        while not game.is_terminal(s) and ((s.x | s.o).bit_count() < target or game.to_move(s) != O):
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if game.is_terminal(s):
            continue
        for left in range(1, 17):
            record = hooks.deep_record(s, X, left, NEST)
            native = NativeProofSearch(game, Claim(O, "no-loss", left), hooks, table_mb=1, closures=True)
            proved = native.search(s, max_nodes=1).status == "proved"
            where = (game.format_position(s), left)
            assert native.strategy(s).closures == (record,) if record is not None else not proved or not native.strategy(s).closures, where
            closed += record is not None
            deep += record is not None and record[0] == DEEP
    assert closed >= 100 and deep >= 30, (closed, deep)
