"""One exception for the notebook API (docs/api.md): every public function × bad inputs → CertifyError, one line.

The manner of tests/test_cli_vocabulary.py: each public function and method that takes input is given
each kind of bad input it could meet (None, a number where text goes, a word where a number goes, an
empty string, a missing file, a folder, a game that does not exist, an illegal move, a budget of 0 or
below). Each must raise `certify.CertifyError` (a ValueError) with one line naming what is wrong — no
AttributeError, TypeError or a traceback from inside the toolkit. The table is checked against the API
itself: a new public function or method that takes input must be added here, or
`test_every_public_callable_is_in_the_table` fails.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import certify
import certify.api

ROOT = Path(__file__).resolve().parents[1]
W3T = ROOT / "certificates" / "w3t.json"


class Made:
    """The values the bad calls are made on (built once)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ttt = certify.solve("tictactoe")
        self.unproved = certify.prove("mnk:4,4,4", 1, "win", max_nodes=50)  # a budget stops it: no certificate
        self.no_pairing = certify.pairing("mnk:4,4,4", 2)  # counting: 10 lines, 8 pairs at most
        self.pairing = certify.pairing("tictactoe", 1)
        self.start = certify.start("tictactoe")
        self.uttt = certify.start("uttt")
        self.missing = folder / "no-such.json"
        self.empty = folder / "empty.json"
        self.empty.write_text("")
        self.claims = folder / "claims.toml"
        self.claims.write_text("this is not TOML [")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    return Made(tmp_path_factory.mktemp("api-bad"))


Call = Callable[[Made], Any]

