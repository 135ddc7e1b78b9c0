"""The notebook API's game loop: a position of any family as a value (`play`, `undo`, `result`),
with the value of each move from what knows it — a certificate, the rules, or a bounded search.

One model for every family: a `Position` holds a game (solver/games/game.py), a state and the
moves that reached it, and asks only the game interface. What it knows of values comes from a
`Knowledge` (a table certificate labels every reachable state; a strategy certificate proves its
claim at the positions of its strategy); where none knows, `move_values(nodes)` runs the proof
searches `certify show --solve NODES` runs, within `nodes` nodes each, and says `unknown` when they stop.
Every value says where it comes from: `certificate`, `rules` (the game is over after the move),
`search` or `unknown`. Bad input raises CertifyError with one line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal, Protocol, runtime_checkable

from certify.errors import CertifyError
from certify.record.format import ValueWord

Source = Literal["certificate", "rules", "search", "unknown"]
SEARCH_NODES = 10_000  # per search, move_values' default: settles every first move of 4×4 k=3; a 5×5 position's moves in seconds
FLIP: dict[ValueWord | None, ValueWord | None] = {"win": "loss", "loss": "win", "draw": "draw", None: None}
WORD = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True)
class Value:
    """What is known of a position's value for the player to move, and from where."""

    value: ValueWord | None  # None: unknown
    source: Source
    plies: int | None = None  # plies to the end with best play, where the source says
    margin: int | None = None  # most-lines games: complete lines of the mover's minus the opponent's, where the source says

    def __str__(self) -> str:
        if self.value is None:
            return "unknown"
        length = "" if self.plies is None or self.value == "draw" else f" in {self.plies}"
        return f"{self.value}{length} ({self.source})"


@dataclass(frozen=True)
class ValuedMove:
    """One legal move with its value for the player making it, and where that value comes from."""

    move: str  # in the family's notation: `X4`, `4.0`
    value: ValueWord | None  # None: unknown
    source: Source
    plies: int | None  # plies to the end with best play, this move included, where the source says
    best: bool  # among the known values the best one, then the widest line margin, then the fastest win or slowest loss
    margin: int | None = None  # most-lines games: the mover's line margin at the end, where the source says

    def __str__(self) -> str:
        if self.value is None:
            return f"{self.move} unknown"
        length = "" if self.plies is None or self.value == "draw" else f" in {self.plies}"
        return f"{self.move} {self.value}{length} ({self.source})"


@runtime_checkable
class Knowledge(Protocol):
    """A certificate read as values of positions (certify.api builds one per kind of certificate)."""

    rules_sha256: str  # the rules it is about
    rules_name: str

    def value(self, game: Any, state: Any) -> Value | None:
        """The certified value for the player to move (source `certificate`), or None if unknown."""
        ...

    def strategy_move(self, game: Any, state: Any, player: int) -> Any | None:
        """The move a certified strategy of `player` plays in `state`, or None."""
        ...


class TableKnowledge:
    """A table certificate's knowledge (certify/record/positions.py): every reachable state's value
    and plies to the end, and the certified strategies' moves."""

    def __init__(self, labels: Any) -> None:  # certify.record.positions.CertifiedGame
        self.labels = labels
        self.rules_sha256: str = labels.certificate.rules_sha256
        self.rules_name: str = labels.rules.name

    def value(self, game: Any, state: Any) -> Value | None:
        try:
            label = self.labels.label(state)
        except KeyError:  # not reachable from the empty board
            return None
        return Value(label.value, "certificate", label.distance, label.margin)

    def strategy_move(self, game: Any, state: Any, player: int) -> Any | None:
        return self.labels.strategies.get(player, {}).get(state)


