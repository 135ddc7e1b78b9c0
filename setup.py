"""The compiled df-pn (docs/proof-search.md): one C extension, built by `pip install -e .`.

Everything else about the package is in pyproject.toml; setuptools reads both.
"""

import platform
import re
from pathlib import Path

from setuptools import Extension, setup


def machine_flags() -> list[str]:
    """`-mpopcnt` where the machine building the extension has the instruction (every x86-64 CPU
    since 2008; the extension is built where it runs, by `pip install -e .`): without it each
    popcount is a call into libgcc, and the pairing closure counts cells in its inner loops
    (`certify prove mnk:8,8,5 --claim no-loss --player 2 --pairings --max-nodes 3000`: 8.9-9.5 s
    user without, 6.3-6.7 s with; docs/benchmarks.md)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    return ["-mpopcnt"] if re.search(r"^flags\s*:.*\bpopcnt\b", cpuinfo, re.MULTILINE) else []


setup(ext_modules=[Extension(
    "solver.search._dfpn",
    sources=["solver/search/dfpn.c", "solver/games/kernels.c", "solver/games/positional/kernel.c",
             "solver/games/uttt/kernel.c"],
    depends=["solver/search/dfpn.h"],
    extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-missing-field-initializers",
                        *machine_flags()],
)])
