"""The strategy kind: a proof tree for "player P wins" or "player P does not lose", re-verified.

The file holds no positions, only the prover's moves, one byte each: the index of the move in the
family's canonical move order (the order of `moves(game, state)`). Their order is the order in
which this traversal first reaches the prover's positions: depth-first from the root, a position
taken from a stack and skipped if already seen; at the prover's position the next stored move is
followed, at the opponent's every move, pushed in reverse so the first is explored first. Every
play must end as claimed, every stored move must be used, and the traversal must see exactly
`proof.positions` positions (declared up front, so the work budget is known before any work:
positions x the family's `position_work`).
The verdict also states the longest play the strategy allows, in plies to the end, computed on the
way back up the same traversal (a position is left when everything pushed after it is done).
A claim with `within` N is bounded: "wins within N" also needs every play to end by ply N from the
root; for "does not lose within N" a position at ply N is an end that is not a loss (nothing below
it is stored or checked).

A no-loss proof of a positional game may close a prover's position by a pairing: the move byte
CLOSE, and the next pairing of `proof.pairings`, whose pairs of empty cells must block every line
still open to the opponent there (checker/pairing.py); the traversal does not go past it. A record
starting with the byte POTENTIAL (254) is a potential closure: the pairs may leave lines unblocked
whose Erdos-Selfridge potential is below 1/2 (checker/pairing.py `potential`). A no-loss
proof of Ultimate tic-tac-toe may close one by a count: the next two bytes of `proof.counts`, a
move of the prover (255: none) and the fewest marks the opponent then needs for a meta line,
recounted there, must exceed the opponent's moves left before the bound; or (254, a move, k) and
k such records (nested three deep at most), one closing each reply to that move (checker/uttt_count.py
`check_count`).

A proof of a positional game may also name a prover's position as a symmetric image of one it
reached before: the move byte IMAGE, and the next byte of `proof.images`, the index of a
permutation of `proof.symmetries` (each checked once to map the lines onto the lines,
checker/positional.py `symmetry`). The permutation must take the position to another one already seen;
that one has as many marks, so it is no position on the play leading here (each move adds a mark):
its whole strategy was checked, and maps to one from here. The traversal does not go past it.

With `proof.replies` "blocks" (own marks, the first line wins), an opponent's position where the
prover has a line to complete and the opponent none lists only the opponent's moves on those cells:
any other move leaves a line the prover completes next (a win two plies on, counted as such in the
longest play). Not within two plies of a bound, where every move is listed as before.
"""

from array import array

from checker import pairing, positional, uttt, uttt_count
from checker.load import Envelope, Invalid, Limits, NotACertificate, count_field, counted, field, unpack_bytes, word_field

RESULTS = ("win", "no-loss")
TRAVERSAL = "dfs-preorder"
WORDS = {1: "win", 0: "draw", -1: "loss"}
CLOSE = 255  # never a move index: at most 128 legal moves in a positional game, 81 in uttt
NO_FIRST_MOVE = 255  # a closure's first byte when the prover makes no first move
POTENTIAL = 254  # a potential closure's first byte (then the first move, the number of pairs, the pairs)
IMAGE = 253  # the move byte of a prover's position proved as a symmetric image of one seen before


