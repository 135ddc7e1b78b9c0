"""The pairing kind: true certificates accepted with the claim they prove, hostile ones refused,
and the checker's condition confirmed by playing the pairing strategy out on small boards."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import checker
from certify.smt.pairing_certificate import pairing_certificate, search_pairing
from certify.proving.single import certificate_text
from certify.smt.cover import Position, blocks_all, counting_bound, first_moves, open_lines, search
from certify.smt.pairing import maximal_pairings
from solver.games.positional.rules import Rules, make_rules, resolve
from solver.games.positional.symmetry import line_automorphisms
from test_checker_helpers import rules_sha256
from samples import edit_point


@cache
def found(game: str, player: int, root: str | None = None) -> str:
    """The certificate text the search writes (checked VALID by the search itself)."""
    result = search_pairing(resolve(game), player, root, 60, f"test {game}")
    assert result.text is not None, result.cover.reason
    return result.text


def document(game: str, player: int, root: str | None = None) -> dict:
    return json.loads(found(game, player, root))


def verdict(doc: dict, limits: checker.Limits = checker.Limits()) -> checker.CheckResult:
    result = checker.check_document(doc, limits)
    assert "\n" not in result.message
    return result


def invalid(doc: dict) -> str:
    result = verdict(doc)
    assert result.exit_code == 1, result.message
    assert result.message.startswith("INVALID pairing ")
    return result.message


def error(doc: dict, limits: checker.Limits = checker.Limits()) -> str:
    result = verdict(doc, limits)
    assert result.exit_code == 2, result.message
    assert result.message.startswith("ERROR: ")
    return result.message


def with_rules(doc: dict, rules: Rules) -> dict:
    """`doc` about other rules (same board size), its hash recomputed so only the rules differ."""
    changed = copy.deepcopy(doc)
    changed["rules"] = rules.canonical()
    changed["rules_sha256"] = rules_sha256(changed["rules"])
    return changed


# ---- true certificates ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "player", "root", "claim"), [
    ("tictactoe", 1, None, "player 1 does not lose from the start"),
    ("mnk:4,4,4", 1, None, "player 1 does not lose from the start"),
    ("mnk:8,8,8", 2, None, "player 2 does not lose from the start"),
    ("mnk:5,5,5", 1, None, "player 1 does not lose from the start"),
    ("mnk:4,4,4", 2, "X.../..../..../....", "player 2 does not lose from position X . . . / . . . . / . . . . / . . . ."),
    ("cumulative", 1, None, "player 1 does not lose from the start (most-lines)"),
])
def test_found_pairings_are_valid_and_say_what_they_prove(game, player, root, claim):
    result = verdict(document(game, player, root))
    assert result.exit_code == 0, result.message
    assert result.message.startswith("VALID pairing ") and claim in result.message


def test_a_first_move_is_named_and_blocks_the_lines_through_it():
    doc = document("tictactoe", 1)
    assert doc["pairing"]["first_move"] == 4  # the centre: the four edge lines are left, one pair each
    assert "first move on cell 4" in verdict(doc).message


# ---- hostile certificates --------------------------------------------------------------------------


def test_overlapping_pairs_are_refused():
    doc = document("mnk:8,8,8", 2)
    doc["pairing"]["pairs"][1][0] = doc["pairing"]["pairs"][0][0]
    assert "already paired" in invalid(doc)


@pytest.mark.parametrize("cell", [64, -1, 10**6])
def test_off_board_cells_are_refused(cell):
    doc = document("mnk:8,8,8", 2)
    doc["pairing"]["pairs"][0][1] = cell
    assert "is not on the board" in invalid(doc)


def test_a_cell_paired_with_itself_is_refused():
    doc = document("mnk:8,8,8", 2)
    first = doc["pairing"]["pairs"][0][0]
    doc["pairing"]["pairs"][0] = [first, first]
    assert "already paired" in invalid(doc) or "itself" in invalid(doc)


def test_a_line_left_uncovered_by_one_cell_is_refused():
    """Move one cell of one pair to an unpaired cell: the line it blocked is open (or two lines are)."""
    doc = document("mnk:8,8,8", 2)
    paired = {cell for pair in doc["pairing"]["pairs"] for cell in pair}
    rules = resolve("mnk:8,8,8")
    refused = 0
    for index, (a, b) in enumerate(doc["pairing"]["pairs"]):
        line = next(line for line in rules.lines if a in line and b in line)
        spare = next(cell for cell in range(64) if cell not in paired and cell not in line)
        mutated = copy.deepcopy(doc)
        mutated["pairing"]["pairs"][index] = [a, spare]
        message = invalid(mutated)
        assert "holds no pair at " in message and "and player 1 could complete it" in message
        refused += 1
    assert refused == 18


def test_a_dropped_pair_is_refused():
    doc = document("mnk:5,5,5", 1)
    for index in range(len(doc["pairing"]["pairs"])):
        mutated = copy.deepcopy(doc)
        del mutated["pairing"]["pairs"][index]
        assert "holds no pair" in invalid(mutated)


@pytest.mark.parametrize(("rules", "why"), [
    ("mnk:3,3,3,misere", "completing a line loses"),
    ("mnk:3,3,3,wild", "either player may place either mark"),
    ("notakto", "both players place X"),
])
def test_a_pairing_claimed_for_rules_it_does_not_prove_is_refused(rules, why):
    doc = with_rules(document("tictactoe", 1), resolve(rules))
    message = invalid(doc)
    assert "a pairing proves nothing under these rules" in message and why in message


def test_the_wrong_player_is_refused():
    """tictactoe's pairing needs player 1's first move; player 2 does not move first."""
    doc = document("tictactoe", 1)
    doc["claim"]["player"] = 2
    assert "player 1 is to move at" in invalid(doc)


def test_the_wrong_player_at_a_position_is_refused():
    """Player 2's pairing after X0 counts on O's reply; player 1 owns no O to block with."""
    doc = document("mnk:4,4,4", 2, ROOT)
    doc["claim"]["player"] = 1
    doc["pairing"]["first_move"] = None
    invalid(doc)


def test_a_first_move_on_a_taken_cell_or_a_paired_cell_is_refused():
    doc = document("mnk:4,4,4", 2, ROOT)
    taken = copy.deepcopy(doc)
    taken["pairing"]["first_move"] = 0
    assert "not an empty cell of" in invalid(taken)
    paired = copy.deepcopy(doc)
    paired["pairing"]["first_move"] = doc["pairing"]["pairs"][0][0]
    assert "the first move" in invalid(paired)


def test_a_pair_on_a_marked_cell_is_refused():
    doc = document("mnk:4,4,4", 2, ROOT)
    doc["pairing"]["pairs"][0][0] = 0
    assert "is not empty" in invalid(doc)


def test_a_finished_root_is_refused():
    doc = document("tictactoe", 1)
    doc["claim"]["root"] = "XXX/OO./..."
    doc["pairing"]["first_move"] = None
    assert "finished game" in invalid(doc)


@pytest.mark.parametrize(("path", "value", "words"), [
    (("claim", "result"), "win", "claim.result"),
    (("claim", "player"), 3, "claim.player"),
    (("pairing", "pairs"), [[1, 2, 3]], "pairing.pairs[0] must be an array of two integers"),
    (("pairing", "pairs"), [[1, True]], "pairing.pairs[0] must be an array of two integers"),
    (("pairing", "pairs"), "1-2", "pairing.pairs must be array"),
    (("pairing", "first_move"), "4", "pairing.first_move must be integer or null"),
])
def test_malformed_fields_are_errors(path, value, words):
    doc = document("tictactoe", 1)
    doc[path[0]][path[1]] = value
    assert words in error(doc)


def test_huge_pair_lists_and_rules_over_the_work_budget_are_refused_before_work():
    doc = document("tictactoe", 1)
    doc["pairing"]["pairs"] = [[0, 1]] * 1_000_000
    assert "more than 9 cells can hold" in error(doc)
    assert "--max-work" in error(document("mnk:8,8,8", 2), checker.Limits(max_work=100))


def test_huge_files_are_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(found("mnk:8,8,8", 2), encoding="utf-8")
    result = checker.check_file(str(path), checker.Limits(max_bytes=1000))
    assert result.exit_code == 2 and "--max-bytes" in result.message


def test_the_uttt_family_is_refused():
    doc = document("tictactoe", 1)
    from solver.games.families import resolve_game

    doc["rules"] = resolve_game("uttt").rules.canonical()
    doc["rules_sha256"] = rules_sha256(doc["rules"])
    assert "positional games" in error(doc)


# ---- the condition is sound: play the strategy out ---------------------------------------------------


def opponent_can_complete(rules: Rules, player: int, board: list[int], partner: dict[int, int],
                          first: int | None, to_move: int, last: int | None) -> bool:
    """Whether some play of the pairing strategy (every opponent move, every free choice of the
    pairer) lets the opponent complete a line; own marks, first-line-wins."""
    for line in rules.lines:
        mark = board[line[0]]
        if mark and all(board[c] == mark for c in line):
            return mark != player
    empty = [cell for cell in range(rules.cells) if board[cell] == 0]
    if not empty:
        return False
    if to_move == player:
        if first is not None:
            choices = [first]
        elif last is not None and last in partner and board[partner[last]] == 0:
            choices = [partner[last]]
        else:
            choices = empty
    else:
        choices = empty
    for cell in choices:
        board[cell] = to_move
        bad = opponent_can_complete(rules, player, board, partner, None, 3 - to_move, cell)
        board[cell] = 0
        if bad:
            return True
    return False


ROOT = "X.../..../..../...."  # player 2 draws by a reply and a pairing after X0 on 4x4
SMALL = ["mnk:3,3,3", "mnk:2,4,3", "mnk:1,6,4"]  # 2, 166 and 120 valid pairing certificates of 5,000


@pytest.mark.parametrize("game", SMALL)
def test_every_pairing_the_checker_accepts_never_loses_when_played_out(game):
    """Every maximal pairing and first move on small boards: each one VALID survives every play."""
    rules = resolve(game)
    accepted = 0
    for player in (1, 2):
        for first in [None, *range(rules.cells)] if player == 1 else [None]:
            for pairing in maximal_pairings([cell for cell in range(rules.cells) if cell != first]):
                doc = json.loads(certificate_text(pairing_certificate(rules, player, None, pairing, first, "test")))
                result = verdict(doc)
                assert result.exit_code in (0, 1), result.message
                if result.exit_code == 0:
                    accepted += 1
                    assert not opponent_can_complete(rules, player, [0] * rules.cells, pairing.partner, first, 1, None)
    assert accepted > 0


def test_the_play_out_finds_a_loss_when_a_line_is_unblocked():
    rules = resolve("tictactoe")
    partner = {0: 1, 1: 0, 3: 6, 6: 3, 7: 8, 8: 7}  # the right column (2, 5, 8) holds no pair
    assert opponent_can_complete(rules, 1, [0] * 9, partner, 4, 1, None)
    partner |= {2: 5, 5: 2}
    assert not opponent_can_complete(rules, 1, [0] * 9, partner, 4, 1, None)


# ---- the search ------------------------------------------------------------------------------------------


def test_the_counting_bound_names_its_numbers():
    rules = resolve("mnk:4,4,4")
    position = Position((0,) * 16, 2)
    reason = counting_bound(open_lines(rules, position), range(16), first_move_allowed=False)
    assert reason == ("10 open lines, but a pair lies in at most 1 of them and 16 free cells make at most 8 pairs: "
                      "8 lines at most")


def test_overlapping_segments_let_a_pair_block_several_lines():
    """On a row of 6 with lines of 4, cells 2 and 3 lie in three segments together."""
    rules = make_rules("row", 1, 6, "own", "first-line-wins", k=4)
    assert counting_bound(rules.lines, range(6), False) is None
    cover = search(rules, Position((0,) * 6, 2))
    assert cover.status == "found" and cover.pairing is not None and len(cover.pairing.pairs) == 1


def test_search_says_none_with_z3_when_counting_does_not_decide():
    cover = search(resolve("mnk:5,5,4"), Position((0,) * 25, 1))
    assert cover.status == "none" and cover.reason.startswith("Z3: unsat without a first move and after each of 25")
    assert "(6 up to the position's symmetries)" in cover.reason  # the 5×5 board's eight symmetries


def test_a_first_move_found_is_one_of_a_class_the_position_s_symmetries_exchange():
    """6,6,5 has no pairing for player 1 without a first move; one after a first move, which must
    block the lines through it; the cells tried are one per class, each class's cells exchanged."""
    rules = resolve("mnk:6,6,5")
    position = Position((0,) * 36, 1)
    cover = search(rules, position)
    assert cover.status == "found" and cover.first_move is not None and cover.pairing is not None
    assert blocks_all(open_lines(rules, position), cover.pairing, cover.first_move)
    assert not blocks_all(open_lines(rules, position), cover.pairing, None)
    tried = first_moves(rules, position, open_lines(rules, position), range(36))
    classes = {frozenset(p[cell] for p in line_automorphisms(rules)) for cell in tried}
    assert len(classes) == len(tried) == 6 and set().union(*classes) == set(range(36))


