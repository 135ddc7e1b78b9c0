"""Policies from a command-line spec: a built-in name, `module:function`, or a JSON move table.

Loading `module:function` imports that module, which runs its code: only name code you trust.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from certify.files import FileProblem, read_json
from certify.policy import Policy
from certify.policy import PolicySpecError
from certify.players.registry import builtin_policy
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules

__all__ = ["PolicySpecError", "load_policy", "table_policy"]


def load_policy(spec: str, rules: Rules) -> Policy:
    """The policy `spec` names for `rules`; raises PolicySpecError with one line.

    `spec` is a JSON file (`.json`) mapping state codes to moves, `module:function` or
    `path/to/file.py:function` naming a policy function, or a built-in name.
    """
    if spec.endswith(".json"):
        return table_policy(read_table(Path(spec), rules))
    if ":" in spec:
        return imported_policy(spec)
    if Path(spec).is_dir():
        raise PolicyFileError(f"{spec}: is a directory, not a policy table")
    return builtin_policy(spec, rules)


def imported_policy(spec: str) -> Policy:
    """The callable `function` of `module:function` (a dotted module or a .py file)."""
    module_name, _, attribute = spec.rpartition(":")
    if not module_name or not attribute:
        raise PolicySpecError(f"policy '{spec}': expected module:function")
    module = _import(module_name)
    function = getattr(module, attribute, None)
    if function is None:
        raise PolicySpecError(f"policy '{spec}': module '{module_name}' has no attribute '{attribute}'")
    if not callable(function):
        raise PolicySpecError(f"policy '{spec}': '{attribute}' is not callable")
    return function


def _import(name: str) -> ModuleType:
    try:
        if name.endswith(".py"):
            location = importlib.util.spec_from_file_location(Path(name).stem, name)
            if location is None or location.loader is None or not Path(name).is_file():
                raise PolicySpecError(f"policy module '{name}': no such file")
            module = importlib.util.module_from_spec(location)
            location.loader.exec_module(module)
            return module
        return importlib.import_module(name)
    except PolicySpecError:
        raise
    except Exception as err:  # the module's own code failed: name it and the error, in one line
        raise PolicySpecError(f"policy module '{name}' cannot be imported: {type(err).__name__}: {err}") from None


class PolicyFileError(PolicySpecError, FileProblem):
    """A policy table file that cannot be used; the message names the file, as every file problem does."""


def read_table(path: Path, rules: Rules) -> dict[int, tuple[Move, ...]]:
    """A move table `{"code": [[cell, mark], ...], ...}` from `path`, its shape checked."""
    try:
        data = read_json(path, "policy table")
    except FileProblem as err:
        raise PolicyFileError(str(err)) from None
    if not isinstance(data, dict):
        raise PolicyFileError(f"{path}: not a policy table: it must be an object {{code: [[cell, mark], ...]}}")
    table = {}
    for key, moves in data.items():
        if not key.isdigit() or int(key) >= 3**rules.cells:
            raise PolicyFileError(f"{path}: not a policy table: key '{key[:40]}' is not a state code of {rules.name} (0..{3**rules.cells - 1:,})")
        if not isinstance(moves, list) or not all(_is_move(m, rules) for m in moves):
            raise PolicyFileError(
                f"{path}: state {key}: expected a list of [cell, mark] pairs with cell 0..{rules.cells - 1} and mark 1 or 2"
            )
        table[int(key)] = tuple(Move(cell, mark) for cell, mark in moves)
    return table


def _is_move(item: object, rules: Rules) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 2
        and all(type(x) is int for x in item)
        and 0 <= item[0] < rules.cells
        and item[1] in (1, 2)
    )


def table_policy(table: dict[int, tuple[Move, ...]]) -> Policy:
    """The policy that plays the moves `table` lists for each state; a missing state is an error."""

    def policy(game: Game, code: int) -> tuple[Move, ...]:
        if code not in table:
            raise LookupError(f"the table has no entry for state {code}")
        return table[code]

    return policy
