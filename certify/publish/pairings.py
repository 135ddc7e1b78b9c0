"""The pairing certificates in the published record: boards with a pure pairing draw, seed 004's pairings.

Each (game, player, opening) of PUBLISHED_PAIRINGS is searched by `certify pairing search` (the same
search, the same file: certificates/pairings/NAME.pP-pairing.json; with an opening, player 2's
pairing after player 1's first mark there, NAME.p2-after-xCELL-pairing.json), and the independent
checker's verdict goes into certificates/index.json. Seed 004's pairing claims of property `no-loss` (certificates/
claims/004.toml) are written in the new kind with the paper's own pairs, opening and reply, and
checked: a VALID one is published; an INVALID one is listed with the checker's reason, which says
why the paper's argument is not this kind's (the audit pages judge those claims on their own terms).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import checker
from certify.claims.load import load_claims
from certify.claims.pairings import PairingStrategy
from certify.files import file_stem
from certify.smt.pairing_certificate import after_opening, pairing_certificate, pairing_stem, search_command_line, search_pairing
from certify.proving.single import certificate_text
from certify.smt.pairing import Pairing
from solver.games.positional.rules import resolve

INDEX_KEY = "pairings"
SEARCH_TIMEOUT = 60.0
SEED_CLAIMS = Path("certificates") / "claims" / "004.toml"
PUBLISHED_PAIRINGS: tuple[tuple[str, int, int | None], ...] = (  # (game, player, player 1's opening or None)
    ("tictactoe", 1, None),
    ("mnk:4,4,4", 1, None),
    *(("mnk:4,4,4", 2, cell) for cell in range(16)),  # with player 1's, the draw of 4x4 by pairings alone
    ("mnk:5,5,5", 1, None),
    ("mnk:5,5,5", 2, None),
    ("mnk:6,6,6", 1, None),
    ("mnk:6,6,6", 2, None),
    ("mnk:7,7,7", 1, None),
    ("mnk:7,7,7", 2, None),
    ("mnk:8,8,8", 1, None),
    ("mnk:8,8,8", 2, None),
    ("mnk:5,6,5", 1, None),
    *(("mnk:5,6,5", 2, cell) for cell in range(30)),  # with player 1's, the draw of 5x6 (k = 5) by pairings alone
    ("mnk:5,7,5", 1, None),
    *(("mnk:5,7,5", 2, cell) for cell in range(35)),  # and of 5x7
    ("mnk:6,6,5", 1, None),
    *(("mnk:6,6,5", 2, cell) for cell in range(36)),  # and of 6x6
    ("mnk:6,7,6", 1, None),
    ("mnk:6,7,6", 2, None),
    ("mnk:6,8,6", 1, None),
    ("mnk:6,8,6", 2, None),
    ("mnk:7,7,6", 1, None),
    ("mnk:7,7,6", 2, None),
    ("mnk:8,8,7", 1, None),
    ("mnk:8,8,7", 2, None),
)
ProgressHook = Callable[[str], None]


def pairing_path(stem: str) -> Path:
    """certificates/pairings/STEM.json."""
    return Path("certificates") / "pairings" / f"{stem}.json"


def entry(source: str, game: str, player: int, root: str | None, text: str, path: Path | None) -> dict:
    """The index entry of one pairing certificate: its figures and the independent checker's verdict."""
    document = json.loads(text)
    return {
        "source": source,
        "game": game,
        "file": None if path is None else path.as_posix(),
        "rules_sha256": document["rules_sha256"],
        "player": player,
        "root": root,
        "first_move": document["pairing"]["first_move"],
        "pairs": len(document["pairing"]["pairs"]),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "bytes": len(text.encode()),
        "checker": checker.check_document(document).message,
        "command": document["provenance"]["command"],
    }


