"""Layer: game families, above the checker — the game interface and each family's rules and engine.

Game families: the interface every family implements (`game`), the registry of families
(`families`), and one package per family (`positional`, `uttt`) with its rules, engine and hooks."""
