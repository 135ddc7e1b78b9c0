"""The notebook API's game loop (certify/position.py), tested per family against one interface.

Every family — positional games named by m,n,k, by built-in name and by spec file, Ultimate
tic-tac-toe under both rule sets — is played through `certify.start` alone: random games to their
end, each move undone again, results read against the game's own `returns`, illegal moves refused
with CertifyError. Values are checked against what establishes them independently: the table
solver's labels on tic-tac-toe (searched values, and a certificate's), and a published strategy
certificate.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import certify

ROOT = Path(__file__).resolve().parents[1]
SPEC = """
name = "corners"
rows = 3
cols = 3
lines = [[0, 2], [6, 8], [0, 6], [2, 8]]
marks = "x-only"
goal = "first-line-loses"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("spec") / "corners.toml"
    path.write_text(SPEC)
    return str(path)


FAMILIES = ["tictactoe", "w3t", "misere", "mnk:4,4,3", "mnk:3,4,3,wild,misere", "spec", "uttt", "uttt:open"]


def named(game: str, spec: str) -> str:
    return spec if game == "spec" else game


@pytest.mark.parametrize("game", FAMILIES)
def test_random_games_play_undo_and_end(game: str, spec: str):
    chooser = random.Random(f"api-position-{game}")
    start = certify.start(named(game, spec))
    assert start.moves_played == () and start.result is None and start.undo(0) is start
    for _ in range(3):
        position = start
        while not position.is_over:
            assert position.result is None and position.legal_moves
            move = chooser.choice(position.legal_moves)
            after = position.play(move)
            assert after.moves_played == (*position.moves_played, move)
            assert after.undo() == position and after.undo().moves_played == position.moves_played
            assert after.undo().legal_moves == position.legal_moves
            position = after
        assert position.legal_moves == []
        first = position.game.returns(position.state)[0]
        assert position.result == {1: "win", 0: "draw", -1: "loss"}[first]
        assert position.value == {1: "win", 0: "draw", -1: "loss"}[position.game.returns(position.state)[position.to_move - 1]]
        assert position.undo(len(position.moves_played)) == start
        replayed = certify.start(named(game, spec), list(position.moves_played))
        assert replayed == position and replayed.moves_played == position.moves_played
        assert certify.start(named(game, spec), " ".join(position.moves_played)) == position
        with pytest.raises(certify.CertifyError, match="game is over"):
            position.undo().play(position.moves_played[-1]).play(position.undo().legal_moves[0])


@pytest.mark.parametrize("game", FAMILIES)
def test_a_move_played_twice_is_refused(game: str, spec: str):
    start = certify.start(named(game, spec))
    move = start.legal_moves[0]
    with pytest.raises(certify.CertifyError, match=f"move {move} is not legal in "):
        start.play([move, move])


@pytest.mark.parametrize("game", FAMILIES)
def test_drawn_as_text_svg_and_a_short_repr(game: str, spec: str):
    position = certify.start(named(game, spec)).play(certify.start(named(game, spec)).legal_moves[-1])
    text = repr(position)
    assert "\n" not in text and len(text) < 120 and position.rules.name in text
    assert str(position).count("\n") >= 2
    root = ET.fromstring(position._repr_svg_())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_the_familys_own_move_values_play_as_their_notation():
    from solver.games.positional.engine import Move

    assert certify.start("uttt").play([40, 36]) == certify.start("uttt", "4.4 4.0")
    assert certify.start("tictactoe").play([Move(4, 1), "O0"]) == certify.start("tictactoe", "X4 O0")
    with pytest.raises(certify.CertifyError, match="move True: expected a move like '0.0'"):
        certify.start("uttt").play([True])


def test_a_position_text_starts_where_the_moves_lead(spec: str):
    for game in FAMILIES:
        after = certify.start(named(game, spec), certify.start(named(game, spec)).legal_moves[-1])
        again = certify.start(named(game, spec), position=after.text)
        assert again == after and again.moves_played == () and again.text == after.text
        assert again.play(again.legal_moves[0]).undo() == again


def test_transpositions_are_equal_positions():
    start = certify.start("tictactoe")
    assert start.play("X4 O0 X8") == start.play("X8 O0 X4")
    assert start.play("X4 O0 X8") != start.play("X4 O8 X0")
    assert len({start.play("X4 O0 X8"), start.play("X8 O0 X4")}) == 1


def test_a_list_of_move_texts_is_a_position():  # issue 32, item 8: ["X4", "O1"] was refused as illegal
    ttt = certify.solve("tictactoe")
    assert ttt.position(["X4", "O1"]) == ttt.position("X4,O1") == certify.start("tictactoe", "X4 O1")


