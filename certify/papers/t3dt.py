"""T3DT (Paul 2020, seed 002): the decision-tree tic-tac-toe bot of sections 4.1-4.5, as a policy.

The bot is reproduced from the text as written, not repaired: its decision tree for the first
moves (section 4.2 when it moves first, 4.4 when it moves second), then section 4.5 (win, else
block, else any empty square). Wherever the text leaves a choice open ("any corner", "randomly"),
the bot may play every move the text allows. Where the text can be read two ways, `READINGS`
holds one policy per reading; docs/t3dt.md lists every ambiguity and the reading chosen.

The tree depends on the order of the moves (which O came first), not only on the board. The
exact bot is `t3dt_choices(history)`; the state-based policy plays, in a state, every move the
bot may play after some move order that reaches that state with the bot following its tree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from certify.policy import Policy, PolicySpecError
from certify.policy.audit import audit_policy
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import Solution, solve
from solver.games.positional.rules import Rules, builtin

CENTRE = 4
CORNERS = frozenset({0, 2, 6, 8})
EDGES = frozenset({1, 3, 5, 7})
History = tuple[int, ...]
"""Cells in the order they were played, X first (X on even plies, O on odd ones)."""

RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}


@dataclass(frozen=True)
class Reading:
    """One reading of the places where the text names a kind of square but not the square.

    `fork_corners_only`: section 4.2 moves the bot to "a corner ... such that it creates an empty
    V-shaped fork" (4.2.1a), "the required corner" (4.2.3a) and "forming an empty V-shaped fork"
    (4.2.3b). Read strictly, only corners that make a fork qualify; read loosely, the fork is the
    motivation and any free corner qualifies.
    """

    name: str
    fork_corners_only: bool


READINGS: dict[str, Reading] = {
    "t3dt": Reading("t3dt", fork_corners_only=True),
    "t3dt-alt": Reading("t3dt-alt", fork_corners_only=False),
}
STRICT = READINGS["t3dt"]


# ---- board geometry --------------------------------------------------------------------------

TICTACTOE = builtin("tictactoe")
LINES: tuple[tuple[int, ...], ...] = TICTACTOE.lines


def kind(cell: int) -> str:
    """`corner`, `edge` or `centre`."""
    return "centre" if cell == CENTRE else "corner" if cell in CORNERS else "edge"


def distance(a: int, b: int) -> int:
    """Manhattan distance between two cells of the 3×3 board."""
    return abs(a // 3 - b // 3) + abs(a % 3 - b % 3)


def corners_next_to(edge: int) -> frozenset[int]:
    """The two corners that share a side with `edge`."""
    return frozenset(c for c in CORNERS if distance(c, edge) == 1)


def opposite(cell: int) -> int:
    """The cell mirrored through the centre."""
    return 8 - cell


def board_of(history: History) -> tuple[int, ...]:
    """The marks after `history` (1 = X, 2 = O, 0 = empty)."""
    board = [0] * 9
    for ply, cell in enumerate(history):
        board[cell] = 1 + ply % 2
    return tuple(board)


def empty_cells(board: tuple[int, ...]) -> frozenset[int]:
    """The empty squares."""
    return frozenset(c for c in range(9) if board[c] == 0)


def completing(board: tuple[int, ...], mark: int) -> frozenset[int]:
    """Empty cells that would complete a line of `mark` (a line with two `mark` and one empty)."""
    cells = set()
    for line in LINES:
        marks = [board[c] for c in line]
        if marks.count(mark) == 2 and marks.count(0) == 1:
            cells.add(line[marks.index(0)])
    return frozenset(cells)


def makes_fork(board: tuple[int, ...], cell: int, mark: int) -> bool:
    """Whether `mark` on `cell` leaves two different squares that would each complete a line."""
    after = board[:cell] + (mark,) + board[cell + 1 :]
    return len(completing(after, mark)) >= 2


def free_corners(board: tuple[int, ...]) -> frozenset[int]:
    """The empty corners."""
    return CORNERS & empty_cells(board)


def nearest_corners(board: tuple[int, ...], targets: Sequence[int]) -> frozenset[int]:
    """The free corners with the least total distance to `targets` (every one if tied)."""
    corners = free_corners(board)
    if not corners:
        return frozenset()
    best = min(sum(distance(c, t) for t in targets) for c in corners)
    return frozenset(c for c in corners if sum(distance(c, t) for t in targets) == best)


# ---- the decision tree -----------------------------------------------------------------------


def t3dt_choices(history: History, reading: Reading = STRICT) -> frozenset[int]:
    """Every cell T3DT may play after `history`, the bot being the side to move.

    Priority (4.1 step 5, 4.3 step 4, 4.5): complete a line; else block the opponent's line;
    else the decision tree's move while the tree applies; else any empty square (4.5).
    """
    board = board_of(history)
    bot = 1 + len(history) % 2
    wins = completing(board, bot)
    if wins:
        return wins
    blocks = completing(board, 3 - bot)
    if blocks:
        return blocks
    tree = _tree_as_first(history, board, reading) if bot == 1 else _tree_as_second(history, board)
    return (tree & empty_cells(board)) or empty_cells(board)


def _fork_corners(board: tuple[int, ...], reading: Reading) -> frozenset[int]:
    """Corners for "a corner such that it creates an empty V-shaped fork", in `reading`."""
    corners = free_corners(board)
    if not reading.fork_corners_only:
        return corners
    return frozenset(c for c in corners if makes_fork(board, c, 1))


def _tree_as_first(history: History, board: tuple[int, ...], reading: Reading) -> frozenset[int]:
    """Section 4.2: the bot's first three moves as X; empty once the tree says nothing."""
    if len(history) == 0:  # 4.1 step 1: a corner, an edge or the centre, at random
        return frozenset(range(9))
    if len(history) == 2:
        return _second_move_as_first(history[0], history[1], board)
    if len(history) == 4 and history[2] in _second_move_as_first(history[0], history[1], board_of(history[:2])):
        return _third_move_as_first(history, board, reading)
    return frozenset()


