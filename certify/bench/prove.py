"""`certify bench --suite prove`: proof search and strategy certificates, measured in one run.

Each proof runs once (proofs are long; the ratios between rows are what compare): search time,
expansions, nodes/s, peak memory, certificate size, and the independent checker's time. Then the
compiled df-pn beside its C peer `pns.c` (kept outside the project, built with gcc -O2 into a
temporary directory for the run): node rates on the same claims, in turn, and the extension's
load time in a fresh interpreter. Then the k = 4 frontier against issue 21's targets: whole
`certify prove` and `python -m checker` processes, their wall time and peak memory. Last, knowledge
against the peer (issue 35): whole `certify prove --pairings` processes (the compiled search with
the family's compiled closure) beside whole pns.c processes on the same claims, in turn.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import checker
from certify.bench.scale import PeerError, build_peer
from certify.record.budget import proof_limits
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim

PROVE_SUITE = [  # (game, player, claim)
    ("tictactoe", 1, "no-loss"),
    ("tictactoe", 2, "no-loss"),
    ("mnk:3,3,3,misere", 1, "no-loss"),
    ("mnk:3,3,3,misere", 2, "no-loss"),
    ("mnk:4,4,3", 1, "win"),
    ("mnk:3,4,3,misere", 2, "win"),
]


@dataclass(frozen=True)
class ProofRun:
    """One measured proof."""

    game: str
    player: int
    claim: str
    status: str
    nodes: int
    seconds: float
    nodes_per_second: float
    peak_rss_mb: float
    prover_moves: int
    positions: int
    certificate_bytes: int
    check_seconds: float
    verdict: str
    core: str  # the df-pn `certify prove` chose: native where the game has a compiled kernel


def prove_benchmarks(suite: list[tuple[str, int, str]] | list[tuple[str, int, str, int]] = PROVE_SUITE) -> list[dict]:
    """Prove each claim (a fourth item: within that many plies), check its certificate, and record the figures."""
    rows = []
    for game_text, player, result, *within in suite:
        attempt = prove(resolve_game(game_text), Claim(player, result, *within))
        outcome = attempt.outcome
        text = attempt.text or ""
        check_seconds, verdict = 0.0, "no certificate"
        if text:
            start = time.perf_counter()
            verdict = checker.check_document(json.loads(text)).message
            check_seconds = time.perf_counter() - start
        rows.append(asdict(ProofRun(
            game=game_text, player=player, claim=result, status=outcome.status, nodes=outcome.nodes,
            seconds=round(attempt.seconds, 3),
            nodes_per_second=round(outcome.nodes / outcome.seconds) if outcome.seconds else 0.0,
            peak_rss_mb=round(outcome.peak_rss_mb, 1),
            prover_moves=len(attempt.tree.moves) - len(attempt.tree.closures) if attempt.tree else 0,  # a closure's CLOSE is no move
            positions=attempt.tree.positions if attempt.tree else 0,
            certificate_bytes=len(text.encode()), check_seconds=round(check_seconds, 3), verdict=verdict.split()[0],
            core=attempt.core,
        )))
    return rows


NATIVE_SUITE = [(game, player, "no-loss") for game in ("mnk:4,4,4", "mnk:4,5,4") for player in (1, 2)]
TARGET_RATIO = 2.0  # issue 21: the compiled df-pn's node rate within 2x of the C peer pns.c
_PEER_LINE = re.compile(r": (\S+( budget)?) nodes (\d+) seconds ([\d.]+) nodes/s ([\d.]+)")


@dataclass(frozen=True)
class NativeRun:
    """One claim searched by the compiled df-pn and by the C peer pns.c, in turn."""

    game: str
    player: int
    claim: str
    status: str
    nodes: int
    seconds: float
    nodes_per_second: float
    peak_rss_mb: float
    entries: int
    table_mb: float
    peer_status: str
    peer_nodes: int
    peer_seconds: float
    peer_nodes_per_second: float
    peer_over_native: float  # the peer's node rate over ours: the target is at most TARGET_RATIO


def native_load_seconds() -> float:
    """Seconds to import the extension in a fresh interpreter (beyond the interpreter's own start)."""
    code = "import time; t = time.perf_counter(); import solver.search._dfpn; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def run_pns(binary: Path, arguments: list[str]) -> tuple[str, int, float, float]:
    """(status, nodes, seconds, nodes/s) of one pns.c search; raises PeerError."""
    done = subprocess.run([str(binary), *arguments], capture_output=True, text=True)
    match = _PEER_LINE.search(done.stdout)
    if match is None:
        raise PeerError(f"pns.c printed no result for {' '.join(arguments)[:80]} ({done.stderr.strip()[:80]})")
    return match.group(1), int(match.group(3)), float(match.group(4)), float(match.group(5))


def run_pns_peer(binary: Path, game: str, player: int, claim: str) -> tuple[str, int, float, float]:
    """(status, nodes, seconds, nodes/s) of pns.c on an `mnk:R,C,K` claim; raises PeerError."""
    return run_pns(binary, ["mnk", *game.removeprefix("mnk:").split(","), claim, str(player)])


def native_benchmarks(peer_source: Path, suite: list[tuple[str, int, str]] = NATIVE_SUITE) -> list[dict]:
    """Each claim searched by the compiled df-pn (search only, no certificate), then by pns.c
    built with gcc -O2 into a temporary directory; raises PeerError if the peer cannot be built."""
    from solver.search.native import NativeProofSearch

    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        binary = build_peer(peer_source, Path(scratch))
        for game_text, player, result in suite:
            game = resolve_game(game_text)
            search = NativeProofSearch(game, Claim(player, result), game.search_hooks())
            outcome = search.search(game.initial())
            rate = outcome.nodes / outcome.seconds if outcome.seconds else 0.0
            table_mb = search.table_bytes / 2**20
            del search  # free the table before the peer runs
            peer_status, peer_nodes, peer_seconds, peer_rate = run_pns_peer(binary, game_text, player, result)
            rows.append(asdict(NativeRun(
                game=game_text, player=player, claim=result, status=outcome.status, nodes=outcome.nodes,
                seconds=round(outcome.seconds, 3), nodes_per_second=round(rate), peak_rss_mb=round(outcome.peak_rss_mb, 1),
                entries=outcome.entries, table_mb=round(table_mb, 1), peer_status=peer_status, peer_nodes=peer_nodes,
                peer_seconds=peer_seconds, peer_nodes_per_second=round(peer_rate),
                peer_over_native=round(peer_rate / rate, 2) if rate else 0.0,
            )))
    return rows


# issue 21's k = 4 targets: (game, player, claim, seconds a whole `certify prove` may take)
FRONTIER_SUITE = [("mnk:4,5,4", player, "no-loss", 60.0) for player in (1, 2)] + [
    ("mnk:5,5,4", player, "no-loss", 1800.0) for player in (1, 2)]
FRONTIER_PROVE_MB = 4096.0  # peak memory of a whole `certify prove`
FRONTIER_CHECK_SECONDS, FRONTIER_CHECK_MB = 1800.0, 2048.0  # the stdlib checker on its certificate


@dataclass(frozen=True)
class FrontierRun:
    """One k = 4 claim: `certify prove` and then `python -m checker` on its file, each a fresh process."""

    game: str
    player: int
    claim: str
    prove_seconds: float
    prove_peak_mb: float
    prove_target_s: float
    positions: int
    certificate_bytes: int
    check_seconds: float
    check_peak_mb: float
    verdict: str
    target_met: bool


# Runs a module as `python -m` would, then writes its own peak RSS (VmHWM, kB) to argv[1]: the
# process's own figure after exec, which rusage of a child is not (it counts the parent's pages
# that the child held between fork and exec).
_PEAK_LAUNCHER = """import atexit, runpy, sys
out, module = sys.argv[1], sys.argv[2]
def peak():
    with open('/proc/self/status') as status, open(out, 'w') as f:
        f.write(next(line for line in status if line.startswith('VmHWM')).split()[1])
atexit.register(peak)
sys.argv = [module] + sys.argv[3:]
runpy.run_module(module, run_name='__main__', alter_sys=True)
"""


def timed_process(module: str, arguments: list[str]) -> tuple[int, str, float, float]:
    """(exit code, stdout, wall seconds, peak RSS in MB) of `python -m module arguments` run to its end."""
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _PEAK_LAUNCHER, str(peak_file), module, *arguments],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        seconds = time.perf_counter() - start
        peak = int(peak_file.read_text()) / 1024 if peak_file.is_file() else 0.0
        return done.returncode, done.stdout, seconds, peak


