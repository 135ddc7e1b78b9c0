"""Benchmarks (`certify bench`): one module per suite, each measuring its rows in one run."""