def _second_move_as_first(x1: int, o1: int, board: tuple[int, ...]) -> frozenset[int]:
    """Sections 4.2.1-4.2.3: X's second move after its first move `x1` and O's reply `o1`."""
    match kind(x1), kind(o1):
        case "corner", "edge":  # 4.2.1a
            return frozenset({CENTRE})
        case "corner", "corner":  # 4.2.1b: "any of the remaining free corners"
            return free_corners(board)
        case "corner", "centre":  # 4.2.1c
            return frozenset({opposite(x1)})
        case "edge", "corner":  # 4.2.2a
            return frozenset({CENTRE})
        case "edge", "edge" if o1 != opposite(x1):  # 4.2.2b-i: the corner next to both
            return corners_next_to(x1) & corners_next_to(o1)
        case "edge", "edge":  # 4.2.2b-ii: "any of the corners adjacent to X1"
            return corners_next_to(x1)
        case "edge", "centre":  # 4.2.2c: "the corner adjacent to its first move" (either one)
            return corners_next_to(x1)
        case "centre", "edge":  # 4.2.3a: "any of the four corners randomly"
            return CORNERS
        case "centre", "corner":  # 4.2.3b
            return frozenset({opposite(o1)})
    raise AssertionError(f"no branch for {x1}, {o1}")


def _third_move_as_first(history: History, board: tuple[int, ...], reading: Reading) -> frozenset[int]:
    """Sections 4.2.1-4.2.3: X's third move when it neither wins nor has to block."""
    x1, o1, _, o2 = history
    match kind(x1), kind(o1):
        case "corner", "edge":  # 4.2.1a: a corner that creates an empty V-shaped fork
            return _fork_corners(board, reading)
        case "corner", "corner":  # 4.2.1b: "the last free corner"
            return free_corners(board)
        case "edge", "corner":  # 4.2.2a: "any of the remaining empty edges"
            return EDGES & empty_cells(board)
        case "edge", "edge" if o1 != opposite(x1):  # 4.2.2b-i: the centre
            return frozenset({CENTRE})
        case "edge", "edge":  # 4.2.2b-ii: the corner closest to O1 and O2
            return nearest_corners(board, (o1, o2))
        case "centre", "edge":  # 4.2.3a: "the required corner" for the V-shaped fork
            return _fork_corners(board, reading)
        case "centre", "corner" if kind(o2) != "corner":  # 4.2.3b: the V-shaped fork
            return _fork_corners(board, reading)
    return frozenset()  # corner-centre, edge-centre, centre-corner-corner: the text is silent


