"""`python -m checker CERT.json [--rules-sha256 HEX] [--max-states N] [--max-work N] [--max-bytes N]`.

Prints one line: the verdict on stdout, exit 0 VALID or 1 INVALID; or ERROR on stderr, exit 2 (not a
certificate, or over the budget).
Progress goes to stderr when it is a terminal.
"""

import argparse
import sys
import time

from checker import CheckResult, Limits, check_file

DEFAULTS = Limits()


def progress_printer():  # type: ignore[no-untyped-def]
    """A progress hook writing 'stage, states, elapsed' over one stderr line, or None if not a terminal."""
    if not sys.stderr.isatty():
        return None
    start = time.monotonic()

    def show(stage: str, states: int) -> None:
        sys.stderr.write(f"\r{stage}: {states:,} states, {time.monotonic() - start:.0f} s   ")
        sys.stderr.flush()

    return show


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, check the file, print the verdict, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m checker", description=__doc__.split("\n\n", 1)[1].strip())
    parser.add_argument("certificate", help="path to a certificate JSON file")
    parser.add_argument("--rules-sha256", metavar="HEX",
                        help="INVALID unless the certificate's rules have this sha256 (a prefix of 16+ hex digits)")
    parser.add_argument("--max-states", type=int, metavar="N", default=DEFAULTS.max_states,
                        help=f"work budget: refuse tables of more states (default {DEFAULTS.max_states:,})")
    parser.add_argument("--max-work", type=int, metavar="N", default=DEFAULTS.max_work,
                        help=f"work budget: refuse more states x lines (default {DEFAULTS.max_work:,})")
    parser.add_argument("--max-bytes", type=int, metavar="N", default=DEFAULTS.max_bytes,
                        help=f"refuse files larger than this (default {DEFAULTS.max_bytes:,})")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return 2 if exit_.code else 0
    sha = args.rules_sha256
    if min(args.max_bytes, args.max_states, args.max_work) < 0:
        result = CheckResult(2, "ERROR: --max-bytes, --max-states and --max-work must not be negative")
    elif sha is not None and (len(sha) < 16 or len(sha) > 64 or any(c not in "0123456789abcdefABCDEF" for c in sha)):
        result = CheckResult(2, "ERROR: --rules-sha256 must be 16 to 64 hex digits")
    else:
        progress = progress_printer()
        result = check_file(args.certificate, Limits(args.max_bytes, args.max_states, args.max_work), sha, progress)
        if progress:
            sys.stderr.write("\r\033[K")
    stream = sys.stdout if result.exit_code in (0, 1) else sys.stderr  # an ERROR is not a verdict
    stream.buffer.write(result.message.encode("utf-8", "backslashreplace") + b"\n")
    stream.flush()
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