def check(envelope: Envelope, family, game, limits: Limits, progress=None) -> str:  # type: ignore[no-untyped-def]
    """Verify the claim and the proof; return the summary or raise Invalid / NotACertificate."""
    document = envelope.document
    claim = field(document, "claim", dict, "certificate")
    player = count_field(claim, "player", "claim", 1, 2)
    result = word_field(claim, "result", "claim", RESULTS)
    root_text = field(claim, "root", str, "claim", nullable=True)
    within = field(claim, "within", int, "claim", nullable=True) if "within" in claim else None
    if within is not None and within < 1:
        raise NotACertificate(f"claim.within = {within}: a bound is at least 1 ply")
    proof = field(document, "proof", dict, "certificate")
    word_field(proof, "traversal", "proof", (TRAVERSAL,))
    positions = count_field(proof, "positions", "proof", 1, 10**18)
    work = positions * family.position_work(game)
    if positions > limits.max_states or work > limits.max_work:
        raise NotACertificate(f"proof.positions = {positions:,} and work {work:,}: over the work budget "
                              f"({limits.max_states:,} positions, {limits.max_work:,} work); to check a large proof, "
                              f"raise it: --max-states {positions} --max-work {work}")
    turns = count_field(proof, "turns", "proof", 0, positions)
    moves = unpack_bytes(proof, "moves", "proof", turns)
    proof_bytes, closures = closures_of(proof, family, game, result, turns, limits)
    symmetries, images = images_of(proof, family, game, turns, limits)
    blocks = blocks_of(proof, family, game, positions, limits)
    closed = loose = imaged = 0  # loose: the potential closures among them; imaged: the positions named as images
    root = family.initial(game) if root_text is None else family.parse_position(game, root_text)
    worst = 1 if result == "win" else 0
    seen, stack, used = {}, [(root, None, 0)], 0  # seen: position → longest play from it, once left
    while stack:
        state, below, ply = stack.pop()
        if below is not None:  # every position below is done: leave this one (None: a reply not listed, lost at once)
            seen[state] = 1 + max(1 if child is None else seen[child] for child in below)
            continue
        if state in seen:
            continue
        seen[state] = 0
        if len(seen) > positions:
            raise Invalid(f"the strategy reaches more than proof.positions = {positions} positions")
        if progress and len(seen) % 1_000_000 == 0:
            progress("positions", len(seen))
        children = family.moves(game, state)
        if within is not None and ply == within and children:
            if result == "win":
                raise Invalid(f"play reaches ply {within} without an end at {family.draw_board(game, state)}")
            continue
        if not children:
            winner = family.result(game, state)
            score = 0 if winner == 0 else 1 if winner == player else -1
            if score < worst:
                raise Invalid(f"play reaches the end {family.draw_board(game, state)}, "
                              f"a {WORDS[score]} for player {player}")
        elif family.to_move(game, state) == player:
            if used == turns:
                raise Invalid(f"proof.moves ends before player {player}'s turn at {family.draw_board(game, state)}")
            index = moves[used]
            used += 1
            if index == CLOSE and closures:  # without closures, 255 is an out-of-range move index as before
                if closed == len(closures):
                    raise Invalid(f"proof.moves[{used - 1}] closes {family.draw_board(game, state)}, "
                                  f"but proof.closures has only {len(closures)}")
                at = closures[closed]
                if family is uttt:
                    end = closures[closed + 1] if closed + 1 < len(closures) else len(proof_bytes)
                    uttt_count.check_count(game, state, player, 81 if within is None else within - ply,
                                           proof_bytes[at:end])  # closures_of measured each record
                elif proof_bytes[at] == POTENTIAL:
                    pairing.potential(game, state, player, *closure_at(proof_bytes, at + 1))
                    loose += 1
                else:
                    pairing.blocking(game, state, player, *closure_at(proof_bytes, at))
                closed += 1
                continue
            if index == IMAGE and symmetries:  # without symmetries, 253 is an out-of-range move index as before
                if imaged == len(images):
                    raise Invalid(f"proof.moves[{used - 1}] names {family.draw_board(game, state)} an image, "
                                  f"but proof.images has only {len(images)}")
                if images[imaged] >= len(symmetries):
                    raise Invalid(f"proof.images[{imaged}] = {images[imaged]}, but proof.symmetries has only {len(symmetries)}")
                other = positional.image(state, symmetries[images[imaged]])
                if other == state:  # seen, but its own strategy is what is to be checked
                    raise Invalid(f"proof.images[{imaged}] maps {family.draw_board(game, state)} to itself")
                if other not in seen:
                    raise Invalid(f"proof.images[{imaged}] maps {family.draw_board(game, state)} to "
                                  f"{family.draw_board(game, other)}, which the strategy has not reached")
                seen[state] = seen[other]
                imaged += 1
                continue
            if index >= len(children):
                raise Invalid(f"proof.moves[{used - 1}] = {index} at {family.draw_board(game, state)}, "
                              f"which has only {len(children)} legal moves")
            stack += [(state, [children[index][1]], ply), (children[index][1], None, ply + 1)]
        else:
            listed = children
            if blocks and (within is None or ply + 2 <= within):
                threats = positional.completions(game, state, player)
                if threats and not positional.completions(game, state, 3 - player):
                    listed = [(move, child) for move, child in children if move[0] in threats]
            stack.append((state, [child for _, child in listed] + [None] * (len(listed) < len(children)), ply))
            stack.extend((child, None, ply + 1) for _, child in reversed(listed))
    if used != turns:
        raise Invalid(f"proof.moves has {turns - used} move(s) the strategy never uses")
    if closed != len(closures):
        raise Invalid(f"proof.closures has {len(closures) - closed} closure(s) the strategy never uses")
    if imaged != len(images):
        raise Invalid(f"proof.images has {len(images) - imaged} image(s) the strategy never uses")
    if len(seen) != positions:
        raise Invalid(f"proof.positions = {positions}, but the strategy reaches {len(seen)} positions")
    where = "the start" if root_text is None else f"position {family.draw_board(game, root)}"  # in full, as read
    claimed = ("wins" if result == "win" else "does not lose") + ("" if within is None else f" within {within} plies")
    how = "a count" if family is uttt else "a pairing"
    closing = f", {counted(closed, 'position', 'positions')} closed by {how}" if closures else ""
    if loose:
        closing += f" ({loose:,} of them leaving lines of potential below 1/2)"
    if symmetries:
        closing += f", {counted(imaged, 'position', 'positions')} as symmetric images of others"
    if blocks:
        closing += f", only blocks listed where player {player} has a line to complete"
    longest = f"the longest play to an end or {how} lasts" if closures else "the longest play lasts"
    return (f"player {player} {claimed} from {where}: {counted(positions, 'position', 'positions')}, "
            f"{counted(turns - closed - imaged, 'move', 'moves')} of player {player}{closing} checked; {longest} "
            f"{counted(seen[root], 'ply', 'plies')}")