def test_search_refuses_rules_a_pairing_proves_nothing_for():
    with pytest.raises(ValueError, match="proves nothing"):
        search(resolve("misere"), Position((0,) * 9, 1))


def test_every_pair_found_is_needed():
    doc = document("mnk:7,7,7", 2)
    for index in range(len(doc["pairing"]["pairs"])):
        mutated = copy.deepcopy(doc)
        del mutated["pairing"]["pairs"][index]
        assert verdict(mutated).exit_code == 1


def test_pairs_are_written_in_one_order():
    pairs = document("mnk:6,6,6", 1)["pairing"]["pairs"]
    assert pairs == sorted(pairs) and all(a < b for a, b in pairs)
    assert len({c for pair in pairs for c in pair}) == 2 * len(pairs)


# ---- the published record ------------------------------------------------------------------------------


def test_seed_004_pairings_in_the_new_kind():
    """3a (centre opening, four pairs) blocks every line: VALID; 4a-4c let player 1 complete a line and
    count on player 2 completing one too (most-lines), which a pairing certificate does not prove."""
    from certify.publish.pairings import seeds

    entries, files = seeds(Path(__file__).resolve().parents[1])
    verdicts = {entry["source"]: entry["checker"].split()[0] for entry in entries}
    assert verdicts == {"seed 004, claim 004.3a": "VALID", "seed 004, claim 004.4a": "INVALID",
                        "seed 004, claim 004.4b": "INVALID", "seed 004, claim 004.4c": "INVALID"}
    assert len(files) == 1
    assert all("and player 1 could complete it" in e["checker"] for e in entries if e["file"] is None)