def searched(progress: ProgressHook | None) -> tuple[list[dict], dict[Path, str]]:
    """Search every published (game, player, opening); the index entries and the files' text."""
    entries, files = [], {}
    for game, player, opening in PUBLISHED_PAIRINGS:
        rules = resolve(game)
        start = None if opening is None else after_opening(rules, opening)
        command = search_command_line(game, player, start)
        if progress:
            progress(command)
        found = search_pairing(rules, player, start, SEARCH_TIMEOUT, command)
        if found.text is None:
            raise RuntimeError(f"{command}: no pairing found ({found.cover.reason})")
        path = pairing_path(pairing_stem(game, player, opening))
        files[path] = found.text
        entries.append(entry("certify pairing search", game, player, start, found.text, path))
    return entries, files


def seeds(root: Path) -> tuple[list[dict], dict[Path, str]]:
    """Seed 004's no-loss pairing claims in the pairing kind, each checked; the VALID ones as files."""
    entries, files = [], {}
    for claim in load_claims(Path(root) / SEED_CLAIMS).claim:
        if not isinstance(claim, PairingStrategy):
            continue
        if "no-loss" not in ([claim.property] if isinstance(claim.property, str) else claim.property):
            continue
        rules = resolve(claim.game)
        first = claim.opening if claim.player == 1 else claim.reply
        start = None if claim.after is None else after_opening(rules, claim.after)
        command = f"certify publish ({SEED_CLAIMS.as_posix()}, claim {claim.id})"
        text = certificate_text(pairing_certificate(rules, claim.player, start, Pairing(tuple(claim.pairs)), first, command))
        valid = checker.check_document(json.loads(text)).exit_code == 0
        path = pairing_path(f"{file_stem(claim.game)}.{claim.id}.p{claim.player}-pairing") if valid else None
        if path is not None:
            files[path] = text
        entries.append(entry(f"seed 004, claim {claim.id}", claim.game, claim.player, start, text, path))
    return entries, files


def generate(root: Path, progress: ProgressHook | None = None) -> tuple[list[dict], dict[Path, str]]:
    """Every pairing entry of the index and every pairing certificate file."""
    entries, files = searched(progress)
    seed_entries, seed_files = seeds(root)
    return entries + seed_entries, files | seed_files


def readme_section(entries: list[dict]) -> list[str]:
    """certificates/README.md's section on pairing certificates."""
    lines = [
        "",
        "## Pairing certificates (kind `pairing`, `certify pairing search`)",
        "",
        "Each proves \"player P does not lose\": every line the other player could complete holds both cells",
        "of a pair (docs/certificate-format.md). Seed 004's pairings are written with the paper's own pairs;",
        "an INVALID one is not published, and the checker's reason says which line the pairing leaves open.",
        "Proof trees closed by pairings (`certify prove --pairings`) are in the table above and under the",
        "index key `pairing_proofs`; the verified checker (verified/, docs/verified-checker.md) reads their closures too.",
        "`mnk:4,4,4`, `mnk:5,6,5`, `mnk:5,7,5` and `mnk:6,6,5` are draws by pairings alone: player 1's pairing after a first",
        "move, and after each first move of player 1 (`-after-xCELL`), a reply of player 2 and its pairing.",
        "",
        "| source | game | claim | first move | pairs | sha256 | size | checker |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for item in entries:
        where = "" if item["root"] is None else f" from `{item['root']}`"
        claim = f"player {item['player']} does not lose{where}"
        if item["file"] is not None:
            claim = f"[{claim}](pairings/{Path(item['file']).name})"
        first = "—" if item["first_move"] is None else f"cell {item['first_move']}"
        verdict = item["checker"].split()[0]
        if verdict != "VALID":
            verdict = f"{verdict}: {item['checker'].split(': ', 1)[-1]}"
        published = "not published" if item["file"] is None else f"`{item['sha256'][:16]}…`"
        lines.append(f"| {item['source']} | `{item['game']}` | {claim} | {first} | {item['pairs']} | "
                     f"{published} | {item['bytes']:,} B | {verdict} |")
    return lines