def closures_of(proof: dict, family, game, result: str, turns: int, limits: Limits) -> tuple[bytes, array]:  # type: ignore[no-untyped-def]
    """The pairings of `proof.pairings` (absent: none): per closure the prover's first move (255: none),
    the number of pairs k, then k pairs of cells, one byte each (a potential closure: the byte
    POTENTIAL first). Returned unread: the bytes and where
    each closure starts (`closure_at` reads one when the traversal reaches it), so that a million
    closures cost an array of a million offsets, not a million lists of pairs.

    Only no-loss proofs of positional games under rules a pairing proves may have any; their work
    (each reads the lines once) counts against the budget before any is read. Of uttt, the bytes of
    `proof.counts`: per closure a move or 255 and a count, or 254, a move, k and k such records.
    """
    if "closures" not in proof:
        return b"", array("q")
    count = count_field(proof, "closures", "proof", 0, turns)
    if family is uttt:
        if result != "no-loss":
            raise Invalid("a count closes a branch only in a no-loss proof")
        size = count_field(proof, "closure_bytes", "proof", 2 * count, 1731 * count)  # uttt_count.NEST 3
        work = size // 2 * family.position_work(game)  # a record of two bytes checks about one position
        if work > limits.max_work:
            raise NotACertificate(f"proof.counts holds {size:,} bytes, work {work:,}: over the work budget "
                                  f"({limits.max_work:,} work); to check them, raise it: --max-work {work}")
        raw, offsets, offset = unpack_bytes(proof, "counts", "proof", size), array("q"), 0
        while offset < size:
            length = uttt_count.record_length(raw, offset)
            if not length:
                raise NotACertificate(f"proof.counts: closure {len(offsets)} runs past the end of its bytes "
                                      f"or nests deeper than {uttt_count.NEST}")
            offsets.append(offset)
            offset += length
        if len(offsets) != count:
            raise NotACertificate(f"proof.counts holds {len(offsets)} closures, proof.closures says {count}")
        return raw, offsets
    size = count_field(proof, "closure_bytes", "proof", 0, count * (game.cells + 3) if family is positional else 0)
    raw = unpack_bytes(proof, "pairings", "proof", size)
    if count and (family is not positional or result != "no-loss"):
        raise Invalid("a pairing closes a branch only in a no-loss proof of a positional game")
    if count:
        pairing.refuse_rules(game)
        if game.cells > POTENTIAL:
            raise NotACertificate(f"closures take boards of at most {POTENTIAL} cells, not {game.cells}")
        work = count * (sum(len(line) for line in game.lines) + game.cells)
        if work > limits.max_work:
            raise NotACertificate(f"proof.closures = {count:,} and work {work:,}: over the work budget "
                                  f"({limits.max_work:,} work); to check them, raise it: --max-work {work}")
    closures, offset = array("q"), 0
    while offset < size:
        start = offset + (raw[offset] == POTENTIAL)  # a potential record: its closure follows the byte
        end = start + 2 + 2 * raw[start + 1] if start + 1 < size else size + 1
        if end > size:
            raise NotACertificate(f"proof.pairings: closure {len(closures)} runs past the end of its bytes")
        closures.append(offset)
        offset = end
    if len(closures) != count:
        raise NotACertificate(f"proof.pairings holds {len(closures)} closures, proof.closures says {count}")
    return raw, closures


