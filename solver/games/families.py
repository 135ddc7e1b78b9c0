"""The registry of game families: a GAME string from the command line → a game (solver/games/game.py).

Every command takes GAME the same way. A family registers a prefix (`uttt`) or is the positional
default (a built-in name, `mnk:R,C,K[,wild][,misere]`, or a .json/.toml spec file).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from solver.games.game import Game
from solver.games.positional.rules import RulesError, resolve

# name → "module:function" taking the GAME text; imported only when asked for
FAMILIES: dict[str, str] = {"uttt": "solver.games.uttt.engine:from_text"}
VARIANTS: dict[str, tuple[str, ...]] = {"uttt": ("uttt:open",)}  # a family's other GAME strings (`certify games` lists them)


def resolve_game(text: str) -> Game[Any, Any]:
    """The game named by `text`; raises RulesError with one line if it names none."""
    family = text.split(":", 1)[0]
    target = FAMILIES.get(family)
    if target is None:
        from solver.games.positional.engine import Game as PositionalGame

        return PositionalGame(resolve(text))
    module, function = target.split(":")
    factory: Callable[[str], Game[Any, Any]] = getattr(import_module(module), function)
    return factory(text)



def game_from_rules(raw: dict[str, Any]) -> Game[Any, Any]:
    """The game a certificate's rules object states; raises RulesError if no family states it so."""
    family = raw.get("family", "positional")
    if family in FAMILIES:
        name = raw.get("name")  # a family's variants are named by their GAME string (uttt:open)
        game = resolve_game(name if type(name) is str and name.split(":", 1)[0] == family else family)
        if game.rules.canonical() != raw:
            raise RulesError(f"rules of family {ascii(family)[:40]} that this certify does not implement")
        return game
    from solver.games.positional.engine import Game as PositionalGame
    from solver.games.positional.rules import Rules

    fields = {key: value for key, value in raw.items() if key != "family"}
    try:
        return PositionalGame(Rules.from_fields(fields))
    except RulesError as err:
        raise RulesError(f"rules: {err}") from None
