"""Pairing strategies (seed 004, section 3.1.4): checked and searched with Z3.

A pairing is a set of disjoint pairs of cells. The pairing player answers the opponent's last
move in its partner cell; when that cell is unpaired or its partner is taken, or on the first
move, it plays an *arbitrary* legal move, and "arbitrary" is read universally: every such move
must keep the claim (likewise the mark, in games where a player may choose it). Optionally the
pairing player's first move is fixed: `opening` for player 1, `reply` for player 2 (for whom
`opening` restricts the plays considered to that first move of player 1).

Searches need only maximal pairings (all cells paired but one on an odd board): a play that
obeys a pairing also obeys every sub-pairing (an unpaired cell allows any answer, the paired
answer included), so if a pairing works for a role, every pairing containing it works too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

import z3

from certify.smt.bmc import PlayEncoding, Property, ReplayDisagreement, Step, check_side, replay
from certify.smt.result import Deadline, PlayedMove, SmtResult
from solver.games.positional.engine import Move
from solver.games.positional.rules import Rules

SearchRole = Literal["1", "2", "both"]


@dataclass(frozen=True)
class Pairing:
    """Disjoint pairs of cells."""

    pairs: tuple[tuple[int, int], ...]

    @property
    def partner(self) -> dict[int, int]:
        """Each paired cell's partner."""
        return {a: b for a, b in self.pairs} | {b: a for a, b in self.pairs}

    def text(self, one_based: bool = False) -> str:
        """`0-1,2-5`, or `1-2,3-6` one-based."""
        shift = 1 if one_based else 0
        return ",".join(f"{a + shift}-{b + shift}" for a, b in self.pairs)


def parse_pairing(text: str, cells: int, one_based: bool = False) -> Pairing:
    """`1-2,3-6,...` → a pairing; raises ValueError with one line."""
    shift = 1 if one_based else 0
    pairs = []
    for token in [t.strip() for t in text.split(",") if t.strip()]:
        parts = token.replace("↔", "-").split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"pair '{token}': expected two cells like 1-2")
        a, b = (parse_cell(p, cells, one_based) for p in parts)
        if a == b:
            raise ValueError(f"pair '{token}' pairs a cell with itself")
        pairs.append((a, b))
    used = [c for pair in pairs for c in pair]
    repeated = sorted({c for c in used if used.count(c) > 1})
    if repeated:
        raise ValueError(f"cell {repeated[0] + shift} is in more than one pair")
    return Pairing(tuple(pairs))


def parse_cell(text: str, cells: int, one_based: bool = False) -> int:
    """A cell number (1..cells when one-based) → 0-based; raises ValueError with one line."""
    shift = 1 if one_based else 0
    if not text.strip().isdigit() or not shift <= int(text) < cells + shift:
        raise ValueError(f"cell '{text}' is not a number in {shift}..{cells - 1 + shift}")
    return int(text) - shift


@dataclass(frozen=True)
class PairingTerms:
    """A pairing strategy over Z3 terms: fixed values to check one, variables to search."""

    partner: list[z3.ArithRef]  # per cell: partner cell, -1 unpaired
    opening: z3.ArithRef | None  # cell of ply 1, if fixed
    reply: z3.ArithRef | None  # cell of ply 2 (player 2's first move), if fixed


def follows_pairing(play: PlayEncoding, player: int, terms: PairingTerms) -> list[z3.BoolRef]:
    """Constraints: the play starts with the fixed moves and `player` answers by the pairing."""
    constraints = []
    if terms.opening is not None:
        constraints.append(z3.And(play.active[0], play.cell[0] == terms.opening))
    if terms.reply is not None:
        constraints.append(z3.And(play.active[1], play.cell[1] == terms.reply))
    n = play.plies
    for t in range(1, n):
        if play.mover(t) != player or (t == 1 and terms.reply is not None):
            continue
        for v in range(n):
            for q in range(n):
                if q != v:
                    must = z3.And(
                        play.active[t], play.cell[t - 1] == v, terms.partner[v] == q, play.board[t][q] == 0
                    )
                    constraints.append(z3.Implies(must, play.cell[t] == q))
    return constraints


