"""Declarative rules of the positional-game family: board, lines, mark rule and goal.

A `Rules` value is the whole statement of a game. Everything else (engine, solver,
certificate, checker) is derived from it. Cells are numbered 0..R*C-1 row-major.
Marks: 1 = X, 2 = O, 0 = empty. Player 1 moves first.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any, Literal, get_args


MarkRule = Literal["own", "either", "x-only"]
Goal = Literal["first-line-wins", "first-line-loses", "most-lines"]
MARK_RULES: tuple[str, ...] = get_args(MarkRule)
GOALS: tuple[str, ...] = get_args(Goal)

MAX_CELLS = 64  # boards of up to 64 cells in any shape: two 64-bit bitboards in the compiled search
TABLE_MAX_CELLS = 16  # 3**16 state codes: the exhaustive table solver's limit (4x4)
X, O = 1, 2


class RulesError(ValueError):
    """A rules spec that cannot describe a game; the message is one line for the user."""


@dataclass(frozen=True)
class Rules:
    """One positional game: an R×C board of at most 64 cells, its winning lines, who may place which mark, the goal.

    The lines are any sets of cells: a 3-D game (qubic) is laid out on a flat board and stated by its lines.

    Constructing one validates it (RulesError, one line) and puts the lines in canonical form: each
    line's cells ascending, the lines sorted — a line is a set, and one game has one form.
    """

    name: str
    rows: int
    cols: int
    lines: tuple[tuple[int, ...], ...]
    marks: MarkRule
    goal: Goal

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RulesError("name: must be a string")
        for field in ("rows", "cols"):
            if type(getattr(self, field)) is not int:
                raise RulesError(f"{field}: must be an integer")
        require_board(self.rows, self.cols)
        if self.marks not in MARK_RULES:
            raise RulesError(f"marks: {ascii(self.marks)[:40]} is not one of {', '.join(MARK_RULES)}")
        if self.goal not in GOALS:
            raise RulesError(f"goal: {ascii(self.goal)[:40]} is not one of {', '.join(GOALS)}")
        if not isinstance(self.lines, (list, tuple)) or not all(
            isinstance(line, (list, tuple)) and all(type(c) is int for c in line) for line in self.lines
        ):
            raise RulesError("lines: must be a list of lists of cell numbers")
        object.__setattr__(self, "lines", tuple(sorted(tuple(sorted(line)) for line in self.lines)))
        if not self.lines:
            raise RulesError("the line list is empty")
        for line in self.lines:
            if not line:
                raise RulesError("a line has no cells")
            bad = [c for c in line if not 0 <= c < self.cells]
            if bad:
                raise RulesError(f"line {list(line)} has cell {bad[0]} outside 0..{self.cells - 1}")
            if len(set(line)) != len(line):
                raise RulesError(f"line {list(line)} repeats a cell")
        if len(set(self.lines)) != len(self.lines):
            raise RulesError("the line list repeats a line (as a set of cells)")
        if self.goal == "most-lines" and self.marks != "own":
            raise RulesError("goal most-lines needs marks 'own' (a line must belong to a player)")

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Rules:
        """Rules from exactly their fields (a certificate's rules without `family`); raises RulesError."""
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(set(fields) - set(names))
        if unknown:
            raise RulesError(f"unknown field {ascii(unknown[0])[:40]} (fields: {', '.join(names)})")
        missing = [name for name in names if name not in fields]
        if missing:
            raise RulesError(f"missing field '{missing[0]}'")
        return cls(**fields)

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols

    def marks_for(self, player: int) -> tuple[int, ...]:
        """The marks `player` (1 or 2) may place."""
        if self.marks == "either":
            return (X, O)
        if self.marks == "x-only":
            return (X,)
        return (X,) if player == 1 else (O,)

    def describe(self) -> str:
        """The game in words: board, number and length of lines, marks, goal."""
        lengths = sorted({len(line) for line in self.lines})
        length = "-".join(str(n) for n in (lengths[0], lengths[-1])) if len(lengths) > 1 else str(lengths[0])
        marks = {"own": "X then O", "either": "either mark each turn", "x-only": "both place X"}[self.marks]
        goal = {"first-line-wins": "first line wins", "first-line-loses": "first line loses",
                "most-lines": "most lines at full board wins"}[self.goal]
        return f"{self.rows}x{self.cols} board, {len(self.lines)} lines of {length}, {marks}, {goal}"

    def canonical(self) -> dict:
        """The rules as a plain JSON-ready dict: the form embedded in certificates."""
        return {
            "family": "positional",
            "name": self.name,
            "rows": self.rows,
            "cols": self.cols,
            "lines": [list(line) for line in self.lines],
            "marks": self.marks,
            "goal": self.goal,
        }

    def sha256(self) -> str:
        """Hex sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) without the name.

        The name is a label anyone can set; the hash is the game.
        """
        unnamed = {key: value for key, value in self.canonical().items() if key != "name"}
        return hashlib.sha256(canonical_json(unnamed).encode()).hexdigest()


def require_board(rows: int, cols: int) -> None:
    """Raise RulesError unless an R×C board has 1 to MAX_CELLS cells."""
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise RulesError(f"board {rows}x{cols} has {max(rows, 0) * max(cols, 0)} cells; a board has 1 to {MAX_CELLS} "
                         f"cells (any shape: 8x8, 4x16, 1x64)")


def require_table_size(rules: Rules) -> None:
    """Raise RulesError unless the exhaustive table solver can take this board."""
    if rules.cells > TABLE_MAX_CELLS:
        raise RulesError(
            f"{rules.name}: {rules.rows}x{rules.cols} has {rules.cells} cells; the table solver handles at most "
            f"{TABLE_MAX_CELLS} (4x4) — use `certify prove` for larger boards"
        )


def canonical_json(obj: object) -> str:
    """JSON with sorted keys and no whitespace: the form that is hashed."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def k_in_a_row(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every horizontal, vertical and diagonal run of k cells on an R×C board."""
    if not 1 <= k <= max(rows, cols):
        raise RulesError(f"K={k} does not fit a {rows}x{cols} board")
    runs = []
    for r, c in product(range(rows), range(cols)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
            if 0 <= end_r < rows and 0 <= end_c < cols:
                runs.append(tuple((r + dr * i) * cols + (c + dc * i) for i in range(k)))
    if k == 1:  # a single cell is one run, not four
        runs = sorted(set(runs))
    if not runs:
        raise RulesError(f"K={k} gives no line on a {rows}x{cols} board")
    return tuple(sorted(runs))


def make_rules(
    name: str,
    rows: int,
    cols: int,
    marks: str,
    goal: str,
    k: int | None = None,
    lines: list[list[int]] | None = None,
) -> Rules:
    """Rules from their parts; lines come from K unless given explicitly. Raises RulesError."""
    require_board(rows, cols)
    if k is not None and lines is not None:
        raise RulesError("a spec gives k or lines, not both (docs/rules.md)")
    if lines is None:
        if k is None:
            raise RulesError("a spec needs either k or lines")
        line_tuples = k_in_a_row(rows, cols, k)
    else:
        line_tuples = tuple(tuple(line) for line in lines)
    return Rules(name=name, rows=rows, cols=cols, lines=line_tuples, marks=marks, goal=goal)  # type: ignore[arg-type]


BUILTIN_DESCRIPTIONS: dict[str, str] = {
    "tictactoe": "3x3, X then O, three in a row wins",
    "w3t": "Wild tic-tac-toe: 3x3, each turn place X or O, completing any line wins",
    "misere": "3x3, X then O, completing a line loses",
    "notakto": "one 3x3 board, both place X, completing a line loses",
    "cumulative": "3x3, X then O, play to a full board, more complete lines wins",
    "qubic": "4x4x4 cube, X then O, four in a row wins (76 lines; layers side by side on a 4x16 board)",
}

_BUILTIN_PARTS = {
    "tictactoe": ("own", "first-line-wins"),
    "w3t": ("either", "first-line-wins"),
    "misere": ("own", "first-line-loses"),
    "notakto": ("x-only", "first-line-loses"),
    "cumulative": ("own", "most-lines"),
    "qubic": ("own", "first-line-wins"),
}


def builtin(name: str) -> Rules:
    """One of the named 3×3 games of claims.md, or qubic."""
    if name == "qubic":
        return make_rules(name, 4, 16, "own", "first-line-wins", lines=cube_lines(4))
    marks, goal = _BUILTIN_PARTS[name]
    return make_rules(name, 3, 3, marks, goal, k=3)


def cube_lines(side: int) -> list[list[int]]:
    """Every line of `side` cells across a side×side×side cube (orthogonal, face and space diagonals),
    the cube laid out as its layers side by side: cell (layer z, row r, column c) is r·side² + z·side + c,
    so row r of the flat board is row r of every layer, left to right. ((side+2)³ − side³)/2 lines.
    """
    span = range(side)
    found = set()
    for step in product((-1, 0, 1), repeat=3):
        if step == (0, 0, 0):
            continue
        for start in product(span, repeat=3):
            points = [tuple(start[a] + step[a] * i for a in range(3)) for i in range(side)]
            if all(0 <= v < side for point in points for v in point):
                found.add(frozenset(r * side * side + z * side + c for z, r, c in points))
    return sorted(sorted(line) for line in found)


def parse_mnk(text: str) -> Rules:
    """`mnk:R,C,K[,wild][,misere]` → rules; raises RulesError."""
    parts = [p.strip() for p in text.removeprefix("mnk:").split(",")]
    if len(parts) < 3:
        raise RulesError(f"'{text}': expected mnk:R,C,K[,wild][,misere]")
    try:
        rows, cols, k = (int(p) for p in parts[:3])
    except ValueError:
        raise RulesError(f"'{text}': R, C and K must be integers") from None
    flags = parts[3:]
    unknown = [f for f in flags if f not in ("wild", "misere")]
    if unknown:
        raise RulesError(f"'{text}': unknown option '{unknown[0]}' (use wild, misere)")
    marks = "either" if "wild" in flags else "own"
    goal = "first-line-loses" if "misere" in flags else "first-line-wins"
    try:
        return make_rules(text, rows, cols, marks, goal, k=k)
    except RulesError as err:  # named by the game, as a spec file's problem is named by the file
        raise RulesError(f"{text}: {err}") from None


def load_spec_file(path: Path) -> Rules:
    """Rules from a JSON or TOML spec file; raises RulesError naming the file."""
    if path.is_dir():
        raise RulesError(f"{path}: is a directory, not a spec file")
    if path.suffix not in (".json", ".toml"):
        raise RulesError(f"{path}: a spec file must end in .json or .toml (docs/rules.md)")
    if not path.exists():
        raise RulesError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise RulesError(f"{path}: not UTF-8 text (bad byte at offset {err.start})") from None
    except OSError as err:
        raise RulesError(f"{path}: cannot read: {err.strerror}") from None
    if not text.strip():
        raise RulesError(f"{path}: is empty")
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise RulesError(f"{path}: not valid {path.suffix.lstrip('.').upper()}: {err}") from None
    if not isinstance(data, dict):
        raise RulesError(f"{path}: not a game spec: it must be a table/object")
    allowed = {"name", "rows", "cols", "k", "lines", "marks", "goal"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise RulesError(f"{path}: not a game spec: unknown field '{extra[0]}' (allowed: {', '.join(sorted(allowed))})")
    for field in ("rows", "cols", "marks", "goal"):
        if field not in data:
            raise RulesError(f"{path}: not a game spec: missing field '{field}'")
    for field in ("rows", "cols", "k"):
        if field in data and (type(data[field]) is not int):
            raise RulesError(f"{path}: field '{field}' must be an integer")
    lines = data.get("lines")
    if lines is not None and not (
        isinstance(lines, list)
        and all(isinstance(line, list) and all(type(c) is int for c in line) for line in lines)
    ):
        raise RulesError(f"{path}: field 'lines' must be a list of lists of cell numbers")
    try:
        return make_rules(
            str(data.get("name", path.stem)),
            data["rows"],
            data["cols"],
            data["marks"],
            data["goal"],
            k=data.get("k"),
            lines=lines,
        )
    except RulesError as err:
        raise RulesError(f"{path}: {err}") from None


def resolve(game: str) -> Rules:
    """A built-in name, an `mnk:` string, or a path to a JSON/TOML spec → rules."""
    if game in _BUILTIN_PARTS:
        return builtin(game)
    if game.startswith("mnk:"):
        return parse_mnk(game)
    path = Path(game)
    if path.suffix in (".json", ".toml") or path.exists():
        return load_spec_file(path)
    names = ", ".join(_BUILTIN_PARTS)
    folded = {re.sub(r"[\W_]+", "", name.lower()): name for name in _BUILTIN_PARTS}
    close = folded.get(re.sub(r"[\W_]+", "", game.lower())) or next(iter(difflib.get_close_matches(game, _BUILTIN_PARTS, n=1)), None)
    hint = f"; did you mean '{close}'?" if close else ""
    raise RulesError(f"unknown game '{game}'{hint} (built-ins: {names}; or mnk:R,C,K[,wild][,misere]; or a .json/.toml spec)")


Permutation = tuple[int, ...]


def board_symmetries(rules: Rules) -> list[Permutation]:
    """Cell permutations of the board's geometric symmetries that map the line set onto itself.

    A permutation `p` sends the mark on cell `i` to cell `p[i]`; the identity is included.
    """
    rows, cols = rules.rows, rules.cols

    def cell(r: int, c: int) -> int:
        return r * cols + c

    candidates = [
        lambda r, c: (r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
    if rows == cols:
        candidates += [
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    lines = {frozenset(line) for line in rules.lines}
    perms = []
    for transform in candidates:
        perm = tuple(cell(*transform(r, c)) for r in range(rows) for c in range(cols))
        if {frozenset(perm[i] for i in line) for line in lines} == lines:
            perms.append(perm)
    return sorted(set(perms))