def images_of(proof: dict, family, game, turns: int, limits: Limits) -> tuple[list[tuple[int, ...]], bytes]:  # type: ignore[no-untyped-def]
    """The permutations of `proof.symmetries` (absent: none, and the file is as before), each checked
    to map the lines onto the lines, and the bytes of `proof.images`, one per position named an image:
    its permutation's index. Only positional games have them; checking the permutations (each reads
    the lines) and the images (each moves the board's cells) counts against the budget first."""
    if "symmetries" not in proof:
        return [], b""
    if family is not positional:
        raise NotACertificate("proof.symmetries: only a positional game's proof names positions as images")
    raw = field(proof, "symmetries", list, "proof")
    count = count_field(proof, "image_count", "proof", 0, turns)
    if not 1 <= len(raw) <= 256:
        raise NotACertificate(f"proof.symmetries lists {len(raw)} permutations, not 1 to 256")
    work = len(raw) * sum(map(len, game.lines)) + count * game.cells
    if work > limits.max_work:
        raise NotACertificate(f"proof.symmetries and proof.images: work {work:,}, over the work budget "
                              f"({limits.max_work:,} work); to check them, raise it: --max-work {work}")
    return [positional.symmetry(game, p, i) for i, p in enumerate(raw)], unpack_bytes(proof, "images", "proof", count)


def blocks_of(proof: dict, family, game, positions: int, limits: Limits) -> bool:  # type: ignore[no-untyped-def]
    """Whether `proof.replies` is "blocks" (absent: every reply is listed, as before). Only positional
    games with own marks whose first line wins have it; finding the prover's and the opponent's lines
    to complete at a position reads the lines again, which counts against the budget first."""
    if "replies" not in proof:
        return False
    word_field(proof, "replies", "proof", ("blocks",))
    if family is not positional or game.marks != "own" or game.goal != "first-line-wins":
        raise NotACertificate("proof.replies: only blocks are listed, and only in a positional game of own marks "
                              "whose first line wins")
    work = positions * 2 * sum(map(len, game.lines))
    if work > limits.max_work:
        raise NotACertificate(f"proof.replies: work {work:,}, over the work budget ({limits.max_work:,} work); "
                              f"to check them, raise it: --max-work {work}")
    return True


def closure_at(raw: bytes, offset: int) -> tuple[int | None, list[list[int]]]:
    """The closure starting at `offset` of the bytes: its first move (None: none) and its pairs."""
    first = None if raw[offset] == NO_FIRST_MOVE else raw[offset]
    return first, [list(raw[cell:cell + 2]) for cell in range(offset + 2, offset + 2 + 2 * raw[offset + 1], 2)]