def _tree_as_second(history: History, board: tuple[int, ...]) -> frozenset[int]:
    """Section 4.4: the bot's first two moves as O; empty once the tree says nothing."""
    if len(history) == 1:
        return _first_move_as_second(history[0])
    if len(history) == 3 and history[1] in _first_move_as_second(history[0]):
        x1, _, x2 = history
        match kind(x1), kind(x2):
            case "corner", "corner":  # 4.4.1a: "any of the four empty edges"
                return EDGES & empty_cells(board)
            case "corner", "edge":  # 4.4.1b: the corner at minimum distance from both
                return nearest_corners(board, (x1, x2))
            case "edge", _:  # 4.4.2: the centre
                return frozenset({CENTRE})
            case "centre", _:  # 4.4.3: "any of the two remaining corners"
                return free_corners(board)
    return frozenset()


def _first_move_as_second(x1: int) -> frozenset[int]:
    """Section 4.4: the bot's reply to the opponent's first move `x1`."""
    match kind(x1):
        case "corner":  # 4.4.1: the centre
            return frozenset({CENTRE})
        case "edge":  # 4.4.2: "any of the two corners next to the opponent's first move"
            return corners_next_to(x1)
        case _:  # 4.4.3: a corner
            return CORNERS


# ---- plays, the state policy and the case results ---------------------------------------------


def winner(board: tuple[int, ...]) -> int:
    """The mark with a complete line, or 0."""
    for line in LINES:
        a, b, c = (board[i] for i in line)
        if a and a == b == c:
            return a
    return 0


def plays(
    bot: int,
    reading: Reading = STRICT,
    opponent: Callable[[History], frozenset[int]] | None = None,
    start: History = (),
) -> Iterator[History]:
    """Every complete game from `start` with the bot (mark `bot`) following T3DT.

    The opponent plays every empty square, or the cells `opponent(history)` allows.
    """
    board = board_of(start)
    if winner(board) or not empty_cells(board):
        yield start
        return
    to_move = 1 + len(start) % 2
    if to_move == bot:
        moves = t3dt_choices(start, reading)
    else:
        moves = opponent(start) if opponent else empty_cells(board)
    for cell in sorted(moves):
        yield from plays(bot, reading, opponent, start + (cell,))


def result_for(history: History, mark: int) -> int:
    """Final result for the player with `mark`: 1 win, 0 draw, -1 loss."""
    won = winner(board_of(history))
    return 0 if won == 0 else (1 if won == mark else -1)


def outcome_counts(bot: int, reading: Reading = STRICT) -> dict[str, int]:
    """Number of complete games per result for the bot (win/draw/loss), the opponent playing
    every move."""
    counts = Counter(RESULT_WORDS[result_for(h, bot)] for h in plays(bot, reading))
    return {word: counts.get(word, 0) for word in ("win", "draw", "loss")}


def code_of(board: tuple[int, ...]) -> int:
    """The state code of a board."""
    return sum(mark * 3**cell for cell, mark in enumerate(board))


@cache
def state_choices(bot: int, reading: Reading = STRICT) -> dict[int, frozenset[int]]:
    """For every state the bot can face while following T3DT: the cells it may play there,
    over every move order reaching that state."""
    table: dict[int, set[int]] = {}
    for history in plays(bot, reading):
        for ply in range(len(history)):
            if 1 + ply % 2 == bot:
                prefix = history[:ply]
                table.setdefault(code_of(board_of(prefix)), set()).update(t3dt_choices(prefix, reading))
    return {code: frozenset(cells) for code, cells in table.items()}


def is_tictactoe(rules: Rules) -> bool:
    """Whether `rules` are 3×3 tic-tac-toe (the only game T3DT plays)."""
    return (rules.rows, rules.cols, set(rules.lines), rules.marks, rules.goal) == (
        3,
        3,
        set(TICTACTOE.lines),
        TICTACTOE.marks,
        TICTACTOE.goal,
    )


def t3dt_policy(reading: Reading = STRICT) -> Policy:
    """T3DT in `reading` as a state policy for either role.

    In a state the bot could not face while following its tree (its own earlier moves are not
    the tree's), the tree no longer applies and the bot plays by section 4.5.
    """

    def policy(game: Game, code: int) -> Sequence[Move]:
        if not is_tictactoe(game.rules):
            raise ValueError(f"T3DT plays tic-tac-toe only, not '{game.rules.name}'")
        bot = game.to_move(code)
        board = game.board(code)
        cells = state_choices(bot, reading).get(code)
        if cells is None:
            cells = completing(board, bot) or completing(board, 3 - bot) or empty_cells(board)
        return [Move(cell, bot) for cell in sorted(cells)]

    policy.__name__ = reading.name.replace("-", "_")
    policy.__doc__ = f"T3DT (seed 002, sections 4.1-4.5), reading '{reading.name}'."
    return policy


