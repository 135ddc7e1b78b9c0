"""The checks: rules, label table, claim, strategies. The first failure raises Invalid."""

import hashlib
import json

from checker.load import Certificate, Claim, Invalid, Strategy, Table
from checker.rules import Game, Node, decode, draw_board, explore, placeable_marks, player_to_move, rules_problem

WORDS = {1: "win", 0: "draw", -1: "loss"}


def state(code: int, nodes: dict[int, Node], cols: int) -> str:
    """'state CODE (BOARD)' for messages."""
    return f"state {code} ({draw_board(nodes[code].board, cols)})"


def rules_hash(raw: dict) -> str:
    """sha256 of the canonical JSON of the rules object, as the format defines it."""
    text = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        raise Invalid("rules hold a string that cannot be encoded as UTF-8") from None


def check_rules(cert: Certificate) -> Game:
    """The rules are well formed and rules_sha256 is their hash; returns the game."""
    rules = cert.rules
    problem = rules_problem(rules.rows, rules.cols, rules.lines, rules.marks, rules.goal)
    if problem:
        raise Invalid(f"rules: {problem}")
    found, expected = cert.rules_sha256, rules_hash(rules.raw)
    if found != expected:
        raise Invalid(f"rules_sha256 expected {expected}, found {ascii(found)[:80]}")
    lines = tuple(tuple(line) for line in rules.lines)
    return Game(rules.rows, rules.cols, lines, rules.marks, rules.goal)


def expected_label(node: Node, labels: dict[int, tuple[int, int, int | None]], most_lines: bool
                   ) -> tuple[int, int, int | None]:
    """(value, distance, margin) of a state: terminal rules, or the minimax of its children's labels."""
    if node.terminal is not None:
        return node.terminal[0], 0, node.terminal[1]
    children = [labels[child] for _, _, child in node.moves]
    value = max(-v for v, _, _ in children)
    if value == 1:
        distance = 1 + min(d for v, d, _ in children if v == -1)
    elif value == -1:
        distance = 1 + max(d for _, d, _ in children)
    else:
        distance = 1 + max(d for v, d, _ in children if v == 0)
    margin = max(-m for _, _, m in children) if most_lines else None  # type: ignore[operator]
    return value, distance, margin


def check_table(table: Table, game: Game, nodes: dict[int, Node]) -> dict[int, tuple[int, int, int | None]]:
    """Codes ascending and exactly the reachable states; every label as the rules and minimax say."""
    codes = table.codes
    for index in range(1, len(codes)):
        if codes[index] <= codes[index - 1]:
            raise Invalid(f"table.codes not strictly ascending at index {index}: "
                          f"{codes[index]} follows {codes[index - 1]}")
    listed = set(codes)
    if listed != nodes.keys():
        missing = sorted(nodes.keys() - listed)[:1]
        truncated = len(nodes) > len(codes)  # explore() stopped early: only "missing" is known
        extra = [] if truncated else sorted(listed - nodes.keys())[:1]
        if missing and (not extra or missing[0] < extra[0]):
            raise Invalid(f"table misses reachable {state(missing[0], nodes, game.cols)}")
        board = draw_board(decode(extra[0], game.cells), game.cols) if extra[0] < 3**game.cells else "no board"
        raise Invalid(f"table lists state {extra[0]} ({board}), which is not reachable from the empty board")
    most_lines = game.goal == "most-lines"
    if most_lines and table.margins is None:
        raise Invalid("table.margins is null, but goal most-lines needs margins")
    if not most_lines and table.margins is not None:
        raise Invalid(f"table.margins must be null for goal {game.goal}")
    margins = table.margins if table.margins is not None else [None] * len(codes)
    labels = {}
    for index in range(len(codes) - 1, -1, -1):  # children have larger codes: check them first
        code = codes[index]
        found = (table.values[index], table.distances[index], margins[index])
        expected = expected_label(nodes[code], labels, most_lines)
        for name, want, got in zip(("value", "distance", "margin"), expected, found):
            if want != got:
                kind = "terminal" if nodes[code].terminal is not None else "non-terminal"
                raise Invalid(f"{kind} {state(code, nodes, game.cols)}: {name} expected {want}, found {got}")
        labels[code] = found
    return labels


