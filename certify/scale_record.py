"""The 4×4 results in the published record: one certificates/index.json entry per 4×4 board.

Solving and checking every 4×4 board takes minutes, so `certify publish` carries these entries
over from certificates/index.json unchanged, and `certify publish --scale` recomputes them: it
solves each board, writes its certificate, checks it with the independent checker in a fresh
process (`python -m checker`, its work budget raised to the board's size) and records what was
found. Certificate files are committed up to COMMIT_LIMIT bytes; a larger one is listed with its
sha256 and the command that regenerates it. `tests/test_scale_slow.py` regenerates and checks them.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from certify.pipeline import default_filename, solve_and_certify
from certify.scale import SCALE_BOARDS
from solver.rules import Rules, resolve

COMMIT_LIMIT = 10_000_000  # bytes (issue 9: commit certificate files only when small)
INDEX_KEY = "scale_certificates"


def carried_over(root: Path) -> list[dict]:
    """The 4×4 entries of the current certificates/index.json (none if it has none)."""
    try:
        index = json.loads((Path(root) / "certificates" / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(index.get(INDEX_KEY, [])) if isinstance(index, dict) else []


def checker_arguments(path: str, rules: Rules, states: int) -> list[str]:
    """`python -m checker` arguments for this certificate, the work budget raised to fit it.

    The work budget bounds states x lines (plus the checker's own per-board tables): twice the
    number of codes times the lines covers any table of this board.
    """
    work = (states + 2 * 3**rules.cells) * len(rules.lines)
    return ["-m", "checker", path, "--max-states", str(states), "--max-work", str(work)]


def check_in_fresh_process(path: Path, rules: Rules, states: int, root: Path) -> str:
    """The checker's verdict line on `path`, run as a referee would: `python -S -m checker`."""
    done = subprocess.run(
        [sys.executable, "-S", *checker_arguments(str(path), rules, states)],
        cwd=root, capture_output=True, text=True,
    )  # fmt: skip
    return done.stdout.strip() or f"ERROR: the checker printed nothing (exit {done.returncode})"


def entry(game: str, root: Path, scratch: Path) -> tuple[dict, str | None]:
    """Solve `game`, write and check its certificate: its index entry and the text if committed."""
    rules = resolve(game)
    solved = solve_and_certify(rules, game)
    relative = f"certificates/{default_filename(rules)}"
    path = scratch / default_filename(rules)
    path.write_text(solved.text, encoding="utf-8")
    data = solved.text.encode()
    states, edges, claim = len(solved.solution), solved.solution.edges, solved.certificate.claim
    text = solved.text if len(data) <= COMMIT_LIMIT else None
    del solved  # the checker runs beside this process: free the solution first
    verdict = check_in_fresh_process(path, rules, states, root)
    record = {
        "game": game,
        "file": relative if text is not None else None,
        "rules_sha256": rules.sha256(),
        "root_value": claim.root_value,
        "first_moves": [m.model_dump(mode="json") for m in claim.first_moves],
        "states": states,
        "edges": edges,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "checker": verdict,
        "command": f"certify solve {game} -o {relative} && python " + " ".join(checker_arguments(relative, rules, states)),
    }
    return record, text


def regenerate(root: Path, progress: Callable[[str], None] | None = None) -> tuple[list[dict], dict[Path, str]]:
    """Every 4×4 board's entry, and the certificate files small enough to commit."""
    entries, files = [], {}
    with tempfile.TemporaryDirectory(prefix="certify-scale-") as tmp:
        for game in SCALE_BOARDS:
            if progress:
                progress(f"4x4 certificate: {game} (solve, write, check)")
            record, text = entry(game, Path(root), Path(tmp))
            entries.append(record)
            if text is not None:
                files[Path(record["file"])] = text
    return entries, files


def readme_section(entries: list[dict]) -> list[str]:
    """certificates/README.md lines for the 4×4 boards."""
    if not entries:
        return []
    lines = [
        "",
        "## 4×4 boards",
        "",
        "Regenerated and checked by `certify publish --scale` (minutes; `certify publish` keeps these",
        "entries as they are) and by `python -m pytest -m slow tests/test_scale_slow.py`. Each entry of",
        "`index.json` gives the first-move values, the edges and the command that regenerates and checks it.",
        "",
        "| game | value (first player) | states | edges | rules sha256 | file sha256 | size | checker |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        name = f"[`{e['game']}`]({Path(e['file']).name})" if e["file"] else f"`{e['game']}` (not committed)"
        lines.append(
            f"| {name} | {e['root_value']} | {e['states']:,} | {e['edges']:,} | `{e['rules_sha256'][:16]}…` | "
            f"`{e['sha256'][:16]}…` | {e['bytes']:,} B | {e['checker'].split(' ', 1)[0]} |"
        )
    return lines
