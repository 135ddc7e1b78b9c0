"""Every Z3 step runs bounded (issue 19, items 8 and 9): a 4x4 claims file answers within its
--timeout instead of growing for many minutes, and the main job runs under `ulimit -v`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_checker_helpers import REPO

CLAIMS_4X4 = '''source = "t44"
title = "a 4x4 claim: the Z3 cross-check of its value must stay within --timeout"
reference = "test"

[[claim]]
id = "t44.1"
where = "test"
statement = "4x4 three in a row is a first-player win"
kind = "root_value"
game = "mnk:4,4,3"
value = "win"
'''


def certify(*args: str, cwd: Path, limit_kb: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    command = [sys.executable, "-m", "certify", *args]
    if limit_kb is not None:  # the hard limit a shared machine or an HPC login node sets
        command = ["bash", "-c", f'ulimit -v {limit_kb} && exec "$@"', "bash", *command]
    # the timeout guards the suite against the old unbounded run (16 minutes, 14 GB); it measures nothing
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


def test_an_audit_of_a_4x4_claims_file_keeps_its_z3_step_within_the_timeout(tmp_path: Path) -> None:
    (tmp_path / "c44.toml").write_text(CLAIMS_4X4)
    completed = certify("audit", "c44.toml", "--timeout", "1", "--json", cwd=tmp_path)
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode in (0, 1), completed.stderr
    assert "Z3 (root value win): unknown" in completed.stdout


def test_verify_runs_under_a_hard_address_space_limit(tmp_path: Path) -> None:
    completed = certify("verify", "w3t", "--json", cwd=tmp_path, limit_kb=8 * 1024 * 1024)
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert '"z3"' in completed.stdout or "z3" in completed.stdout.lower()


def test_a_z3_command_runs_under_a_hard_address_space_limit(tmp_path: Path) -> None:
    completed = certify("z3", "value", "w3t", "--claim", "win", cwd=tmp_path, limit_kb=8 * 1024 * 1024)
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == 0, completed.stderr[-2000:]
