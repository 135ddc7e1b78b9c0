"""`python -m certify` is the `certify` command."""

from certify.cli import main

main()