@dataclass(frozen=True)
class CaseClaim:
    """One case of section 4.2: the bot (X) opens on `bot_first`, O replies on `opponent_first`
    (and, when given, O's second move is on a `opponent_second` square)."""

    bot_first: str
    opponent_first: str
    opponent_second: str | None
    claim: str  # the paper's words for this case (claims.md 002 item 4): an input, not a result

    def matches(self, history: History) -> bool:
        """Whether a game played by T3DT as X falls in this case."""
        x1, o1 = history[0], history[1]
        if kind(x1) != self.bot_first or _reply_kind(x1, o1) != self.opponent_first:
            return False
        return self.opponent_second is None or (len(history) > 3 and kind(history[3]) == self.opponent_second)

    @property
    def prefix_length(self) -> int:
        """Plies fixed by the case (after which O's play is free)."""
        return 2 if self.opponent_second is None else 4

    @property
    def label(self) -> str:
        """`corner / edge`, `corner / centre / corner`, ..."""
        parts = [self.bot_first, self.opponent_first] + ([self.opponent_second] if self.opponent_second else [])
        return " / ".join(parts)


def _reply_kind(x1: int, o1: int) -> str:
    """O's first move as section 4.2 classifies it (an edge is neighbouring or opposite to an
    edge opening)."""
    if kind(x1) == "edge" and kind(o1) == "edge":
        return "opposite edge" if o1 == opposite(x1) else "neighbouring edge"
    return kind(o1)


CASES: tuple[CaseClaim, ...] = (
    CaseClaim("corner", "edge", None, "the bot always wins"),
    CaseClaim("corner", "corner", None, "the bot wins"),
    CaseClaim("corner", "centre", "corner", "win (O's second move is a corner)"),
    CaseClaim("corner", "centre", "edge", "draw for further optimal play (O's second move is not a corner)"),
    CaseClaim("edge", "corner", None, "almost always a draw"),
    CaseClaim("edge", "neighbouring edge", None, "a guaranteed win"),
    CaseClaim("edge", "opposite edge", None, "a draw"),
    CaseClaim("edge", "centre", None, "a draw (for optimal play)"),
    CaseClaim("centre", "edge", None, "a guaranteed win"),
    CaseClaim("centre", "corner", "edge", "the bot wins (O does not play a corner next)"),
    CaseClaim("centre", "corner", "corner", "no win claimed (O plays a corner next)"),
)


@dataclass(frozen=True)
class CaseResult:
    """What T3DT as X actually gets in one case of section 4.2, over every O continuation.

    `games` counts complete games per result for the bot when O plays every move after the
    case's moves. `optimal_games` splits the case's openings by their solver value for X and
    counts, for each, the games per result when O plays only solver-optimal moves afterwards.
    """

    case: CaseClaim
    reading: str
    games: dict[str, int]
    optimal_games: dict[str, dict[str, int]]

    @property
    def outcomes(self) -> frozenset[str]:
        """Every result that some O continuation reaches."""
        return _nonzero(self.games)

    @property
    def position_values(self) -> frozenset[str]:
        """Solver values for X of the positions that open the case."""
        return frozenset(self.optimal_games)

    @property
    def optimal_outcomes(self) -> frozenset[str]:
        """Every result reached when O plays optimally after the case's moves."""
        return frozenset().union(*(_nonzero(games) for games in self.optimal_games.values()))


def _nonzero(games: dict[str, int]) -> frozenset[str]:
    """The results with at least one game."""
    return frozenset(word for word, n in games.items() if n)


@cache
def tictactoe_solution() -> Solution:
    """The solved game of tic-tac-toe."""
    return solve(TICTACTOE)


def value_for_mover(history: History) -> int:
    """Solver value of the position after `history` for the side to move."""
    return tictactoe_solution().value(code_of(board_of(history)))


