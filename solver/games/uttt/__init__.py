"""The Ultimate tic-tac-toe family: its engine (rules, positions, moves) and proof-search hooks."""
