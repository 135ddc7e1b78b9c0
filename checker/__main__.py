"""`python -m checker CERT.json [--rules-sha256 HEX] [--max-states N] [--max-work N] [--max-bytes N]`.

Prints one line: the verdict on stdout, exit 0 VALID or 1 INVALID; or ERROR on stderr, exit 2 (not a
certificate, or over the budget).
Progress goes to stderr when it is a terminal.
"""

import argparse
import re
import sys
import time

from checker import Limits, check_file

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


class Parser(argparse.ArgumentParser):
    """argparse with certify's one-line usage errors: `ERROR: --max-states abc: must be a whole number`."""

    def error(self, message: str) -> None:  # type: ignore[override]
        number = re.match(r"argument (\S+): invalid int value: '(.*)'$", message)
        said = f"{number[1]} {number[2]}: must be a whole number" if number else message
        sys.stderr.write(f"ERROR: {said} (see '{self.prog} --help')\n")
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, check the file, print the verdict, return the exit code."""
    parser = Parser(prog="python -m checker", description=__doc__.split("\n\n", 1)[1].strip())
    parser.add_argument("certificate", metavar="CERTIFICATE", help="path to a certificate JSON file")
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
    except SystemExit as exit_:  # argparse has printed its one-line error, or the help
        return 2 if exit_.code else 0
    if not args.certificate:  # an empty path is no file at all, not the current folder
        sys.stderr.write("ERROR: argument CERTIFICATE is empty\n")
        return 2
    progress = progress_printer()
    result = check_file(args.certificate, Limits(args.max_bytes, args.max_states, args.max_work),
                        args.rules_sha256, progress)
    if progress:
        sys.stderr.write("\r\033[K")
    stream = sys.stdout if result.exit_code in (0, 1) else sys.stderr  # an ERROR is not a verdict
    stream.buffer.write(result.message.encode("utf-8", "backslashreplace") + b"\n")
    stream.flush()
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