@dataclass(frozen=True)
class PairingStrategy:
    """A stated pairing strategy for `player` (a `SideRule` for the model checker)."""

    player: int
    pairing: Pairing
    opening: int | None = None
    reply: int | None = None
    one_based: bool = field(default=False, compare=False)
    tactics: bool = False  # the opponent follows seed 004's A.2 assumptions (see `urgent_cells`)

    def __post_init__(self) -> None:
        if self.reply is not None and self.player != 2:
            raise ValueError("a fixed reply is player 2's first move: use it with role 2")
        if self.reply is not None and self.reply == self.opening:
            raise ValueError("the reply cell is the opening cell")

    def describe(self) -> str:
        shift = 1 if self.one_based else 0
        parts = [f"player {self.player}'s pairing {self.pairing.text(self.one_based)}"]
        if self.opening is not None:
            parts.append(f"{'opening' if self.player == 1 else 'after opening'} {self.opening + shift}")
        if self.reply is not None:
            parts.append(f"reply {self.reply + shift}")
        if self.tactics:
            parts.append("opponent completes or blocks a line whenever it can")
        return ", ".join(parts) + (" (cells 1-based)" if self.one_based else "")

    def terms(self, cells: int) -> PairingTerms:
        """This strategy as fixed Z3 terms."""
        partner = self.pairing.partner
        return PairingTerms(
            [z3.IntVal(partner.get(v, -1)) for v in range(cells)],
            None if self.opening is None else z3.IntVal(self.opening),
            None if self.reply is None else z3.IntVal(self.reply),
        )

    def constraints(self, play: PlayEncoding) -> list[z3.BoolRef]:
        tactics = opponent_tactics(play, 3 - self.player) if self.tactics else []
        return follows_pairing(play, self.player, self.terms(play.plies)) + tactics

    def gaps(self, play: PlayEncoding) -> list[z3.BoolRef]:
        return []  # an arbitrary legal move always exists while the game goes on

    def allowed(self, rules: Rules, history: Sequence[Move]) -> Step:
        ply = len(history)
        own = PlayEncoding.mover(ply) == self.player
        if ply == 0 and self.opening is not None:
            return Step("opening" if own else "opening (given)", frozenset([self.opening]))
        if ply == 1 and self.reply is not None:
            return Step("fixed reply", frozenset([self.reply]))
        if not own:
            if self.tactics:
                board = [0] * rules.cells
                for move in history:
                    board[move.cell] = move.mark
                urgent = urgent_cells(rules, board)
                if urgent:
                    return Step("opponent (completes or blocks)", frozenset(urgent))
            return Step("opponent")
        if ply == 0:
            return Step("arbitrary (first move)")
        taken = {move.cell for move in history}
        partner = self.pairing.partner.get(history[-1].cell)
        if partner is None:
            return Step("arbitrary (last move unpaired)")
        if partner in taken:
            return Step("arbitrary (partner taken)")
        return Step("pairing reply", frozenset([partner]))


def urgent_cells(rules: Rules, board: Sequence[int]) -> set[int]:
    """Empty cells that complete a line of either mark (own marks: a player's own line, or the
    block of the opponent's). Seed 004's proof of Theorem 2 assumes each player completes a line
    when it can and otherwise blocks the opponent's, either one when both are possible: so it
    plays one of these cells whenever there is one."""
    urgent = set()
    for line in rules.lines:
        empty = [c for c in line if board[c] == 0]
        marks = {board[c] for c in line if board[c]}
        if len(empty) == 1 and len(marks) == 1:
            urgent.add(empty[0])
    return urgent


def opponent_tactics(play: PlayEncoding, opponent: int) -> list[z3.BoolRef]:
    """Constraints: on `opponent`'s plies, if some cell is urgent (`urgent_cells`), it plays one."""
    constraints = []
    for t in range(play.plies):
        if play.mover(t) != opponent:
            continue
        board = play.board[t]
        urgent = [
            z3.And(
                board[c] == 0,
                z3.Or(
                    [
                        z3.Or([z3.And([board[o] == m for o in line if o != c]) for m in (1, 2)])
                        for line in play.rules.lines
                        if c in line
                    ]
                ),
            )
            for c in range(play.plies)
        ]
        plays_urgent = z3.Or([z3.And(play.cell[t] == c, urgent[c]) for c in range(play.plies)])
        constraints.append(z3.Implies(z3.And(play.active[t], z3.Or(urgent)), plays_urgent))
    return constraints


def obeys(rules: Rules, strategy: PairingStrategy, moves: Sequence[Move]) -> bool:
    """Whether the play `moves` is one the strategy allows."""
    for ply, move in enumerate(moves):
        cells = strategy.allowed(rules, moves[:ply]).cells
        if cells is not None and move.cell not in cells:
            return False
    return True


# ---- checking a stated pairing ----------------------------------------------------------------


