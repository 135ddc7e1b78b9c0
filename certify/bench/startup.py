"""`certify bench --suite startup`: whole-process times of small commands beside `python -c pass`.

Startup is what a user waits for on every command; it is dominated by imports, so it is measured
as whole processes (interpreter start included), each run in a fresh process, with its peak RSS.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TARGETS = {"certify --help": 0.30, "certify solve w3t -o FILE": 0.35}


def certify_command() -> list[str]:
    """The installed `certify` script beside this interpreter, else `python -m certify`."""
    script = Path(sys.executable).parent / "certify"
    return [str(script)] if script.exists() else [sys.executable, "-m", "certify"]


# Runs one command and prints its wall time and peak RSS. A child's peak RSS includes the memory of
# the process it was forked from, so the command is started from this small interpreter, not from
# certify itself (whose numpy and rich would otherwise be counted).
LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one process, output discarded; raises if it fails."""
    out = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, *argv], capture_output=True, text=True, check=True).stdout
    wall, rss_kb, code = out.split()
    if int(code) != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {code}")
    return float(wall), int(rss_kb) / 1024


def startup_benchmark(repeat: int) -> list[dict]:
    """Each command `repeat` times after one warm-up, in turn (so machine noise hits all alike)."""
    with tempfile.TemporaryDirectory() as tmp:
        certify = certify_command()
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "certify --help": [*certify, "--help"],
            "certify solve w3t -o FILE": [*certify, "solve", "w3t", "-o", str(Path(tmp) / "w3t.json")],
        }
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for name, argv in commands.items():
            run_once(argv)  # warm the file cache
        for _ in range(repeat):
            for name, argv in commands.items():
                runs[name].append(run_once(argv))
    baseline = statistics.median(wall for wall, _ in runs["python -c pass"])
    rows = []
    for name, measured in runs.items():
        walls = [wall for wall, _ in measured]
        rows.append({
            "command": name,
            "runs": len(walls),
            "median_s": statistics.median(walls),
            "best_s": min(walls),
            "over_python_s": statistics.median(walls) - baseline,
            "peak_rss_mb": max(rss for _, rss in measured),
            "target_s": TARGETS.get(name),
        })
    return rows
