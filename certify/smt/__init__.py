"""Layer: Z3 cross-checks and pairings, above proving — SMT proofs, pairing search and pairing certificates.

Cross-checks with the Z3 SMT solver, independent of the numpy solver.

`graph` enumerates the game graph from the rules on its own; `value` proves the root value from
the minimax equations; `bmc` proves fixed strategies over every play by bounded model checking;
`pairing` checks and searches pairing strategies. Every result is a `result.SmtResult`.
"""