def frontier_benchmarks(suite: list[tuple[str, int, str, float]] = FRONTIER_SUITE) -> list[dict]:
    """Each claim proved by a whole `certify prove` (the compiled df-pn, as a user runs it) and its
    certificate checked by `python -m checker` with the budget raised to fit, against the targets."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for game, player, result, target_s in suite:
            path = Path(scratch) / "proof.json"
            code, _, seconds, peak = timed_process("certify", ["prove", game, "--claim", result, "--player", str(player),
                                                               "-o", str(path), "--force"])
            positions = size = 0
            check_seconds = check_peak = 0.0
            verdict = f"not proved (exit {code})"
            if code == 0:
                document = json.loads(path.read_text(encoding="utf-8"))
                positions, size = document["proof"]["positions"], path.stat().st_size
                limits = proof_limits(document)
                _, out, check_seconds, check_peak = timed_process(
                    "checker", [str(path), "--max-states", str(limits.max_states), "--max-work", str(limits.max_work)])
                verdict = out.split()[0] if out.split() else "no verdict"
            met = (verdict == "VALID" and seconds <= target_s and peak <= FRONTIER_PROVE_MB
                   and check_seconds <= FRONTIER_CHECK_SECONDS and check_peak <= FRONTIER_CHECK_MB)
            rows.append(asdict(FrontierRun(
                game=game, player=player, claim=result, prove_seconds=round(seconds, 2), prove_peak_mb=round(peak),
                prove_target_s=target_s, positions=positions, certificate_bytes=size, check_seconds=round(check_seconds, 2),
                check_peak_mb=round(check_peak), verdict=verdict, target_met=met)))
    return rows


# issue 35: a no-loss search that closes by pairings, whole processes, at least KNOWLEDGE_RATIO times
# faster than the blind peer pns.c on the same claims
KNOWLEDGE_SUITE = [(game, 2, "no-loss") for game in ("mnk:4,5,4", "mnk:5,5,4", "mnk:4,6,4")]
KNOWLEDGE_RATIO = 3.0
PEER_SECONDS = 900.0  # pns.c's budget per claim: out of it, its time is a lower bound (the ratio too)


@dataclass(frozen=True)
class KnowledgeRun:
    """One claim: `certify prove --pairings` and its checker, then pns.c, each a whole process, in turn."""

    game: str
    player: int
    claim: str
    prove_seconds: float
    prove_peak_mb: float
    nodes: int
    positions: int
    closures: int
    check_seconds: float
    verdict: str
    peer_status: str  # pns.c's: proved, disproved, or its budget ran out (its time then a lower bound)
    peer_nodes: int
    peer_seconds: float  # the whole process, wall (its 1 GB table allocated and touched included)
    peer_search_seconds: float  # pns.c's own figure: the search alone
    peer_over_certify: float  # whole process over whole process: the target
    peer_search_over_certify: float  # the peer's search alone over certify's whole process
    target_met: bool


def knowledge_benchmarks(peer_source: Path, suite: list[tuple[str, int, str]] = KNOWLEDGE_SUITE,
                         peer_seconds: float = PEER_SECONDS) -> list[dict]:
    """Each claim proved by a whole `certify prove --pairings`, its file checked by `python -S -m
    checker`, then searched by a whole pns.c process (built with gcc -O2 for the run); raises PeerError."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        binary = build_peer(peer_source, Path(scratch))
        path = Path(scratch) / "proof.json"
        for game, player, result in suite:
            code, out, seconds, peak = timed_process("certify", ["prove", game, "--claim", result, "--player", str(player),
                                                               "--pairings", "-o", str(path), "--force", "--json"])
            report = json.loads(out) if code == 0 else {}
            verdict, check_seconds, closures = f"not proved (exit {code})", 0.0, 0
            if code == 0:
                document = json.loads(path.read_text(encoding="utf-8"))
                closures = document["proof"].get("closures", 0)
                limits = proof_limits(document)
                start = time.perf_counter()
                checked = subprocess.run([sys.executable, "-S", "-m", "checker", str(path), "--max-states",
                                          str(limits.max_states), "--max-work", str(limits.max_work)],
                                         capture_output=True, text=True, cwd=Path(checker.__file__).resolve().parents[1])
                check_seconds = time.perf_counter() - start
                verdict = checked.stdout.split()[0] if checked.stdout.split() else "no verdict"
            start = time.perf_counter()
            peer_status, peer_nodes, peer_search, _ = run_pns(binary, ["mnk", *game.removeprefix("mnk:").split(","), result,
                                                             str(player), "-t", str(peer_seconds)])
            peer_wall = time.perf_counter() - start
            ratio = peer_wall / seconds if seconds else 0.0
            rows.append(asdict(KnowledgeRun(
                game=game, player=player, claim=result, prove_seconds=round(seconds, 2), prove_peak_mb=round(peak),
                nodes=report.get("nodes", 0), positions=report.get("positions", 0), closures=closures,
                check_seconds=round(check_seconds, 2), verdict=verdict, peer_status=peer_status, peer_nodes=peer_nodes,
                peer_seconds=round(peer_wall, 2), peer_search_seconds=peer_search, peer_over_certify=round(ratio, 1),
                peer_search_over_certify=round(peer_search / seconds, 1) if seconds else 0.0,
                target_met=verdict == "VALID" and ratio >= KNOWLEDGE_RATIO)))
    return rows