@dataclass(frozen=True)
class PairingReport:
    """Every check made of one pairing strategy."""

    strategy: PairingStrategy
    results: list[SmtResult]
    blocking: BlockingTest | None


@dataclass(frozen=True)
class BlockingTest:
    """The classic pairing test for first-line goals: every opponent line holds both cells of a
    pair, or a cell the pairing player takes at once (its fixed first move)."""

    passes: bool
    unblocked: list[tuple[int, ...]]


def blocking_test(rules: Rules, strategy: PairingStrategy) -> BlockingTest:
    """Which of the opponent's lines the pairing (with the player's fixed first move) blocks."""
    first = strategy.opening if strategy.player == 1 else strategy.reply
    pairs = [set(pair) for pair in strategy.pairing.pairs]
    unblocked = [
        line
        for line in rules.lines
        if not (first is not None and first in line) and not any(pair <= set(line) for pair in pairs)
    ]
    return BlockingTest(not unblocked, unblocked)


def check_pairing(rules: Rules, strategy: PairingStrategy, timeout: float = 60.0) -> PairingReport:
    """Is the pairing draw-forcing: never loses (never out-scored), and does every play end in an
    exact draw? For most-lines also: does every play end with no complete line at all? For
    first-line goals with own marks also the blocking test."""
    deadline = Deadline(timeout)
    claims: list[Property] = ["no-loss", "draw"] + (["no-lines"] if rules.goal == "most-lines" else [])
    results = [check_side(rules, strategy, claim, max(0.0, timeout - deadline.elapsed())) for claim in claims]
    blocking = blocking_test(rules, strategy) if rules.goal != "most-lines" and rules.marks == "own" else None
    return PairingReport(strategy, results, blocking)


# ---- searching for pairings ---------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A pairing and, where the search chooses them, player 1's opening / player 2's reply."""

    pairing: Pairing
    opening: int | None
    reply: int | None


@dataclass(frozen=True)
class Refutation:
    """A play that breaks the claim for `role` and obeys every candidate it is charged with."""

    role: int
    play: tuple[PlayedMove, ...]
    verdict: str


@dataclass(frozen=True)
class SearchOutcome:
    """A search's result, the candidate found (if any) and the refutations collected."""

    result: SmtResult
    found: Candidate | None
    refutations: list[Refutation]


class _RoleVerifier:
    """An incremental model checker for one role, the pairing left as Z3 variables."""

    def __init__(self, rules: Rules, role: int, terms: PairingTerms, claim: Property) -> None:
        self.rules = rules
        self.role = role
        self.terms = terms
        self.claim = claim
        self.play = PlayEncoding(rules)
        self.solver = z3.Solver()
        self.solver.add(self.play.rules_constraints())
        self.solver.add(follows_pairing(self.play, role, terms))
        self.solver.add(self.play.violates(role, claim))

    def refute(self, deadline: Deadline, fixed: list[z3.BoolRef]) -> list[Move] | None | z3.CheckSatResult:
        """A violating play for the candidate fixed by `fixed`, None if there is none, or
        `z3.unknown` on timeout."""
        answer = deadline.check(self.solver, *fixed)
        if answer == z3.unknown:
            return z3.unknown
        return None if answer == z3.unsat else self.play.moves_in(self.solver.model())


def _obeyed_by(play: Sequence[Move], role: int, terms: PairingTerms) -> z3.BoolRef:
    """Over the search variables: the candidate's strategy allows this concrete play."""
    conditions = []
    taken: set[int] = set()
    for ply, move in enumerate(play):
        if ply == 0 and terms.opening is not None:
            conditions.append(terms.opening == move.cell)
        elif ply == 1 and terms.reply is not None:
            conditions.append(terms.reply == move.cell)
        elif ply >= 1 and PlayEncoding.mover(ply) == role:
            free = [q for q in range(len(terms.partner)) if q not in taken and q != move.cell]
            conditions.append(z3.And([terms.partner[play[ply - 1].cell] != q for q in free]))
        taken.add(move.cell)
    return z3.And(conditions)


def _maximal(partner: list[z3.ArithRef]) -> list[z3.BoolRef]:
    """`partner` is a pairing with every cell paired but one on an odd board."""
    n = len(partner)
    constraints = [z3.And(partner[v] >= -1, partner[v] < n, partner[v] != v) for v in range(n)]
    constraints += [(partner[v] == q) == (partner[q] == v) for v in range(n) for q in range(n) if q != v]
    constraints.append(z3.Sum([z3.If(p == -1, 1, 0) for p in partner]) == n % 2)
    return constraints


