"""A proved claim as a strategy: the prover's move at each position its strategy reaches.

The canonical traversal (docs/certificate-format.md, kind `strategy`) fixes the order of the
prover's positions, so a certificate stores only one move index per position and no positions:
depth-first, pre-order, from the root, children in the canonical legal-move order, each position
visited once (a position is "seen" when it is first taken from the stack, so transpositions are
merged and the proof is a DAG). At the prover's positions the one chosen child is followed; at
the opponent's, every child. The checker (checker/proof.py) repeats the same traversal.

With symmetries (a positional game's line automorphisms but the identity, `--images`), a prover's
position that one of them maps to a position already seen is named that image instead (the byte
IMAGE, and the symmetry's index: the first that does, in their order), and not gone past: the
strategy from the seen one, mapped, is the strategy from here. With `replies` (`--blocks`), an
opponent's position lists only the replies it names (the blocks of a line the prover completes
next: the rest lose at once), but within two plies of a bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.games.game import Game


@dataclass(frozen=True)
class ProofTree:
    """The prover's moves, as indices into the canonical legal moves, in traversal order."""

    moves: list[int]
    positions: int  # distinct positions the traversal visits (terminals included)
    terminals: int
    depth: int  # longest play from the root, in plies
    closures: tuple[bytes, ...] = ()  # the records of the CLOSE moves as the certificate stores them, in traversal order
    images: tuple[int, ...] = ()  # the symmetries' indices of the IMAGE moves, in traversal order


CLOSE = 255  # the move byte of a prover's position closed by a closure (never a move index)
IMAGE = 253  # the move byte of a prover's position named a symmetric image of one seen (never a move index)
NO_FIRST_MOVE = 255  # the first byte of a closure without a first move
WALK_REPORT = 65_536  # a walk reports its positions this often (dfpn.c WALK_REPORT), and once at the end
TRAVERSAL_BUDGET = 50_000  # steps of solver/games/positional/blocking.py per position when a Python walk writes pairings


def after_move(tree: ProofTree, index: int) -> ProofTree:
    """The traversal from a prover's position whose move number `index` (in the canonical legal
    order) leads to `tree`'s root: that move, then `tree` as it is. The traversal from the earlier
    position visits it, takes the one child, then repeats `tree`'s traversal exactly (the games are
    acyclic, so the earlier position is not among `tree`'s)."""
    return ProofTree([index, *tree.moves], tree.positions + 1, tree.terminals, tree.depth + 1, tree.closures, tree.images)


def closure_record(closure: tuple[int | None, Any] | bytes | None) -> bytes | None:
    """A closure as the certificate stores it: a record already (bytes, e.g. uttt's count) as it is; a
    pairing (first move or None, pairs) as the first move (NO_FIRST_MOVE: none), the number of pairs,
    then their cells, one byte each (checker/proof.py)."""
    if closure is None or isinstance(closure, bytes):
        return closure
    first, pairs = closure
    return bytes([NO_FIRST_MOVE if first is None else first, len(pairs), *(cell for pair in pairs for cell in pair)])


def canonical_strategy(game: Game[Any, Any], root: Any, prover: int, choose: Callable[[Any], Any],
                       close: Callable[[Any, int | None], bytes | None] | None = None, within: int | None = None,
                       visit: Callable[[Any, int], None] | None = None,
                       symmetries: Sequence[Callable[[Any], Any]] = (),
                       replies: Callable[[Any, list[Any]], list[Any]] | None = None,
                       walked: Callable[[int], None] | None = None) -> ProofTree:
    """Traverse the strategy that plays `choose(state)` at the prover's positions (see module doc),
    or, where `close(state, plies_left)` gives a closure's record (as the certificate stores it: a
    pairing's, a count's), closes the position by it (the byte CLOSE); with `within` N, positions at
    ply N are leaves (a bounded claim) and `plies_left` is N minus the ply (None without a bound).
    `visit(state, ply)`, if given, is called once at each position the traversal reaches, before the rest
    (solver/search/parallel.py learns a worker's moves there). `symmetries`: state maps under which
    a prover's position mapped to a seen one is named that image; `replies(state, legal)`: the
    opponent's moves listed there (the module docstring); `walked(positions)`: the positions walked
    so far, every WALK_REPORT of them and once at the end (a progress display)."""
    seen: set[Any] = set()
    moves: list[int] = []
    closures: list[bytes] = []
    images: list[int] = []
    terminals = depth = 0
    stack = [(root, 0)]
    while stack:
        state, ply = stack.pop()
        key = game.key(state)
        if key in seen:
            continue
        seen.add(key)
        if walked is not None and len(seen) % WALK_REPORT == 0:
            walked(len(seen))
        if visit is not None:
            visit(state, ply)
        depth = max(depth, ply)
        if game.is_terminal(state):
            terminals += 1
            continue
        if ply == within:
            continue
        legal = game.legal_moves(state)
        if game.to_move(state) == prover:
            image = next((i for i, symmetry in enumerate(symmetries)
                          if (other := game.key(symmetry(state))) != key and other in seen), None)  # not itself
            if image is not None:
                moves.append(IMAGE)
                images.append(image)
                continue
            record = None if close is None else close(state, None if within is None else within - ply)
            if record is not None:
                moves.append(CLOSE)
                closures.append(record)
                continue
            move = choose(state)
            moves.append(legal.index(move))
            stack.append((game.apply(state, move), ply + 1))
        else:
            if replies is not None and (within is None or ply + 2 <= within):
                legal = replies(state, legal)
            stack.extend((game.apply(state, move), ply + 1) for move in reversed(legal))
    if walked is not None:
        walked(len(seen))
    return ProofTree(moves, len(seen), terminals, depth, tuple(closures), tuple(images))