# public function or method → the bad calls it must refuse (label, call)
BAD: dict[str, list[tuple[str, Call]]] = {
    "game": [
        ("None", lambda m: certify.game(None)),
        ("a number", lambda m: certify.game(42)),
        ("empty", lambda m: certify.game("")),
        ("a list", lambda m: certify.game(["tictactoe"])),
        ("unknown", lambda m: certify.game("tic_tac_toe")),
        ("bad mnk", lambda m: certify.game("mnk:3,x,3")),
        ("bad uttt", lambda m: certify.game("uttt:closed")),
        ("missing spec", lambda m: certify.game(str(m.missing))),
        ("empty spec", lambda m: certify.game(str(m.empty))),
    ],
    "solve": [
        ("None", lambda m: certify.solve(None)),
        ("a number", lambda m: certify.solve(42)),
        ("unknown", lambda m: certify.solve("nope")),
        ("too big for tables", lambda m: certify.solve("mnk:5,5,4")),
        ("not positional", lambda m: certify.solve("uttt")),
    ],
    "prove": [
        ("game None", lambda m: certify.prove(None, 1)),
        ("game a number", lambda m: certify.prove(42, 1)),
        ("player 3", lambda m: certify.prove("tictactoe", 3)),
        ("player None", lambda m: certify.prove("tictactoe", None)),
        ("player text", lambda m: certify.prove("tictactoe", "1")),
        ("player True", lambda m: certify.prove("tictactoe", True)),
        ("claim unknown", lambda m: certify.prove("tictactoe", 1, "lose")),
        ("claim None", lambda m: certify.prove("tictactoe", 1, None)),
        ("position a number", lambda m: certify.prove("tictactoe", 1, position=42)),
        ("position bad", lambda m: certify.prove("tictactoe", 1, position="XXX")),
        ("position empty", lambda m: certify.prove("tictactoe", 1, position="")),
        ("max_nodes 0", lambda m: certify.prove("tictactoe", 1, max_nodes=0)),
        ("max_nodes -5", lambda m: certify.prove("tictactoe", 1, max_nodes=-5)),
        ("max_nodes text", lambda m: certify.prove("tictactoe", 1, max_nodes="10")),
        ("max_nodes fraction", lambda m: certify.prove("tictactoe", 1, max_nodes=1.5)),
        ("max_memory 0", lambda m: certify.prove("tictactoe", 1, max_memory=0)),
        ("max_memory -1", lambda m: certify.prove("tictactoe", 1, max_memory=-1.0)),
        ("max_memory text", lambda m: certify.prove("tictactoe", 1, max_memory="lots")),
        ("within 0", lambda m: certify.prove("tictactoe", 1, within=0)),
        ("within text", lambda m: certify.prove("tictactoe", 1, within="5")),
        ("first_move off the board", lambda m: certify.prove("tictactoe", 1, first_move="X9")),
        ("first_move the other player's", lambda m: certify.prove("tictactoe", 2, first_move="O4")),
        ("first_move a number", lambda m: certify.prove("tictactoe", 1, first_move=4)),
        ("pairings on uttt", lambda m: certify.prove("uttt", 1, pairings=True)),
        ("estimate on tictactoe", lambda m: certify.prove("tictactoe", 2, "no-loss", estimate=True)),
        ("threads 0", lambda m: certify.prove("tictactoe", 1, threads=0)),
        ("threads text", lambda m: certify.prove("tictactoe", 1, threads="2")),
    ],
    "start": [
        ("None", lambda m: certify.start(None)),
        ("a number", lambda m: certify.start(42)),
        ("unknown", lambda m: certify.start("nope")),
        ("moves None", lambda m: certify.start("tictactoe", None)),
        ("moves a number", lambda m: certify.start("tictactoe", 42)),
        ("moves off the board", lambda m: certify.start("tictactoe", "X9")),
        ("moves illegal", lambda m: certify.start("tictactoe", ["X4", "X4"])),
        ("moves of another family", lambda m: certify.start("uttt", "X4")),
        ("position a number", lambda m: certify.start("tictactoe", position=42)),
        ("position bad", lambda m: certify.start("tictactoe", position="XX/O")),
        ("position unreachable", lambda m: certify.start("tictactoe", position="XXX/OO./O..")),
        ("position of another family", lambda m: certify.start("uttt", position="X../.../...")),
        ("certificate a number", lambda m: certify.start("tictactoe", certificate=42)),
        ("certificate missing", lambda m: certify.start("tictactoe", certificate=m.missing)),
        ("certificate empty", lambda m: certify.start("tictactoe", certificate=m.empty)),
        ("certificate a folder", lambda m: certify.start("tictactoe", certificate=m.folder)),
        ("certificate of another game", lambda m: certify.start("tictactoe", certificate=W3T)),
        ("certificate of another family", lambda m: certify.start("uttt", certificate=m.ttt)),
        ("proof without certificate", lambda m: certify.start("mnk:4,4,4", certificate=m.unproved)),
        ("a pairing certificate", lambda m: certify.start("mnk:4,4,4", certificate=ROOT / "certificates" / "pairings" / "mnk-4-4-4.p1-pairing.json")),
        ("a proof closed by pairings", lambda m: certify.start("mnk:4,4,4", certificate=ROOT / "certificates" / "proofs" / "closed" / "mnk-4-4-4.p1-no-loss.json")),
    ],
    "load": [
        ("None", lambda m: certify.load(None)),
        ("a number", lambda m: certify.load(42)),
        ("empty name", lambda m: certify.load("")),
        ("missing", lambda m: certify.load(m.missing)),
        ("empty file", lambda m: certify.load(m.empty)),
        ("a folder", lambda m: certify.load(m.folder)),
        ("a strategy certificate", lambda m: certify.load(ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json")),
    ],
    "check": [
        ("no pairing", lambda m: certify.check(m.no_pairing)),
        ("None", lambda m: certify.check(None)),
        ("a number", lambda m: certify.check(42)),
        ("missing", lambda m: certify.check(m.missing)),
        ("empty file", lambda m: certify.check(m.empty)),
        ("unproved", lambda m: certify.check(m.unproved)),
    ],
    "audit_claims": [
        ("None", lambda m: certify.audit_claims(None)),
        ("a number", lambda m: certify.audit_claims(42)),
        ("missing", lambda m: certify.audit_claims(m.missing)),
        ("not TOML", lambda m: certify.audit_claims(m.claims)),
        ("published None", lambda m: certify.audit_claims(m.claims, None)),
    ],
    "Certified": [
        ("None", lambda m: certify.Certified(None)),
        ("a file name", lambda m: certify.Certified(str(W3T))),
    ],
    "Proof": [
        ("None", lambda m: certify.Proof(None, m.start.game)),
        ("a game's name", lambda m: certify.Proof(m.unproved.attempt, "mnk:4,4,4")),
        ("opposite not a proof", lambda m: certify.Proof(m.unproved.attempt, m.unproved.family, 42)),
    ],
    "Position": [
        ("game None", lambda m: certify.Position(None, 0)),
        ("game a name", lambda m: certify.Position("tictactoe", 0)),
        ("state None", lambda m: certify.Position(m.start.game, None)),
        ("state off the board", lambda m: certify.Position(m.start.game, 3**9)),
        ("state unreachable", lambda m: certify.Position(m.start.game, m.start.game.code((1, 1, 1, 0, 0, 0, 0, 0, 0)))),
        ("state of another family", lambda m: certify.Position(m.uttt.game, 0)),
        ("knowledge a file name", lambda m: certify.Position(m.start.game, 0, str(W3T))),
        ("knowledge of another game", lambda m: certify.Position(m.start.game, 0, certify.load(W3T).position().knowledge)),
    ],
    "Audit": [
        ("None", lambda m: certify.Audit(None)),
        ("a file name", lambda m: certify.Audit("certificates/claims/000.toml")),
    ],
    "Certified.position": [
        ("None", lambda m: m.ttt.position(None)),
        ("a number", lambda m: m.ttt.position(42)),
        ("off the board", lambda m: m.ttt.position("X9")),
        ("not a move", lambda m: m.ttt.position("hello")),
        ("illegal", lambda m: m.ttt.position("X4,X0")),
        ("a list with a number", lambda m: m.ttt.position(["X4", 7])),
    ],
    "Certified.strategy": [
        ("player 3", lambda m: m.ttt.strategy(3)),
        ("player None", lambda m: m.ttt.strategy(None)),
        ("player text", lambda m: m.ttt.strategy("1")),
    ],
    "Certified.save": [
        ("None", lambda m: m.ttt.save(None)),
        ("a number", lambda m: m.ttt.save(42)),
        ("a folder", lambda m: m.ttt.save(m.folder)),
        ("a missing folder", lambda m: m.ttt.save(m.folder / "no" / "such.json")),
    ],
    "pairing": [
        ("uttt", lambda m: certify.pairing("uttt", 1)),
        ("misere", lambda m: certify.pairing("misere", 1)),
        ("player 3", lambda m: certify.pairing("tictactoe", 3)),
        ("timeout 0", lambda m: certify.pairing("tictactoe", 1, timeout=0)),
        ("timeout text", lambda m: certify.pairing("tictactoe", 1, timeout="60")),
        ("bad position", lambda m: certify.pairing("tictactoe", 1, position="XX/...")),
        ("empty position", lambda m: certify.pairing("tictactoe", 1, position="")),
        ("unknown game", lambda m: certify.pairing("no-such-game", 1)),
    ],
    "PairingResult": [
        ("not a search", lambda m: certify.PairingResult("found")),
    ],
    "PairingResult.save": [
        ("none found", lambda m: m.no_pairing.save(m.folder / "n.json")),
        ("None", lambda m: m.pairing.save(None)),
        ("not a certificate", lambda m: m.pairing.save(m.claims)),
    ],
    "Proof.save": [
        ("unproved", lambda m: m.unproved.save(m.folder / "p.json")),
        ("None", lambda m: m.unproved.save(None)),
    ],
    "Proof.position": [
        ("None", lambda m: m.unproved.position(None)),
        ("illegal", lambda m: m.unproved.position("X4,X4")),
    ],
    "Position.play": [
        ("None", lambda m: m.start.play(None)),
        ("a number", lambda m: m.start.play(42)),
        ("empty list item", lambda m: m.start.play([None])),
        ("off the board", lambda m: m.start.play("X9")),
        ("the wrong mark", lambda m: m.start.play("O4")),
        ("not a move", lambda m: m.start.play("4.4")),
        ("after the end", lambda m: m.start.play("X0 O3 X1 O4 X2 O5")),
        ("uttt: off the board", lambda m: m.uttt.play("9.0")),
        ("uttt: not sent there", lambda m: m.uttt.play("4.0 5.0")),
        ("uttt: a number out of range", lambda m: m.uttt.play([81])),
    ],
    "Position.undo": [
        ("before the start", lambda m: m.start.undo()),
        ("negative", lambda m: m.start.play("X4").undo(-1)),
        ("text", lambda m: m.start.play("X4").undo("1")),
        ("too many", lambda m: m.start.play("X4 O0").undo(3)),
    ],
    "Position.evaluate": [
        ("negative", lambda m: m.start.evaluate(-1)),
        ("text", lambda m: m.start.evaluate("many")),
        ("None", lambda m: m.start.evaluate(None)),
    ],
    "Position.move_values": [
        ("negative", lambda m: m.start.move_values(-1)),
        ("a fraction", lambda m: m.start.move_values(2.5)),
    ],
    "Position.best_moves": [
        ("negative", lambda m: m.start.best_moves(-1)),
        ("text", lambda m: m.start.best_moves("10")),
    ],
    "Position.strategy_move": [
        ("player 3", lambda m: m.start.strategy_move(3)),
        ("player text", lambda m: m.start.strategy_move("2")),
    ],
}


# Records the API returns, made of plain values: constructing one checks nothing, as a tuple would not.
RECORDS = {"Value", "ValuedMove", "Verdict"}


def public_callables() -> set[str]:
    """Every public function of the API, and every constructor and public method of its types, that takes input."""
    found = set()
    for name in certify.api.__all__:
        item = getattr(certify.api, name)
        if inspect.isfunction(item):
            found.add(name)
        elif inspect.isclass(item) and not issubclass(item, Exception):
            if name not in RECORDS:
                found.add(name)
            for attribute, member in vars(item).items():
                if attribute.startswith("_") or not inspect.isfunction(member):
                    continue
                if len(inspect.signature(member).parameters) > 1:  # more than self
                    found.add(f"{name}.{attribute}")
    return found


def test_every_public_callable_is_in_the_table():
    assert public_callables() == set(BAD), "add the new function's bad inputs to BAD"


def test_the_package_exports_the_api():
    assert set(certify.__all__) - {"__version__"} == set(certify.api.__all__)
    for name in certify.api.__all__:
        assert getattr(certify, name) is getattr(certify.api, name)


@pytest.mark.parametrize(("name", "label", "call"), [(name, label, call) for name, calls in BAD.items() for label, call in calls],
                         ids=[f"{name}: {label}" for name, calls in BAD.items() for label, _ in calls])
def test_bad_input_is_one_certify_error(made: Made, name: str, label: str, call: Call):
    with pytest.raises(certify.CertifyError) as caught:
        call(made)
    message = str(caught.value)
    assert message and "\n" not in message and len(message) < 300, message
    assert " " in message and "Traceback" not in message and not message.startswith("<"), message  # words, not a bare repr


def test_bad_input_writes_nothing(made: Made):
    before = sorted(p.name for p in made.folder.iterdir())
    for calls in (BAD["Certified.save"], BAD["Proof.save"], BAD["PairingResult.save"]):
        for _, call in calls:
            with pytest.raises(certify.CertifyError):
                call(made)
    assert sorted(p.name for p in made.folder.iterdir()) == before


def test_a_strategy_certificate_of_other_rules_is_refused():
    with pytest.raises(certify.CertifyError, match="the certificate is for 'uttt:open', not for 'uttt'"):
        certify.start("uttt", certificate=ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json")