class StrategyKnowledge:
    """A strategy certificate's knowledge: its prover wins at every position of the strategy where
    the prover moves; where the opponent moves and every move leads into the strategy (or ends in
    the prover's win), the opponent loses.

    A no-loss proof only bounds values (a win or a draw), which the words win/draw/loss cannot say:
    it gives the strategy's moves, not values.
    """

    def __init__(self, certificate: Any, game: Any) -> None:  # certify.record.schema.StrategyCertificate
        self.rules_sha256: str = certificate.rules_sha256
        self.rules_name: str = str(certificate.rules.get("name", "?"))
        if self.rules_sha256 != game.rules.sha256():  # its moves mean nothing in another game: do not replay them
            raise CertifyError(f"the certificate is for {self.rules_name!r}, not for {game.rules.name!r} (rules differ)")
        if certificate.proof.closures:
            raise CertifyError(f"the proof closes {certificate.proof.closures:,} positions by a pairing, which this API cannot "
                               "replay as moves (`python -m checker FILE` checks it)")
        self.certificate = certificate
        self.game = game
        self.prover: int = certificate.claim.player
        self.wins = certificate.claim.result == "win"

    @cached_property
    def chosen(self) -> Callable[[Any], Any]:
        """The prover's move at a position (None where the strategy does not answer), replayed on
        first use (a large proof takes seconds, and a no-loss proof's values never need it)."""
        from certify.proving.single import strategy_lookup

        try:
            return strategy_lookup(self.certificate, self.game)
        except ValueError as err:
            raise CertifyError(str(err).splitlines()[0]) from None

    def value(self, game: Any, state: Any) -> Value | None:
        if not self.wins or game.is_terminal(state):
            return None
        if game.to_move(state) == self.prover:
            return Value("win", "certificate") if self.chosen(state) is not None else None
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child) and game.returns(child)[self.prover - 1] != 1:
                return None
            if not game.is_terminal(child) and self.chosen(child) is None:
                return None
        return Value("loss", "certificate")

    def strategy_move(self, game: Any, state: Any, player: int) -> Any | None:
        return self.chosen(state) if player == self.prover else None


