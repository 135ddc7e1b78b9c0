"""Layer: benchmarks, above the claims audits — `certify bench`, one module per suite.

Benchmarks (`certify bench`): one module per suite, each measuring its rows in one run."""
