"""Policy specs: built-in names, module:function, JSON tables; every failure one PolicySpecError."""

from __future__ import annotations

import pytest

from certify.players.load import PolicySpecError, load_policy, table_policy
from certify.players.registry import builtin_policies
from certify.policy.registry import uniform_random
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import resolve

RULES = resolve("tictactoe")


def test_a_dotted_module_function_is_the_function_itself():
    assert load_policy("certify.policy.registry:uniform_random", RULES) is uniform_random


@pytest.mark.parametrize("name", sorted(set(builtin_policies()) - {"td-tcd", "td-random", "td-zero"}))
def test_every_builtin_plays_a_legal_first_move(name):
    game = Game(RULES)
    moves = load_policy(name, RULES)(game, 0)
    assert moves and set(moves) <= set(game.legal_moves(0))


def test_a_table_plays_what_it_lists_and_fails_where_it_lists_nothing():
    policy = table_policy({0: (Move(4, 1),)})
    assert policy(Game(RULES), 0) == (Move(4, 1),)
    with pytest.raises(LookupError, match="no entry for state 1"):
        policy(Game(RULES), 1)


def test_a_table_key_outside_the_board_is_refused(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"19683": [[0, 1]]}')  # 3**9: one past the last 3x3 code
    with pytest.raises(PolicySpecError, match="not a state code"):
        load_policy(str(path), RULES)


def test_a_module_that_fails_on_import_is_one_line(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("raise SystemError('at import')\n")
    with pytest.raises(PolicySpecError, match="SystemError: at import"):
        load_policy(f"{path}:f", RULES)