class Position:
    """A position of a game of any family, as a value: `play` and `undo` give other positions.

    Made by `certify.start`, `Certified.position` and `Proof.position`. Equal positions are the same
    state of the same game, however reached.
    """

    def __init__(self, game: Any, state: Any, knowledge: Knowledge | None = None) -> None:
        """`state` of `game` (solver/games/game.py), valued by `knowledge`; CertifyError if they do not fit."""
        from solver.games.game import Game

        if not isinstance(game, Game):
            raise CertifyError(f"game {quoted(game)}: expected a game (certify.start makes a position from a game's name)")
        try:
            fits = game.key(game.parse_position(game.format_position(state))) == game.key(state)
        except (ValueError, TypeError, AttributeError, IndexError):
            fits = False
        if not fits:
            raise CertifyError(f"state {quoted(state)}: not a position of {game.rules.name}")
        if knowledge is not None and not isinstance(knowledge, Knowledge):
            raise CertifyError(f"knowledge {quoted(knowledge)}: expected what a certificate knows (certify.start reads one)")
        if knowledge is not None and knowledge.rules_sha256 != game.rules.sha256():
            raise CertifyError(f"the certificate is for {knowledge.rules_name!r}, not for {game.rules.name!r} (rules differ)")
        self._set(game, state, knowledge, ())

    def _set(self, game: Any, state: Any, knowledge: Knowledge | None, history: tuple[tuple[Any, Any], ...]) -> Position:
        self.game = game  # the family's game (solver/games/game.py)
        self.state = state  # the family's state value
        self.knowledge = knowledge
        self._history = history  # (state before, move played) for each move that reached this one
        self._values: dict[int, list[ValuedMove]] = {}
        return self

    def _after(self, state: Any, history: tuple[tuple[Any, Any], ...]) -> Position:
        """Another position of the same game and knowledge (reached by play or undo: no check needed)."""
        return object.__new__(Position)._set(self.game, state, self.knowledge, history)

    # ---- the game ---------------------------------------------------------------------------

    @property
    def rules(self) -> Any:
        """The rules of the game (its canonical form and sha256 identify it)."""
        return self.game.rules

    @property
    def text(self) -> str:
        """The position in the family's notation, as `certify show --position` takes it."""
        return self.game.format_position(self.state)

    @property
    def to_move(self) -> int:
        """The player to move, 1 or 2 (the one who would move, at the end)."""
        return self.game.to_move(self.state)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_terminal(self.state)

    @property
    def result(self) -> ValueWord | None:
        """The first player's result once the game is over ('win', 'draw', 'loss'); None before."""
        return WORD[self.game.returns(self.state)[0]] if self.is_over else None

    @property
    def legal_moves(self) -> list[str]:
        """Every legal move in the family's notation, in the game's order; empty at the end."""
        return [self.game.format_move(move) for move in self.game.legal_moves(self.state)]

    @property
    def moves_played(self) -> tuple[str, ...]:
        """The moves that reached this position from where it started."""
        return tuple(self.game.format_move(move) for _, move in self._history)

    def play(self, moves: str | Sequence[Any]) -> Position:
        """The position after `moves`: one move (`"X4"`, `"4.0"`), several (`"X4,O1"`, `["X4", "O1"]`)
        or the family's move values. CertifyError names the first move that does not parse or is illegal."""
        if isinstance(moves, str):
            tokens: Sequence[Any] = [t for t in re.split(r"[,\s]+", moves.strip()) if t]
        elif isinstance(moves, Sequence):
            tokens = moves
        else:
            raise CertifyError(f"moves {quoted(moves)}: expected a move like {self._example()}, a string of moves or a list of them")
        state, history = self.state, self._history
        for token in tokens:
            move = self._move(token)
            if move not in self.game.legal_moves(state):
                raise CertifyError(f"move {self.game.format_move(move)} is not legal in {self.game.format_position(state)}"
                                   + (" (the game is over)" if self.game.is_terminal(state) else ""))
            history += ((state, move),)
            state = self.game.apply(state, move)
        return self._after(state, history)

    def undo(self, plies: int = 1) -> Position:
        """The position `plies` moves back; CertifyError past the position it started from."""
        if type(plies) is not int or plies < 0:
            raise CertifyError(f"plies {quoted(plies)}: expected a whole number, 0 or more")
        if plies > len(self._history):
            played = len(self._history)
            raise CertifyError(f"cannot undo {plies} move{'s' * (plies != 1)}: {played or 'no'} move{'s' * (played != 1)} played")
        if plies == 0:
            return self
        state = self._history[-plies][0]
        return self._after(state, self._history[:-plies])

    def _move(self, token: Any) -> Any:
        """The family's move for `token` (its notation, or the move itself); CertifyError if neither."""
        if isinstance(token, str):
            try:
                return self.game.parse_move(token)
            except ValueError as err:
                raise CertifyError(str(err).splitlines()[0]) from None
        try:
            parsed = self.game.parse_move(self.game.format_move(token))
            if type(parsed) is type(token) and parsed == token:
                return token
        except (ValueError, TypeError, AttributeError, IndexError):
            pass
        raise CertifyError(f"move {quoted(token)}: expected a move like {self._example()}")

    def _example(self) -> str:
        return repr(self.game.format_move(self.game.legal_moves(self.game.initial())[0]))

    # ---- values -----------------------------------------------------------------------------

    @property
    def value(self) -> ValueWord | None:
        """The value for the player to move that a certificate or the rules know, else None
        (`evaluate(nodes)` searches for it)."""
        return self.evaluate(0).value

    def evaluate(self, nodes: int = SEARCH_NODES) -> Value:
        """The value for the player to move: from the certificate, the rules at the end, else by
        proof search within `nodes` nodes per search (0: no search), else unknown."""
        _require_nodes(nodes)
        return self._value_of(self.state, nodes)

    def move_values(self, nodes: int = SEARCH_NODES) -> list[ValuedMove]:
        """Every legal move with its value for the player making it, each saying where it comes from
        (a certificate, the rules, a search within `nodes` nodes per search, or unknown)."""
        _require_nodes(nodes)
        known = self._values.get(nodes)
        if known is None:
            found = []
            for move in self.game.legal_moves(self.state):
                after = self._value_of(self.game.apply(self.state, move), nodes)
                found.append(Value(FLIP[after.value], after.source, None if after.plies is None else after.plies + 1,
                                   None if after.margin is None else -after.margin))
            keys = [_goodness(value) for value in found]
            top = max((k for k in keys if k is not None), default=None)
            known = self._values[nodes] = [
                ValuedMove(self.game.format_move(move), v.value, v.source, v.plies, key is not None and key == top, v.margin)
                for move, v, key in zip(self.game.legal_moves(self.state), found, keys)
            ]
        return known

    def best_moves(self, nodes: int = SEARCH_NODES) -> list[ValuedMove]:
        """The moves of the best known value, then the widest line margin, then the fastest win or
        slowest loss (move_values)."""
        return [m for m in self.move_values(nodes) if m.best]

    def strategy_move(self, player: int | None = None) -> str | None:
        """The move a certified strategy of `player` (default: the player to move) plays here, or None."""
        chosen = self.to_move if player is None else require_player(player)
        move = None if self.knowledge is None else self.knowledge.strategy_move(self.game, self.state, chosen)
        return None if move is None else self.game.format_move(move)

    def _value_of(self, state: Any, nodes: int) -> Value:
        if self.knowledge is not None:
            known = self.knowledge.value(self.game, state)
            if known is not None:
                return known
        if self.game.is_terminal(state):
            return Value(WORD[self.game.returns(state)[self.game.to_move(state) - 1]], "rules", 0)
        if nodes:
            from certify.proving.single import settle_value

            settled = settle_value(self.game, self.game.format_position(state), nodes=nodes)
            if settled.value is not None:
                return Value(settled.value, "search")
        return Value(None, "unknown")

    # ---- equality and drawing ---------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Position) and self.rules.sha256() == other.rules.sha256()
                and self.game.key(self.state) == other.game.key(other.state))

    def __hash__(self) -> int:
        return hash((self.rules.sha256(), self.game.key(self.state)))

    def __str__(self) -> str:
        from certify.render.position import position_text

        return position_text(self.game, self.state)

    def __repr__(self) -> str:
        played = self.moves_played
        shown = " ".join(played) if len(played) <= 6 else f"{len(played)} moves, … {' '.join(played[-3:])}"
        where = f"after {shown}" if played else "start" if self.state == self.game.initial() else self.text
        if self.is_over:
            now = {"win": "player 1 won", "loss": "player 2 won", "draw": "drawn"}[self.result or "draw"]
        else:
            now = f"player {self.to_move} to move" + ("" if self.value is None else f", a certified {self.value}")
        return f"<Position {self.rules.name} {where}: {now}>"

    def _repr_svg_(self) -> str:
        """The board, with the values of moves known without a new search (a certificate, the rules,
        or move_values already asked of this position)."""
        from certify.render.position import position_svg

        searched = max(self._values, default=0)
        return position_svg(self.game, self.state, self._values.get(searched) or self.move_values(0))


def _goodness(move: Value) -> tuple[int, int, int] | None:
    """How good a move of this value for its mover is: the value, then the line margin, then a fast
    win or a slow loss (certify/record/positions.py orders a table's moves alike)."""
    if move.value is None:
        return None
    signed = {"win": 1, "draw": 0, "loss": -1}[move.value]
    return (signed, move.margin or 0, 0 if move.plies is None or signed == 0 else -signed * move.plies)


def _require_nodes(nodes: object) -> None:
    if type(nodes) is not int or nodes < 0:
        raise CertifyError(f"nodes {quoted(nodes)}: expected a whole number of nodes, 0 (no search) or more")


def require_player(player: object) -> int:
    """`player` if it is 1 or 2; else CertifyError."""
    if type(player) is not int or player not in (1, 2):
        raise CertifyError(f"player {quoted(player)}: must be 1 or 2")
    return player


def quoted(value: object) -> str:
    """A value as an error message quotes it: its repr, on one line, cut at 40 characters."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 40 else text[:39] + "…"
