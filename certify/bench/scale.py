"""The scale benchmark: `certify solve` beside the C speed peer `mnk.c` on the 4×4 boards.

The peer is a plain single-core C memoised DFS kept outside the project (`../shared/bench/mnk.c`);
it is compiled with `gcc -O2` into a temporary directory for each run, never copied in. Both
programs run as whole processes, one after the other on each board, so their ratio is measured
in the same run on the same (possibly shared, noisy) machine. Wall time comes from the clock
around each process; CPU time (user + system) and peak resident memory from the kernel's
accounting of that child alone (`os.wait4`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

SCALE_BOARDS = tuple(
    f"mnk:4,4,{k}{flags}" for k in (3, 4) for flags in ("", ",misere", ",wild", ",wild,misere")
)
TARGET_RATIO = 1.5  # issue 9: certify solve (certificate written) within 1.5x of mnk.c
VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


class PeerError(Exception):
    """The peer cannot be built or run, or a board is not one it solves; one line."""


@dataclass(frozen=True)
class ProcessRun:
    """One whole process: exit code, seconds, peak memory and what it printed."""

    exit_code: int
    wall_s: float
    cpu_s: float  # user + system
    peak_rss_mb: float
    stdout: str
    stderr: str


@dataclass(frozen=True)
class PeerResult:
    """What mnk.c printed: reachable states, edges, root value and first-move values."""

    states: int
    edges: int
    root: int  # for the side to move: 1 win, 0 draw, -1 loss
    first_moves: list[tuple[int, int, int]]  # (cell, mark, value for the mover)


def default_peer_source(name: str = "mnk.c") -> Path | None:
    """`shared/bench/NAME` beside the repository (or beside its worktree folder), if present."""
    root = Path(__file__).resolve().parents[2]
    for base in (root.parent, root.parent.parent, Path.cwd().parent):
        candidate = base / "shared" / "bench" / name
        if candidate.is_file():
            return candidate
    return None


def build_peer(source: Path, directory: Path) -> Path:
    """Compile `source` with `gcc -O2` into `directory`; raises PeerError with the reason."""
    if not source.is_file():
        raise PeerError(f"peer source {source} not found (pass --peer-source PATH to mnk.c)")
    gcc = shutil.which("gcc")
    if gcc is None:
        raise PeerError("gcc not found: the C peer cannot be built")
    binary = directory / source.stem
    done = subprocess.run([gcc, "-O2", "-o", str(binary), str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PeerError(f"gcc -O2 {source} failed: {last}")
    return binary


def peer_arguments(game: str) -> list[str]:
    """`mnk:R,C,K[,wild][,misere]` → mnk.c's `R C K MODE`; raises PeerError for other games."""
    parts = [p.strip() for p in game.removeprefix("mnk:").split(",")]
    if not game.startswith("mnk:") or len(parts) < 3 or not all(p.isdigit() for p in parts[:3]):
        raise PeerError(f"'{game}': the C peer solves mnk:R,C,K[,wild][,misere] games only")
    flags = set(parts[3:])
    if not flags <= {"wild", "misere"} or int(parts[0]) > 4 or int(parts[1]) > 4:
        raise PeerError(f"'{game}': the C peer solves boards up to 4x4 with the options wild, misere")
    mode = ("wild" if "wild" in flags else "") + ("misere" if "misere" in flags else "")
    return [*parts[:3], mode or "classic"]


_PEER_LINE = re.compile(r"reachable (\d+) edges (\d+) root (-?\d+)")
_PEER_MOVE = re.compile(r"(\d+):(\d+)=(-?\d+)")


def parse_peer(stdout: str) -> PeerResult:
    """Read mnk.c's two output lines; raises PeerError if they are not there."""
    summary = _PEER_LINE.search(stdout)
    moves_line = next((line for line in stdout.splitlines() if line.startswith("first moves")), None)
    if summary is None or moves_line is None:
        raise PeerError(f"unexpected peer output: {stdout.strip()[:120]!r}")
    states, edges, root = (int(g) for g in summary.groups())
    moves = [tuple(int(g) for g in m.groups()) for m in _PEER_MOVE.finditer(moves_line.split(":", 1)[1])]
    return PeerResult(states, edges, root, moves)  # type: ignore[arg-type]


def run_process(argv: list[str]) -> ProcessRun:
    """Run `argv` to completion and measure it (its own rusage, not this process's)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return ProcessRun(
            exit_code=process.returncode,
            wall_s=wall,
            cpu_s=usage.ru_utime + usage.ru_stime,
            peak_rss_mb=usage.ru_maxrss / 1024,  # Linux reports KiB
            stdout=out.read().decode(errors="replace"),
            stderr=err.read().decode(errors="replace"),
        )


def run_peer(binary: Path, game: str) -> tuple[ProcessRun, PeerResult]:
    """Solve `game` with the compiled peer."""
    run = run_process([str(binary), *peer_arguments(game)])
    if run.exit_code != 0:
        raise PeerError(f"peer exited {run.exit_code} on {game}")
    return run, parse_peer(run.stdout)


def run_certify(game: str, output: Path) -> tuple[ProcessRun, dict]:
    """`certify solve GAME -o OUTPUT --json` as its own process, with its JSON summary."""
    run = run_process([sys.executable, "-m", "certify", "solve", game, "-o", str(output), "--json"])
    if run.exit_code != 0:
        last = (run.stderr.strip().splitlines() or ["no message"])[-1]
        raise PeerError(f"certify solve {game} exited {run.exit_code}: {last}")
    return run, json.loads(run.stdout)


def scale_benchmark(
    boards: tuple[str, ...] | list[str], source: Path, on_board: Callable[[str], None] | None = None
) -> list[dict]:
    """For each board: the peer, then `certify solve` with its certificate written; one row each."""
    for game in boards:
        peer_arguments(game)  # refuse a board the peer cannot solve before any work
    rows = []
    with tempfile.TemporaryDirectory(prefix="certify-scale-") as tmp:
        binary = build_peer(source, Path(tmp))
        for game in boards:
            if on_board:
                on_board(game)
            peer_run, peer = run_peer(binary, game)
            certificate = Path(tmp) / "certificate.json"
            ours_run, summary = run_certify(game, certificate)
            certificate.unlink()
            rows.append(
                {
                    "board": game,
                    "states": summary["states"],
                    "peer_states": peer.states,
                    "peer_edges": peer.edges,
                    "root_value": summary["root_value"],
                    "peer_root_value": VALUE_WORDS[peer.root],
                    "agree": summary["states"] == peer.states and summary["root_value"] == VALUE_WORDS[peer.root],
                    "certify": _measures(ours_run),
                    "peer": _measures(peer_run),
                    "wall_ratio": ours_run.wall_s / peer_run.wall_s,
                    "cpu_ratio": ours_run.cpu_s / peer_run.cpu_s,
                }
            )
    return rows


def _measures(run: ProcessRun) -> dict:
    """The figures of one process for the report."""
    return {k: v for k, v in asdict(run).items() if k in ("wall_s", "cpu_s", "peak_rss_mb")}
