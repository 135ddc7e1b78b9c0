"""Z3 witnesses are canonical: the same question gives the same counterexample or pairing in any
process, and the counterexample is the lexicographically smallest violating play (checked by
plain enumeration, independently of Z3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from certify.claims.pairings import first_serving_pairing
from certify.smt.bmc import check_side
from certify.smt.pairing import Pairing, PairingStrategy, obeys, search_pairings
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

ROOT = Path(__file__).resolve().parents[1]
# seed 004, Appendix A.2: player 1 opens in the centre and pairs 1-2, 3-6, 4-7, 8-9 (0-based below)
CENTRE_PAIRING = PairingStrategy(1, Pairing(((0, 1), (2, 5), (3, 6), (7, 8))), opening=4)


def first_violating_play(game_name: str, strategy: PairingStrategy) -> list[Move] | None:
    """The first play in (cell, mark) order that the strategy allows and that ends with a line."""
    rules = resolve(game_name)
    game = Game(rules)

    def walk(state: int, history: list[Move]) -> list[Move] | None:
        if game.is_terminal(state):
            board = game.board(state)
            lined = any(len({board[c] for c in line}) == 1 and board[line[0]] for line in rules.lines)
            return history if lined else None
        for move in sorted(game.legal_moves(state), key=lambda m: (m.cell, m.mark)):
            if obeys(rules, strategy, history + [move]):
                found = walk(game.apply(state, move), history + [move])
                if found is not None:
                    return found
        return None

    return walk(game.initial(), [])


def test_a_counterexample_is_the_smallest_violating_play_and_does_not_depend_on_history() -> None:
    rules = resolve("cumulative")
    first = check_side(rules, CENTRE_PAIRING, "no-lines")
    check_side(rules, CENTRE_PAIRING, "draw")  # other queries in between must not change the answer
    again = check_side(rules, CENTRE_PAIRING, "no-lines")
    assert first.status == "refuted"
    moves = [Move(m.cell, m.mark) for m in first.counterexample or ()]
    assert moves == first_violating_play("cumulative", CENTRE_PAIRING)
    assert first.counterexample == again.counterexample


def test_a_found_pairing_is_the_same_in_a_fresh_process() -> None:
    code = (
        "from certify.smt.pairing import search_pairings; from solver.games.positional.rules import resolve; "
        "o = search_pairings(resolve('cumulative'), 'both', 'draw', 4); "
        "print(o.found.pairing.text(), o.found.opening)"
    )
    fresh = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert fresh.returncode == 0, fresh.stderr
    search_pairings(resolve("cumulative"), "1", "no-loss")  # leave Z3 in another state first
    here = search_pairings(resolve("cumulative"), "both", "draw", 4)
    assert here.found is not None
    assert fresh.stdout.split() == [here.found.pairing.text(), str(here.found.opening)]
    # plain enumeration (solving the game under each pairing in the same order) agrees
    plain = first_serving_pairing(solve(resolve("cumulative")), "draw", "every", 4)
    assert plain == (here.found.pairing, here.found.opening)