def optimal_cells(history: History) -> frozenset[int]:
    """The moves that keep the solver value for the side to move."""
    value = value_for_mover(history)
    board = board_of(history)
    return frozenset(c for c in empty_cells(board) if -value_for_mover(history + (c,)) == value)


def case_results(reading: Reading = STRICT) -> list[CaseResult]:
    """Every case of section 4.2 with the results T3DT reaches in it (claims.md 002 item 4)."""
    games = list(plays(1, reading))
    return [_case_result(case, [h for h in games if case.matches(h)], reading) for case in CASES]


def _case_result(case: CaseClaim, games: list[History], reading: Reading) -> CaseResult:
    """Tally the games of one case, and replay its openings against an optimal O."""
    fixed = case.prefix_length

    def optimal_opponent(history: History) -> frozenset[int]:
        return optimal_cells(history) if len(history) >= fixed else empty_cells(board_of(history))

    by_value: dict[str, list[History]] = {}
    for opening in sorted({h[:fixed] for h in games}):
        word = RESULT_WORDS[value_for_mover(opening)]  # X is to move after every opening
        by_value.setdefault(word, []).extend(plays(1, reading, optimal_opponent, opening))
    return CaseResult(
        case=case,
        reading=reading.name,
        games=_tally(games),
        optimal_games={word: _tally(hs) for word, hs in sorted(by_value.items())},
    )


def _tally(histories: list[History]) -> dict[str, int]:
    """Complete games per result for X."""
    counts = Counter(RESULT_WORDS[result_for(h, 1)] for h in histories)
    return {word: counts.get(word, 0) for word in ("win", "draw", "loss")}


# ---- the report ----------------------------------------------------------------------------------


def _words(games: dict[str, int]) -> str:
    """`win 176 · draw 16`: the nonzero results."""
    return " · ".join(f"{word} {n:,}" for word, n in games.items() if n) or "none"


def audit_markdown() -> str:
    """The T3DT section of certificates/audits/policies-seeds.md: both readings audited in both
    roles, and every case of section 4.2 (claims.md 002 items 3 and 4)."""
    solution = tictactoe_solution()
    lines = [
        "## T3DT (seed 002, Paul 2020): sections 4.1-4.5",
        "",
        "Readings of the text: docs/t3dt.md. `games` counts complete games (move sequences) with T3DT",
        "choosing any move its text allows and the opponent playing every legal move; the audit walks the",
        "same play over states and judges each T3DT decision against the solved game.",
        "",
        "| reading | role | games (result for T3DT) | never loses | decisions | may give up value in |",
        "|---|---|---|---|---|---|",
    ]
    for reading in READINGS.values():
        for bot, role in ((1, "X, first"), (2, "O, second")):
            audit = audit_policy(TICTACTOE, t3dt_policy(reading), bot, reading.name, solution)
            lines.append(
                f"| `{reading.name}` | {role} | {_words(outcome_counts(bot, reading))} | "
                f"{'yes' if audit.never_loses else 'no'} | {audit.decisions} | {len(audit.value_errors)} states |"
            )
    lines += [
        "",
        "### Section 4.2 case by case (T3DT is X)",
        "",
        "The paper's words are the claim under audit (an input). `all O` counts the games over every O",
        "continuation after the case's moves; `optimal O` replays each opening with O restricted to",
        "solver-optimal moves afterwards, grouped by the solver value of the opening for X.",
        "",
    ]
    for reading in READINGS.values():
        lines += [
            f"Reading `{reading.name}`:",
            "",
            "| case (X1 / O1 / O2) | paper says | opening value for X | all O | optimal O |",
            "|---|---|---|---|---|",
        ]
        for result in case_results(reading):
            optimal = "; ".join(f"{value}: {_words(games)}" for value, games in result.optimal_games.items())
            lines.append(
                f"| {result.case.label} | {result.case.claim} | {', '.join(sorted(result.position_values))} | "
                f"{_words(result.games)} | {optimal} |"
            )
        lines.append("")
    return "\n".join(lines)


def t3dt_factory(reading: str) -> Callable[[Rules], Policy]:
    """A registry factory: T3DT in the named reading, for tic-tac-toe only."""

    def factory(rules: Rules) -> Policy:
        if not is_tictactoe(rules):
            raise PolicySpecError(f"T3DT plays 3x3 tic-tac-toe only, not '{rules.name}'")
        return t3dt_policy(READINGS[reading])

    return factory