POLICY_NODES = 300_000  # per search: enough for a steady node rate, a few seconds each


def none_named(game: Any, state: Any) -> tuple[()]:
    """A policy that names no move: what calling a policy back costs, the search unchanged."""
    return ()


def policy_cost_benchmarks(nodes: int = POLICY_NODES) -> list[dict]:
    """The compiled df-pn on `uttt:open`, player 1 wins, from the empty board, one node budget each,
    in turn: the kernel's candidates, a policy naming nothing (the callback's cost alone, the same
    nodes), and certify.papers.bertholon:open_rules_plan (docs/proof-search.md, Policies)."""
    from certify.papers.bertholon import open_rules_plan
    from solver.search.native import NativeProofSearch
    from solver.search.policy import PolicyHooks

    game = resolve_game("uttt:open")
    modes = [("kernel candidates", None), ("a policy naming nothing", none_named),
             ("bertholon:open_rules_plan", open_rules_plan)]
    rows: list[dict] = []
    for mode, policy in modes:
        hooks = game.search_hooks() if policy is None else PolicyHooks(game, policy, game.search_hooks())
        outcome = NativeProofSearch(game, Claim(1, "win"), hooks).search(game.initial(), max_nodes=nodes)
        rate = outcome.nodes / outcome.seconds if outcome.seconds else 0.0
        rows.append({"mode": mode, "nodes": outcome.nodes, "seconds": round(outcome.seconds, 3), "nodes_per_second": round(rate),
                     "slowdown": round(rows[0]["nodes_per_second"] / rate, 2) if rows and rate else 1.0})
    return rows