# ---- the command ------------------------------------------------------------------------------------------


def pairing_cli(*args: str):
    from typer.testing import CliRunner

    from certify.cli import app

    return CliRunner().invoke(app, ["pairing", *args], catch_exceptions=False)


def test_search_command_writes_the_published_file(tmp_path):
    path = tmp_path / "p.json"
    result = pairing_cli("search", "mnk:4,4,4", "--player", "2", "--position", ROOT, "-o", str(path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "found" and data["checker"].startswith("VALID pairing ")
    written, searched = json.loads(path.read_text(encoding="utf-8")), document("mnk:4,4,4", 2, ROOT)
    assert written["provenance"]["command"] == f"certify pairing search mnk:4,4,4 --player 2 --position '{ROOT}'"
    assert written["pairing"] == searched["pairing"]  # the CLI's search (in a child process) finds the same
    assert checker.check_file(str(path)).exit_code == 0


def test_search_command_says_why_none_exists(tmp_path):
    path = tmp_path / "none.json"
    result = pairing_cli("search", "mnk:4,4,4", "--player", "2", "-o", str(path))
    assert result.exit_code == 1
    assert "none exists" in result.output and "counting: 10 open lines" in result.output
    assert not path.exists()


def test_the_api_finds_the_published_file_byte_for_byte_and_saves_it(tmp_path):
    import certify

    published = (Path(__file__).resolve().parents[1] / "certificates" / "pairings" / "mnk-7-7-6.p2-pairing.json").read_text(encoding="utf-8")
    found = certify.pairing("mnk:7,7,6", 2)
    assert found.found and found.text == published and found.verdict.startswith("VALID pairing 7x7 board")
    assert len(str(found).splitlines()) == 7 and str(found).count(".") == 49 - 2 * len(found.pairs)
    saved = found.save(tmp_path / "776.json")
    assert saved.read_text(encoding="utf-8") == published and certify.check(saved).valid
    after = certify.pairing("mnk:4,4,4", 2, position="..../.X../..../....")  # a reply of O, then pairs
    rows = str(after).splitlines()
    assert rows[1].split()[1] == "X" and str(after).count("*") == 1 and str(after).count(".") == 16 - 2 - 2 * len(after.pairs)
    none = certify.pairing("mnk:8,8,5", 1)
    assert (none.status, none.found, none.pairs, none.text) == ("none", False, [], None)
    assert str(none).startswith("no pairing (none): Z3: unsat") and "10 up to the position's symmetries" in none.reason


def test_openings_command_writes_the_published_draw_of_4x4_by_pairings_alone(tmp_path):
    """Player 2's reply and pairing after each of the 16 openings: the published files, byte for byte."""
    result = pairing_cli("openings", "mnk:4,4,4", "--out-dir", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["openings"]
    assert [row["opening"] for row in rows] == list(range(16)) and all(row["status"] == "found" for row in rows)
    published = Path(__file__).resolve().parents[1] / "certificates" / "pairings"
    for cell in range(16):
        name = f"mnk-4-4-4.p2-after-x{cell}-pairing.json"
        assert (tmp_path / name).read_bytes() == (published / name).read_bytes()


def test_openings_command_says_which_openings_have_none(tmp_path):
    result = pairing_cli("openings", "tictactoe", "--out-dir", str(tmp_path), "--json")
    assert result.exit_code == 1
    rows = json.loads(result.output)["openings"]
    assert len(rows) == 9 and not json.loads(result.output)["every_opening"]
    assert all(row["file"] is None or (tmp_path / Path(row["file"]).name).exists() for row in rows)
    assert any(row["status"] == "none" and row["reason"].startswith("counting") for row in rows)


def test_openings_command_refuses_to_overwrite_a_foreign_file_before_any_search(tmp_path):
    foreign = tmp_path / "tictactoe.p2-after-x8-pairing.json"
    foreign.write_text("keep me", encoding="utf-8")
    result = pairing_cli("openings", "tictactoe", "--out-dir", str(tmp_path))
    assert result.exit_code == 2 and "use --force" in result.output
    assert foreign.read_text(encoding="utf-8") == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == [foreign.name]


def test_search_command_shows_a_spinner_on_a_terminal_while_z3_runs(tmp_path, monkeypatch):
    """The search runs in a child process that reports nothing until it ends: a terminal sees what
    runs and for how long; a pipe (the other tests) sees nothing of it."""
    import io

    from rich.console import Console

    import certify.cli.pairing as command

    screen = io.StringIO()
    monkeypatch.setattr(command, "errors", Console(file=screen, force_terminal=True, width=120))
    result = pairing_cli("search", "mnk:8,8,6", "--player", "2", "--timeout", "0.5", "-o", str(tmp_path / "p.json"))
    assert result.exit_code in (0, 1)  # found, or (today) not settled in half a second
    assert "pairing search: mnk:8,8,6, player 2 (Z3, at most 0.5 s)" in screen.getvalue()


@pytest.mark.parametrize(("args", "words"), [
    (("search", "misere"), "a pairing proves nothing for marks own, goal first-line-loses"),
    (("search", "tictactoe", "--position", "XX/..."), "position"),
    (("search", "tictactoe", "--player", "3"), "--player"),
    (("openings", "misere"), "a pairing proves nothing for marks own, goal first-line-loses"),
    (("openings", "uttt"), "positional games"),
    (("openings", "tictactoe", "--out-dir", "no-such-folder"), "--out-dir no-such-folder: cannot write: no such folder"),
])
def test_search_and_openings_commands_refuse_bad_input_in_one_line(args, words):
    result = pairing_cli(*args)
    assert result.exit_code == 2 and words in result.output


def test_certify_check_and_the_schema_know_the_kind(tmp_path):
    from typer.testing import CliRunner

    from certify.cli import app
    from certify.record.schema import PairingCertificate, json_schema

    path = tmp_path / "p.json"
    path.write_text(found("mnk:8,8,8", 2), encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(path), "--game", "mnk:8,8,8"], catch_exceptions=False)
    assert result.exit_code == 0 and "VALID pairing 8x8 board" in result.output
    assert PairingCertificate.model_validate_json(found("mnk:8,8,8", 2)).pairing.first_move is None
    assert "PairingCertificate" in json.dumps(json_schema())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 70) | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_random_edits_of_a_pairing_certificate_never_crash_nor_prove_a_falsehood(data):
    """Replace one value anywhere in tictactoe's pairing certificate by random JSON: a one-line
    verdict always, and VALID only if the pairing strategy still never loses when played out."""
    doc = document("tictactoe", 1)
    node, key = edit_point(data, doc)
    if key is not None:
        node[key] = data.draw(JSON_VALUES)
    result = verdict(doc)
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 0:
        rules = resolve("tictactoe")
        assert doc["rules_sha256"] == rules.sha256()
        if doc["claim"]["root"] is None:
            pairs = doc["pairing"]["pairs"]
            partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
            first = doc["pairing"]["first_move"]
            assert not opponent_can_complete(rules, doc["claim"]["player"], [0] * 9, partner, first, 1, None)


# ---- proof trees that end in a pairing -------------------------------------------------------------------


@cache
def closed_proof(game: str, player: int) -> str:
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    attempt = prove(resolve_game(game), Claim(player, "no-loss"), pairings=True, max_nodes=20_000)
    assert attempt.text is not None
    return attempt.text


def unpacked(text: str) -> list[int]:
    import base64
    import zlib

    return list(zlib.decompress(base64.b64decode(text)))


def repacked(doc: dict, key: str, data: list[int]) -> dict:
    from certify.proving.single import pack_moves

    changed = copy.deepcopy(doc)
    changed["proof"][key] = pack_moves(data)
    return changed


def test_a_proof_closed_by_pairings_is_valid_and_small():
    for player, positions in ((1, 1), (2, 17)):  # 4x4: player 1 pairs at once; player 2 after each opening
        doc = json.loads(closed_proof("mnk:4,4,4", player))
        result = verdict(doc)
        assert result.exit_code == 0, result.message
        assert doc["proof"]["positions"] == positions
        assert f"{doc['proof']['closures']:,} position" in result.message and "closed by a pairing" in result.message


def test_a_closure_that_leaves_a_line_open_is_refused():
    doc = json.loads(closed_proof("mnk:4,4,4", 2))
    data = unpacked(doc["proof"]["pairings"])
    data[1] -= 1  # the first closure loses its last pair
    del data[2 + 2 * data[1]:4 + 2 * data[1]]
    mutated = repacked(doc, "pairings", data)
    mutated["proof"]["closure_bytes"] -= 2
    assert "holds no pair at " in invalid_strategy(mutated)


def test_closures_in_a_win_proof_or_under_misere_rules_are_refused():
    doc = json.loads(closed_proof("mnk:4,4,4", 2))
    win = copy.deepcopy(doc)
    win["claim"]["result"] = "win"
    assert "only in a no-loss proof" in invalid_strategy(win)
    misere = with_rules(doc, resolve("mnk:4,4,4,misere"))
    assert "a pairing proves nothing under these rules" in invalid_strategy(misere)


def test_closure_counts_must_match_their_bytes():
    doc = json.loads(closed_proof("mnk:4,4,4", 2))
    fewer = copy.deepcopy(doc)
    fewer["proof"]["closures"] -= 1
    assert "closures" in error(fewer)
    short = copy.deepcopy(doc)
    short["proof"]["closure_bytes"] -= 1
    assert "pairings" in error(short)


def test_a_close_byte_without_its_pairing_or_a_pairing_unused_is_refused():
    doc = json.loads(closed_proof("mnk:4,4,4", 1))
    moves = unpacked(doc["proof"]["moves"])
    assert moves == [255]
    none_left = copy.deepcopy(doc)
    for key, value in (("closures", 0), ("closure_bytes", 0), ("pairings", "")):
        none_left["proof"][key] = value
    none_left = repacked(none_left, "pairings", [])
    assert "proof.moves[0] = 255 at " in invalid_strategy(none_left)  # as in a proof without closures
    data = unpacked(doc["proof"]["pairings"])
    unused = repacked(doc, "pairings", data + data)
    unused["proof"]["closures"], unused["proof"]["closure_bytes"] = 2, 2 * len(data)
    assert "proof.closures = 2 is outside 0..1" in error(unused)  # more closures than the prover's turns


def invalid_strategy(doc: dict) -> str:
    result = verdict(doc)
    assert result.exit_code == 1, result.message
    assert result.message.startswith("INVALID strategy ")
    return result.message


def test_more_close_bytes_than_pairings_are_refused():
    doc = json.loads(closed_proof("mnk:4,4,4", 2))
    data = unpacked(doc["proof"]["pairings"])
    offsets, offset = [], 0
    while offset < len(data):
        offsets.append(offset)
        offset += 2 + 2 * data[offset + 1]
    mutated = repacked(doc, "pairings", data[:offsets[-1]])  # the last pairing dropped
    mutated["proof"]["closures"] -= 1
    mutated["proof"]["closure_bytes"] = offsets[-1]
    assert f"but proof.closures has only {len(offsets) - 1}" in invalid_strategy(mutated)