def search_pairings(
    rules: Rules,
    role: SearchRole,
    claim: Property = "no-loss",
    opening: int | None = None,
    timeout: float = 300.0,
) -> SearchOutcome:
    """Find a maximal pairing whose strategy keeps `claim` for `role` (player 1 with an opening
    of the search's choosing unless given; player 2 against every opening, or against the given
    opening with a reply of the search's choosing; `both`: one pairing good for both roles, the
    given opening then being player 1's while player 2 still answers every opening).

    Counterexample-guided: candidates come from a Z3 solver over the pairing; each is model
    checked per role, and each violating play (replayed through the engine) excludes every
    candidate that allows it. UNSAT of the candidate solver proves no pairing exists.
    """
    deadline = Deadline(timeout)
    n = rules.cells
    partner = [z3.Int(f"partner_{v}") for v in range(n)]
    roles = [1, 2] if role == "both" else [int(role)]
    terms: dict[int, PairingTerms] = {}
    if 1 in roles:
        chosen = z3.Int("opening") if opening is None else z3.IntVal(opening)
        terms[1] = PairingTerms(partner, chosen, None)
    answered = None if role == "both" else opening  # the opening player 2 answers, if only one
    if 2 in roles:
        given = None if answered is None else z3.IntVal(answered)
        reply = None if answered is None else z3.Int("reply")
        terms[2] = PairingTerms(partner, given, reply)
    synth = z3.Solver()
    synth.add(_maximal(partner))
    for t in terms.values():
        for var in (t.opening, t.reply):
            if var is not None and z3.is_const(var) and not z3.is_int_value(var):
                synth.add(var >= 0, var < n)
    if 2 in terms and terms[2].reply is not None:
        synth.add(terms[2].reply != terms[2].opening)
    verifiers = {r: _RoleVerifier(rules, r, terms[r], claim) for r in roles}
    refutations: list[Refutation] = []
    check = f"{rules.name}: a pairing for role {role} that {_claim_words(claim)}"

    def verify(candidate: Candidate) -> bool | z3.CheckSatResult:
        """Model check `candidate` for every role: True if it keeps the claim; a refutation
        is kept and excludes every candidate obeying it; `z3.unknown` on timeout."""
        fixed = _fixing(candidate, terms)
        for r, verifier in verifiers.items():
            found = verifier.refute(deadline, fixed)
            if isinstance(found, z3.CheckSatResult):
                return found
            if found is not None:
                played, verdict = replay(rules, candidate_strategy(candidate, r, answered), claim, found)
                refutations.append(Refutation(r, played, verdict))
                synth.add(z3.Not(_obeyed_by(found, r, terms[r])))
                return False
        return True

    def unknown() -> SearchOutcome:
        return SearchOutcome(SmtResult(check, "unknown", deadline.elapsed(), {"refutations": len(refutations)}), None, refutations)

    while True:
        answer = deadline.check(synth)
        if answer == z3.unknown:
            return unknown()
        if answer == z3.unsat:
            details = {"candidates_refuted_by": len(refutations), **exhaustive_recheck(rules, role, opening, refutations)}
            return SearchOutcome(SmtResult(check, "refuted", deadline.elapsed(), details), None, refutations)
        candidate = _candidate(synth.model(), terms, n)
        verdict = verify(candidate)
        if isinstance(verdict, z3.CheckSatResult):
            return unknown()
        if verdict is True:
            break
    # Z3's model picked *a* working candidate; report the first one in a fixed order instead
    for earlier in _candidates_in_order(rules, roles, opening, answered):
        if earlier == candidate:
            break
        if any(_refutes(rules, ref, earlier, answered) for ref in refutations):
            continue
        verdict = verify(earlier)
        if isinstance(verdict, z3.CheckSatResult):
            return unknown()
        if verdict is True:
            candidate = earlier
            break
    details = {"candidates_refuted": len(refutations), "reported": "the first working candidate in the order of maximal_pairings, then opening, then reply"}
    return SearchOutcome(SmtResult(check, "proved", deadline.elapsed(), details), candidate, refutations)


def _fixing(candidate: Candidate, terms: dict[int, PairingTerms]) -> list[z3.BoolRef]:
    """Constraints fixing the search variables to `candidate`."""
    partner = candidate.pairing.partner
    some = next(iter(terms.values()))
    fixed = [p == partner.get(v, -1) for v, p in enumerate(some.partner)]
    if 1 in terms and terms[1].opening is not None and candidate.opening is not None:
        fixed.append(terms[1].opening == candidate.opening)
    if 2 in terms and terms[2].reply is not None and candidate.reply is not None:
        fixed.append(terms[2].reply == candidate.reply)
    return fixed