@pytest.fixture(scope="module")
def ttt() -> certify.Certified:
    return certify.solve("tictactoe")


def positions_along_games(start: certify.Position, games: int, seed: str) -> list[certify.Position]:
    chooser = random.Random(seed)
    found = []
    for _ in range(games):
        position = start
        while not position.is_over:
            found.append(position)
            position = position.play(chooser.choice(position.legal_moves))
    return found


def test_searched_values_agree_with_the_solved_table(ttt: certify.Certified):
    table = ttt.position()
    for position in positions_along_games(certify.start("tictactoe"), 4, "search"):
        certified = table.play(list(position.moves_played))
        searched = position.move_values(2_000)
        assert [m.move for m in searched] == position.legal_moves
        for move, truth in zip(searched, certified.move_values(0)):
            assert truth.source in ("certificate", "rules")
            assert move.source in ("search", "rules") and move.value == truth.value, (position.text, move, truth)
        assert position.evaluate(2_000).value == certified.value


def test_a_certificate_values_every_move_without_search(ttt: certify.Certified):
    for position in positions_along_games(certify.start("tictactoe", certificate=ttt), 3, "certificate"):
        values = position.move_values(0)
        assert all(m.source == "certificate" and m.plies is not None for m in values)
        best = [m for m in values if m.best]
        assert best and {m.value for m in best} == {position.value}
        if position.value != "draw":  # the fastest win or slowest loss is the position's own length
            assert {m.plies for m in best} == {position.evaluate(0).plies}


def test_certificate_file_and_certified_game_agree(ttt: certify.Certified, tmp_path: Path):
    path = ttt.save(tmp_path / "ttt.json")
    from_file = certify.start("tictactoe", "X4 O1", certificate=path)
    assert [str(m) for m in from_file.move_values(0)] == [str(m) for m in ttt.position("X4 O1").move_values(0)]


def test_without_a_certificate_or_search_a_value_is_unknown():
    start = certify.start("mnk:4,4,3")
    assert start.value is None and start.evaluate(0).source == "unknown"
    assert {m.source for m in start.move_values(0)} == {"unknown"} and start.best_moves(0) == []


def test_a_strategy_certificate_values_its_positions():
    """w3t: a win proof's values are the solved table's wherever the proof gives one."""
    proof = certify.prove("w3t", 1, "win")
    assert proof.proved
    table = certify.load(ROOT / "certificates" / "w3t.json").position()
    valued = 0
    for position in positions_along_games(proof.position(), 30, "strategy"):
        truth = table.play(list(position.moves_played))
        for move, right in zip(position.move_values(0), truth.move_values(0)):
            if move.source == "certificate":
                valued += 1
                assert move.value == right.value
        if position.to_move == 1 and not position.is_over and position.value is not None:
            assert position.strategy_move() in [m.move for m in truth.move_values(0) if m.value == "win"]
    assert valued > 30


def test_the_published_uttt_open_proof_values_its_strategy():
    start = certify.start("uttt:open", certificate=ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json")
    assert start.value == "win" and start.evaluate(0).source == "certificate"
    first = start.strategy_move()
    assert [m.move for m in start.move_values(0) if m.value is not None] == [first]
    reply = start.play(first)
    assert reply.value == "loss" and {m.value for m in reply.move_values(0)} == {"loss"}
    assert reply.strategy_move() is None and reply.strategy_move(1) is None  # O to move: no X move here


def test_rules_state_the_game_as_its_name_does():
    for name in ("tictactoe", "mnk:3,4,3,wild,misere", "uttt", "uttt:open"):
        assert certify.start(certify.game(name), certify.start(name).legal_moves[:1]) == certify.start(name).play(certify.start(name).legal_moves[0])


@pytest.mark.parametrize("name", ["tictactoe", "cumulative"])
def test_best_moves_are_the_tables_best(name: str):
    """As the explorer orders a table's moves (certify/record/positions.py): value, line margin, speed."""
    certified = certify.load(ROOT / "certificates" / f"{name}.json")
    for position in positions_along_games(certified.position(), 5, f"best-{name}"):
        table = certified._labels.moves(position.state)
        ours = position.move_values(0)
        assert [(m.move, m.value, m.plies, m.margin, m.best) for m in ours] == [
            (str(t.move), t.value, t.plies, t.margin, t.best) for t in table]


def test_every_family_has_a_drawing():
    """A new family registered in solver/games/families.py needs its drawing in certify/render/position.py."""
    from certify.render.position import DRAWERS
    from solver.games.families import FAMILIES

    assert set(DRAWERS) == {"positional", *FAMILIES}
