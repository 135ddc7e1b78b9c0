"""Game-tree search players: plain minimax, alpha-beta, and depth-aware alpha-beta (seed 002's ABA).

All three are full-depth negamax searches over `Game`'s scalar API (`legal_moves`, `apply`,
`is_terminal`, `returns`), trying moves in `legal_moves` order: by cell, then mark.

Scores, for the side to move at the search root:

- `minimax` and `alphabeta` score a finished game by its result, +1 win / 0 draw / -1 loss, so
  every win looks the same and they may take a slower one (seed 002, section 3, Fig. 3);
- `alphabeta-depth` (ABA) scores a game ending `d` plies below the root as `±(cells + 1 - d)`:
  the moves left until the end are subtracted from the score, so it prefers the fastest win and,
  symmetrically, the slowest loss.

Tie-break. With `ties="first"` (the deterministic players) the search returns the *first* move
in cell-then-mark order whose score is the best: a later move replaces the choice only when it
scores strictly higher, which is also the only way alpha-beta can tell (a later equal move is cut
off as "no better"). With `ties="all"` it returns every move whose score equals the best: the set
a player breaking ties uniformly at random may choose. Alpha-beta then searches each root move
with a window one below the best score so far, so equal scores are exact rather than bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from certify.policy import Policy
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules

Algorithm = Literal["minimax", "alphabeta", "alphabeta-depth"]
Ties = Literal["first", "all"]
ALGORITHMS: tuple[Algorithm, ...] = ("minimax", "alphabeta", "alphabeta-depth")
_INFINITY = 1 << 30


@dataclass(frozen=True)
class SearchResult:
    """The moves a search chooses at the root, their score, and the nodes it visited."""

    moves: tuple[Move, ...]
    score: int
    nodes: int


Scorer = Callable[[int, int], int]
"""Score of a finished game from its result for the side to move there and its ply depth."""


def _result_score(value: int, depth: int) -> int:
    return value


def _depth_scorer(game: Game) -> Scorer:
    horizon = game.cells + 1  # more than any game's length, so every decided game keeps its sign

    def score(value: int, depth: int) -> int:
        return value * (horizon - depth)

    return score


class _Search:
    """One root search; counts the nodes it visits."""

    def __init__(self, game: Game, scorer: Scorer) -> None:
        self.game = game
        self.scorer = scorer
        self.nodes = 0

    def _leaf(self, code: int, depth: int) -> int:
        mover = self.game.to_move(code)
        return self.scorer(self.game.returns(code)[mover - 1], depth)

    def negamax(self, code: int, depth: int) -> int:
        """Exact score of `code` for its side to move."""
        self.nodes += 1
        if self.game.is_terminal(code):
            return self._leaf(code, depth)
        return max(-self.negamax(self.game.apply(code, m), depth + 1) for m in self.game.legal_moves(code))

    def alphabeta(self, code: int, depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: exact inside (alpha, beta), else a bound on the side it fell."""
        self.nodes += 1
        if self.game.is_terminal(code):
            return self._leaf(code, depth)
        best = -_INFINITY
        for move in self.game.legal_moves(code):
            score = -self.alphabeta(self.game.apply(code, move), depth + 1, -beta, -max(alpha, best))
            if score > best:
                best = score
                if best >= beta:
                    break
        return best

    def root(self, code: int, pruning: bool, ties: Ties) -> SearchResult:
        """Search every move of `code` and keep the best by the tie rule."""
        self.nodes += 1
        best, chosen = -_INFINITY, []
        for move in self.game.legal_moves(code):
            child = self.game.apply(code, move)
            if not pruning:
                score = -self.negamax(child, 1)
            else:
                # "all": one below the best, so an equal score is exact; "first": equal is no better
                floor = best - 1 if ties == "all" else best
                score = -self.alphabeta(child, 1, -_INFINITY, -floor)
            if score > best:
                best, chosen = score, [move]
            elif score == best and ties == "all":
                chosen.append(move)
        return SearchResult(tuple(chosen), best, self.nodes)


def search(game: Game, code: int, algorithm: Algorithm, ties: Ties = "first") -> SearchResult:
    """Search the non-terminal state `code` with `algorithm` and return its choice."""
    if game.is_terminal(code):
        raise ValueError(f"state {code} is terminal: there is no move to choose")
    scorer = _depth_scorer(game) if algorithm == "alphabeta-depth" else _result_score
    return _Search(game, scorer).root(code, pruning=algorithm != "minimax", ties=ties)


def search_policy(rules: Rules, algorithm: Algorithm, ties: Ties = "first") -> Policy:
    """`algorithm` as a policy for `rules`: a fresh search on every call."""

    def policy(game: Game, code: int) -> tuple[Move, ...]:
        return search(game, code, algorithm, ties).moves

    return policy