def _candidates_in_order(rules: Rules, roles: list[int], opening: int | None, answered: int | None) -> Iterator[Candidate]:
    """Every candidate of a search: maximal pairings in `maximal_pairings` order, then player
    1's opening (when the search chooses it), then player 2's reply (likewise)."""
    n = rules.cells
    openings: list[int | None] = list(range(n)) if 1 in roles and opening is None else [opening if 1 in roles else None]
    replies: list[int | None] = [r for r in range(n) if r != answered] if 2 in roles and answered is not None else [None]
    for pairing in maximal_pairings(range(n)):
        for first in openings:
            for reply in replies:
                yield Candidate(pairing, first, reply)


def _refutes(rules: Rules, refutation: Refutation, candidate: Candidate, answered: int | None) -> bool:
    """Whether a kept refutation play is one `candidate`'s strategy allows (so it fails too)."""
    strategy = candidate_strategy(candidate, refutation.role, answered)
    return obeys(rules, strategy, [Move(m.cell, m.mark) for m in refutation.play])


def _claim_words(claim: Property) -> str:
    return {
        "no-loss": "never loses (draw-forcing)",
        "draw": "draws every play exactly",
        "win": "always wins",
        "no-lines": "leaves no complete line",
    }[claim]


def _candidate(model: z3.ModelRef, terms: dict[int, PairingTerms], n: int) -> Candidate:
    some = next(iter(terms.values()))
    partner = [model.eval(p, model_completion=True).as_long() for p in some.partner]
    pairing = Pairing(tuple((v, p) for v, p in enumerate(partner) if v < p))
    opening = terms[1].opening if 1 in terms else None
    reply = terms[2].reply if 2 in terms else None
    return Candidate(
        pairing,
        None if opening is None else model.eval(opening, model_completion=True).as_long(),
        None if reply is None else model.eval(reply, model_completion=True).as_long(),
    )


def candidate_strategy(candidate: Candidate, role: int, given_opening: int | None) -> PairingStrategy:
    """The concrete strategy a candidate gives `role`."""
    if role == 1:
        return PairingStrategy(1, candidate.pairing, candidate.opening)
    return PairingStrategy(2, candidate.pairing, given_opening, candidate.reply)


def maximal_pairings(cells: Sequence[int]) -> Iterator[Pairing]:
    """Every pairing of `cells` leaving at most one cell unpaired."""
    cells = list(cells)
    if len(cells) % 2:
        for alone in cells:
            yield from maximal_pairings([c for c in cells if c != alone])
        return
    if not cells:
        yield Pairing(())
        return
    first, rest = cells[0], cells[1:]
    for mate in rest:
        for sub in maximal_pairings([c for c in rest if c != mate]):
            yield Pairing(((first, mate),) + sub.pairs)


def exhaustive_recheck(
    rules: Rules, role: SearchRole, opening: int | None, refutations: list[Refutation]
) -> dict[str, object]:
    """Independently of Z3: enumerate every candidate and find a kept play that refutes it.

    Raises ReplayDisagreement if some candidate escapes every refutation (Z3 claimed none
    exists, but the kept plays do not show it).
    """
    n = rules.cells
    plays = {r: [[Move(m.cell, m.mark) for m in ref.play] for ref in refutations if ref.role == r] for r in (1, 2)}

    def refuted(strategy: PairingStrategy) -> bool:
        return any(obeys(rules, strategy, play) for play in plays[strategy.player])

    count = 0
    for pairing in maximal_pairings(range(n)):
        count += 1
        openings = [opening] if opening is not None else list(range(n))
        role1 = all(refuted(PairingStrategy(1, pairing, o)) for o in openings)
        if role == "1" and not role1:
            raise ReplayDisagreement(f"pairing {pairing.text()} escapes every kept refutation for player 1")
        if role in ("2", "both"):
            if opening is None or role == "both":
                role2 = refuted(PairingStrategy(2, pairing))
            else:
                role2 = all(refuted(PairingStrategy(2, pairing, opening, r)) for r in range(n) if r != opening)
            if role == "2" and not role2:
                raise ReplayDisagreement(f"pairing {pairing.text()} escapes every kept refutation for player 2")
            if role == "both" and not (role1 or role2):
                raise ReplayDisagreement(f"pairing {pairing.text()} escapes every kept refutation for both roles")
    return {"pairings_enumerated": count, "exhaustive_recheck": "every candidate is refuted by a kept, replayed play"}