def check_claim(claim: Claim, game: Game, nodes: dict[int, Node], labels: dict) -> None:
    """Root value and margin, and the complete first-move list, agree with the (verified) table."""
    root_value, _, root_margin = labels[0]
    if claim.root_value != WORDS[root_value]:
        raise Invalid(f"claim.root_value expected {WORDS[root_value]!r}, found {ascii(claim.root_value)[:40]}")
    if claim.root_margin != root_margin:
        raise Invalid(f"claim.root_margin expected {root_margin}, found {claim.root_margin}")
    expected = [(cell, mark, WORDS[-labels[child][0]]) for cell, mark, child in nodes[0].moves]
    for index in range(max(len(expected), len(claim.first_moves))):
        want = expected[index] if index < len(expected) else "no entry"
        got = claim.first_moves[index] if index < len(claim.first_moves) else "no entry"
        if want != got:
            raise Invalid(f"claim.first_moves[{index}] (cell, mark, value) expected {want}, found {ascii(got)[:80]}")


def check_strategy_set(strategies: list[Strategy], root_value: int) -> None:
    """Win: one strategy for the winner; draw: one no-loss strategy per player."""
    found = sorted((s.player, s.guarantees) for s in strategies)
    if root_value == 0:
        expected = [(1, "no-loss"), (2, "no-loss")]
    else:
        expected = [(1 if root_value == 1 else 2, "win")]
    if found != expected:
        raise Invalid(f"root value is {WORDS[root_value]}: strategies (player, guarantees) "
                      f"expected {expected}, found {ascii(found)[:120]}")


def check_strategy(index: int, strategy: Strategy, game: Game, nodes: dict[int, Node]) -> None:
    """Entries are exactly the states the strategy reaches, moves legal, every play ends as guaranteed."""
    where = f"strategies[{index}] (player {strategy.player}, {strategy.guarantees})"
    codes = strategy.codes
    for i in range(1, len(codes)):
        if codes[i] <= codes[i - 1]:
            raise Invalid(f"{where}: codes not strictly ascending at index {i}: {codes[i]} follows {codes[i - 1]}")
    moves = {code: (cell, mark) for code, cell, mark in zip(codes, strategy.cells, strategy.marks)}
    worst = 1 if strategy.guarantees == "win" else 0
    player, visited, stack, used = strategy.player, {0}, [0], set()
    while stack:
        code = stack.pop()
        node = nodes[code]
        if node.terminal is not None:
            mover = player_to_move(node.board)
            result = node.terminal[0] if mover == player else -node.terminal[0]
            if result < worst:
                raise Invalid(f"{where}: play reaches terminal {state(code, nodes, game.cols)}, "
                              f"a {WORDS[result]} for player {player}")
            continue
        if player_to_move(node.board) == player:
            if code not in moves:
                raise Invalid(f"{where}: no entry for reachable {state(code, nodes, game.cols)}")
            cell, mark = moves[code]
            used.add(code)
            if cell >= game.cells or node.board[cell] or mark not in placeable_marks(game.marks, player):
                raise Invalid(f"{where}: illegal move (cell {cell}, mark {mark}) in {state(code, nodes, game.cols)}")
            children = [code + mark * 3**cell]
        else:
            children = [child for _, _, child in node.moves]
        for child in children:
            if child not in visited:
                visited.add(child)
                stack.append(child)
    extra = sorted(set(moves) - used)
    if extra:
        shown = state(extra[0], nodes, game.cols) if extra[0] in nodes else f"state {extra[0]}"
        raise Invalid(f"{where}: entry for {shown}, which the strategy never reaches")


def verify(cert: Certificate) -> str:
    """Run every check; return the summary '<N> states, <E> edges, root <value>[ margin m], <S> strategies'."""
    game = check_rules(cert)
    nodes = explore(game, limit=cert.table.states)  # more states than listed: some are missing
    labels = check_table(cert.table, game, nodes)
    check_claim(cert.claim, game, nodes, labels)
    root_value, _, root_margin = labels[0]
    check_strategy_set(cert.strategies, root_value)
    for index, strategy in enumerate(cert.strategies):
        check_strategy(index, strategy, game, nodes)
    edges = sum(len(node.moves) for node in nodes.values())
    margin = "" if root_margin is None else f" margin {root_margin}"
    return (f"{len(nodes)} states, {edges} edges, root {WORDS[root_value]}{margin}, "
            f"{len(cert.strategies)} strategies checked")
