"""`python -m checker CERT.json [--max-bytes N]`: print one verdict line; exit 0 VALID, 1 INVALID, 2 ERROR."""

import argparse
import sys

from checker import DEFAULT_MAX_BYTES, CheckResult, check_file


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, check the file, print the verdict, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m checker", description=__doc__)
    parser.add_argument("certificate", help="path to a certificate JSON file")
    parser.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES,
                        help=f"refuse files larger than this (default {DEFAULT_MAX_BYTES})")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its usage message
        return 2 if exit_.code else 0
    if args.max_bytes < 0:
        result = CheckResult(2, "ERROR: --max-bytes must not be negative")
    else:
        result = check_file(args.certificate, args.max_bytes)
    sys.stdout.buffer.write(result.message.encode("utf-8", "backslashreplace") + b"\n")
    sys.stdout.flush()
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
