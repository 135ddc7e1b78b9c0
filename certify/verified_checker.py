"""The verified checker (verified/, its soundness proved in Rocq), run on a certificate file.

`run(path, limits, rules_sha256)` returns its CheckResult -- exit 0 VALID, 1 INVALID, 2 ERROR, 3
NOT READ (what it does not read: docs/verified-checker.md, "Which certificates it reads") -- or None
when it is not built (`make -C verified`, docs/verified-checker.md). NOT_BUILT says so in one line.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import checker

BINARY = Path(__file__).resolve().parent.parent / "verified" / "check"
NOT_READ = 3
NOT_BUILT = ("the verified checker is not built: run `make -C verified` (needs coqc and ocamlopt: "
             ".ci/install-coq), or set CERTIFY_VERIFIED_CHECK to its path")


def binary() -> Path | None:
    """The built checker: $CERTIFY_VERIFIED_CHECK, else verified/check beside this package; None if absent."""
    path = Path(os.environ.get("CERTIFY_VERIFIED_CHECK", BINARY))
    return path if path.is_file() and os.access(path, os.X_OK) else None


def run(path: Path, limits: checker.Limits = checker.Limits(), rules_sha256: str | None = None,
        timeout: float | None = None) -> checker.CheckResult | None:
    """The verified checker's exit code and one line on `path`, or None when it is not built."""
    found = binary()
    if found is None:
        return None
    options = ["--max-states", str(limits.max_states), "--max-work", str(limits.max_work),
               "--max-bytes", str(limits.max_bytes)]
    if rules_sha256 is not None:
        options += ["--rules-sha256", rules_sha256]
    done = subprocess.run([str(found), str(path), *options], capture_output=True, text=True, timeout=timeout,
                          errors="replace")
    lines = (done.stdout + done.stderr).strip().splitlines()
    return checker.CheckResult(done.returncode, lines[-1] if lines else f"ERROR: no verdict (exit {done.returncode})")
