"""The root value from the minimax equations, proved by Z3.

Each reachable state gets variables defined by its children: for the first-line goals two
Booleans, `win` (the side to move can force a win) and `loss` (every move loses), with
`win = OR(loss of children)` and `loss = AND(win of children)`; for `most-lines` an integer margin
with `margin = MAX(-margin of children)`. Terminal states are fixed by the rules. The graph is
acyclic, so the equations have exactly one solution; a claimed root value is proved when the
equations plus the claim are satisfiable, the equations plus its negation are not, and neither
is any other value.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from certify.smt.graph import GameGraph, enumerate_graph
from certify.smt.result import Deadline, SmtResult, Status
from solver.games.positional.rules import Rules

VALUE_WORDS = ("win", "draw", "loss")


@dataclass(frozen=True)
class ValueEquations:
    """The equations of a game graph as SMT-LIB text, and the root's value as Z3 terms."""

    graph: GameGraph
    smtlib: str
    root_value: dict[str, z3.BoolRef]  # value word -> "the root has that value"
    margin_bound: int | None  # most-lines: every margin lies in [-bound, bound]

    def root_at_least(self, k: int) -> z3.BoolRef:
        """most-lines: "the root's margin is at least k"."""
        assert self.margin_bound is not None
        if k <= -self.margin_bound:
            return z3.BoolVal(True)
        return z3.BoolVal(False) if k > self.margin_bound else z3.Bool(_level_name(0, k))

    def root_margin_is(self, k: int) -> z3.BoolRef:
        """most-lines: "the root's margin is exactly k"."""
        return z3.And(self.root_at_least(k), z3.Not(self.root_at_least(k + 1)))


def boolean_equations(graph: GameGraph) -> ValueEquations:
    """Win/loss Booleans per state (first-line goals)."""
    text = [f"(declare-const w{code} Bool)\n(declare-const l{code} Bool)" for code in graph.nodes]
    for code, node in graph.nodes.items():
        if node.terminal:
            text.append(f"(assert (= w{code} {_bool(node.value == 1)}))")
            text.append(f"(assert (= l{code} {_bool(node.value == -1)}))")
        else:
            text.append(f"(assert (= w{code} (or {' '.join(f'l{c}' for c in node.children)})))")
            text.append(f"(assert (= l{code} (and {' '.join(f'w{c}' for c in node.children)})))")
    win, loss = z3.Bool("w0"), z3.Bool("l0")
    root = {"win": win, "draw": z3.And(z3.Not(win), z3.Not(loss)), "loss": loss}
    return ValueEquations(graph, "\n".join(text), root, None)


def margin_equations(graph: GameGraph) -> ValueEquations:
    """Integer margins per state (most-lines), each in unary: Booleans `margin >= k`.

    `margin = MAX(-margin of children)` becomes, for every k,
    `margin >= k  <=>  OR(NOT (child margin >= 1 - k))`. Every margin lies in the symmetric hull
    [-bound, bound] of the terminal margins, so k runs over that range only. (The same
    equations over Z3 integers take tens of seconds on cumulative; in unary, unit propagation
    settles them.)
    """
    bound = max(abs(n.margin) for n in graph.nodes.values() if n.terminal)
    levels = range(1 - bound, bound + 1)

    def at_least(code: int, k: int) -> str:
        if k <= -bound:
            return "true"
        return "false" if k > bound else _level_name(code, k)

    text = [f"(declare-const {_level_name(code, k)} Bool)" for code in graph.nodes for k in levels]
    for code, node in graph.nodes.items():
        for k in levels:
            if node.terminal:
                definition = _bool(node.margin >= k)
            else:
                definition = f"(or {' '.join(f'(not {at_least(c, 1 - k)})' for c in node.children)})"
            text.append(f"(assert (= {_level_name(code, k)} {definition}))")
    system = ValueEquations(graph, "\n".join(text), {}, bound)
    system.root_value.update(
        win=system.root_at_least(1), draw=system.root_margin_is(0), loss=z3.Not(system.root_at_least(0))
    )
    return system


def _level_name(code: int, k: int) -> str:
    return f"m{code}_ge_{'n' if k < 0 else ''}{abs(k)}"


def _bool(flag: bool) -> str:
    return "true" if flag else "false"


def value_equations(rules: Rules) -> ValueEquations:
    """The minimax equations of `rules`' game graph, enumerated by the encoder itself."""
    graph = enumerate_graph(rules)
    return margin_equations(graph) if rules.goal == "most-lines" else boolean_equations(graph)


def model_value(system: ValueEquations, model: z3.ModelRef) -> tuple[str, int | None]:
    """The root value (and margin) in a model of the equations."""
    word = next(w for w, term in system.root_value.items() if z3.is_true(model.eval(term, model_completion=True)))
    if system.margin_bound is None:
        return word, None
    bound = system.margin_bound
    return word, next(
        k for k in range(-bound, bound + 1) if z3.is_true(model.eval(system.root_margin_is(k), model_completion=True))
    )


def prove_value(
    rules: Rules, claimed_value: str | None = None, claimed_margin: int | None = None, timeout: float = 60.0
) -> SmtResult:
    """Prove the first player's value (and margin) is `claimed_*`, or find it when not given.

    Proved: equations + claim satisfiable, equations + not claim unsatisfiable, every other
    value word unsatisfiable. Refuted: the equations force a different value (reported).
    """
    if claimed_value is not None and claimed_value not in VALUE_WORDS:
        raise ValueError(f"value '{claimed_value}' is not one of {', '.join(VALUE_WORDS)}")
    if claimed_margin is not None and rules.goal != "most-lines":
        raise ValueError("a margin can only be claimed for goal most-lines")
    deadline = Deadline(timeout)
    system = value_equations(rules)
    solver = z3.SolverFor("QF_FD")
    solver.from_string(system.smtlib)
    queries: dict[str, str] = {}
    details: dict[str, object] = {
        "states": len(system.graph),
        "edges": sum(len(n.children) for n in system.graph.nodes.values()),
        "queries": queries,
    }

    def ask(name: str, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        started = deadline.elapsed()
        answer = deadline.check(solver, *assumptions)
        queries[name] = f"{answer} ({deadline.elapsed() - started:.3f} s)"
        return answer

    def done(status: Status, **extra: object) -> SmtResult:
        claim = f"{rules.name}: first player's value is {details.get('claimed', '?')}"
        return SmtResult(claim, status, deadline.elapsed(), {**details, **extra})

    if claimed_value is None:
        answer = ask("equations")
        if answer != z3.sat:
            return done("unknown" if answer == z3.unknown else "refuted", reason="the equations have no solution")
        claimed_value, found_margin = model_value(system, solver.model())
        claimed_margin = found_margin
        details["found_by"] = "z3 model of the equations"
    claim = system.root_value[claimed_value]
    if claimed_margin is not None:
        claim = z3.And(claim, system.root_margin_is(claimed_margin))
    details["claimed"] = claimed_value + ("" if claimed_margin is None else f" (margin {claimed_margin:+d})")
    consistent = ask("equations and claim", claim)
    if consistent == z3.unknown:
        return done("unknown")
    negated = ask("equations and not claim", z3.Not(claim))
    if negated == z3.unknown:
        return done("unknown")
    if negated == z3.sat:
        actual, margin = model_value(system, solver.model())
        return done("refuted", actual=actual, actual_margin=margin)
    if consistent == z3.unsat:
        return done("refuted", reason="the equations have no solution")
    for other in VALUE_WORDS:
        if other != claimed_value:
            answer = ask(f"equations and root {other}", system.root_value[other])
            if answer != z3.unsat:
                return done("unknown" if answer == z3.unknown else "refuted", reason=f"root can be {other}")
    return done("proved")


def cross_check_root(rules: Rules, claimed_value: str, timeout: float) -> SmtResult:
    """Pipeline entry: is `claimed_value` (win/draw/loss, first player) entailed by the rules?"""
    return prove_value(rules, claimed_value, None, timeout)
