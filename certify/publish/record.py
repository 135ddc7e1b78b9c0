"""The published record, regenerated deterministically: certificates, audits, index and README.

`generate` computes every file's text in memory; `publish` writes them atomically and `stale`
lists the files on disk that differ. Nothing generated depends on time or timing.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import checker
from certify.claims.facts import Bench
from certify.publish import pairings as pairing_record, scale as scale_record
from certify.record.budget import proof_limits
from certify.claims.report import audit_markdown, verdict_counts
from certify.claims.run import FileAudit, audit_file
from certify.files import file_stem, write_atomic
from certify.papers.search_audit import write_search_audits
from certify.papers.td import write_seed_policy_audits
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim

PUBLISHED_GAMES = ("tictactoe", "w3t", "misere", "notakto", "cumulative")
PUBLISHED_PROOFS = (  # (game, player, claim): strategy certificates by proof search (docs/findings.md)
    ("mnk:4,4,3", 1, "win"),
    ("mnk:3,3,3,misere", 1, "no-loss"),
    ("mnk:3,3,3,misere", 2, "no-loss"),
    ("mnk:3,4,3,misere", 2, "win"),
    ("mnk:5,5,3", 1, "win"),
)
PAIRING_PROOFS = (  # (game, player): no-loss proofs closed by pairings, `certify prove --pairings` (issue 23)
    ("mnk:4,4,4", 1),
    ("mnk:4,4,4", 2),
    ("mnk:4,5,4", 1),
)
# Proofs too long to redo on every publish: the file on disk (written by the command in its
# provenance) is checked and indexed, not regenerated.
KEPT_PROOFS = (
    ("mnk:4,4,3,misere", 2, "win"),
    # the k = 4 table (issue 21), found by the compiled df-pn: docs/findings.md
    ("mnk:4,4,4", 1, "no-loss"),
    ("mnk:4,4,4", 2, "no-loss"),
    ("mnk:4,5,4", 1, "no-loss"),
    ("mnk:4,5,4", 2, "no-loss"),
    ("mnk:5,5,4", 1, "no-loss"),
    ("mnk:5,6,4", 1, "win"),
    ("mnk:6,5,4", 1, "win"),
    ("mnk:4,6,4", 1, "no-loss"),
    ("mnk:4,7,4", 1, "no-loss"),
    # X wins Ultimate tic-tac-toe under the open rules (issue 22): the pin plan of
    # certify/papers/bertholon.py, 178 M nodes, 14 minutes (docs/uttt.md)
    ("uttt:open", 1, "win"),
)
# Kept proofs whose check takes minutes (past PROOF_LIMITS): like the 4×4 tables
# (certify/publish/scale.py), their index entries are carried over while the file is the one
# they describe (its sha256), checked anew when it is not or by `certify publish --scale`;
# tests/test_scale_slow.py checks each in a fresh process.
LARGE_PROOFS = (
    ("mnk:5,5,4", 2, "no-loss"),
    ("mnk:4,6,4", 2, "no-loss"),
    ("mnk:4,8,4", 1, "no-loss"),
    # 9x4 four in a row, a first-player win (Charatsidis 2017), found with threat space and the
    # defender's pairings refuting (issue 35): docs/findings.md
    ("mnk:4,9,4", 1, "win"),
    # 10x4, likewise (Charatsidis 2017's other first-player win): the same search, 52 M nodes
    ("mnk:4,10,4", 1, "win"),
    # 11x4, likewise, past the paper (issue 35's "then 11x4, 12x4"): the same search, 71 M nodes
    ("mnk:4,11,4", 1, "win"),
    # 12x4, likewise, its first move fixed (`--first-move X5`, the 11x4 proof's): 89 M nodes
    ("mnk:4,12,4", 1, "win"),
    # 13x4, likewise (`--first-move X6`, the centre of the top row): 72 M nodes
    ("mnk:4,13,4", 1, "win"),
    # 14x4, likewise (`--first-move X6`, the top row's centre-left cell, as X5 is 12x4's): 228 M nodes
    ("mnk:4,14,4", 1, "win"),
    # 15x4, likewise (`--first-move X7`, the centre of the top row): 81 M nodes
    ("mnk:4,15,4", 1, "win"),
    # 16x4, likewise (`--first-move X7`, the top row's centre-left cell), the largest 4-row board of
    # 64 cells; found on two threads (`--threads 2`, resumed twice): 228 M nodes
    ("mnk:4,16,4", 1, "win"),
    # Qubic (4x4x4, 76 lines), a first-player win (Patashnik 1980, Allis 1994), issue 35:
    # Patashnik's strategic moves as the plan (certify/papers/patashnik.py), images and blocks;
    # 277 M nodes, resumed once
    ("qubic", 1, "win"),
)
# the checker's budget for published proofs: its defaults, raised to fit the largest kept proof
# (mnk:4,5,4 player 2: 1,541,762 positions, work 271,350,112 since it was written again by its
# recorded command; the command line's --max-states and --max-work)
PROOF_LIMITS = checker.Limits(max_states=2_000_000, max_work=300_000_000)
# Kept likewise, closed by pairings (certificates/proofs/closed/). Index key `pairing_proofs`, apart
# from `proofs`: the verified checker (verified/), which tests/test_verified.py runs on every `proofs`
# entry, reads the closed proofs too (tests/test_verified.py checks these apart).
KEPT_PAIRING_PROOFS = (("mnk:4,5,4", 2), ("mnk:5,5,4", 1), ("mnk:5,5,4", 2), ("mnk:4,6,4", 2), ("mnk:4,7,4", 2),
                       # the k = 5 draws of issue 35 (Hsu et al. 2020's 7,7,5), docs/findings.md
                       ("mnk:6,6,5", 1), ("mnk:6,6,5", 2), ("mnk:7,7,5", 1), ("mnk:7,7,5", 2))
# Kept likewise (the index's closed proofs), closed by the meta-line count: bounded no-loss proofs
# of uttt:open, (game, player, within) — the certified lower bounds of docs/uttt.md (issue 36);
# their checks take minutes, so their entries are carried over as LARGE_PROOFS' are
KEPT_COUNTED_PROOFS = (("uttt:open", 2, 21), ("uttt:open", 2, 23), ("uttt:open", 2, 25),  # 25: deep records
                       ("uttt:open", 2, 27),  # 27: records three deep, the shortest each, 15 MB, its check minutes
                       ("uttt:open", 2, 29))  # 29: keys canonical under the grid's symmetries, 37 MB
# ... and from a position past the start, named in the file's name, the position in its claim:
# (game, player, within, name). corner16: O's proof that X does not win within 25 plies of the
# ply-16 position the 43-ply proof's centre phase leads to (O choosing which, by the last cell it
# fills in the centre board), so no X strategy that opens as that proof does wins by ply 41
# (docs/uttt.md, issue 36)
KEPT_POSITION_PROOFS = (("uttt:open", 2, 25, "corner16"),)
# ... and past PROOF_LIMITS, carried over likewise: the 4×n frontier of issue 35, found by the
# compiled df-pn with its compiled pairing closure (docs/findings.md), (game, player, within)
LARGE_PAIRING_PROOFS = (("mnk:4,8,4", 2, None),)
ProgressHook = Callable[[str], None]


@dataclass(frozen=True)
class Generated:
    """The text of every generated file, by path relative to the repository root."""

    files: dict[Path, str]


def _policy_audits(progress: ProgressHook | None) -> dict[str, str]:
    """The policy engineers' audit pages (their functions write files: render into a scratch dir)."""
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        if progress:
            progress("policy audits: search players")
        search = write_search_audits(directory / "policies-search.md")
        if progress:
            progress("policy audits: seed players (T3DT, TD learning)")
        seeds = write_seed_policy_audits(directory)
        return {path.name: path.read_text(encoding="utf-8") for path in (search, seeds)}


def generate(root: Path, policies: bool = True, progress: ProgressHook | None = None, scale: bool = False) -> Generated:
    """Every published file's text, computed from scratch (policy audits only when `policies`).

    The 4×4 entries are recomputed only when `scale` (minutes), else carried over from the index.
    """
    root = Path(root)
    published = root / "certificates"
    bench = Bench(published_dir=None)
    files: dict[Path, str] = {}
    certificates = []
    for game in PUBLISHED_GAMES:
        if progress:
            progress(f"certificate: {game}")
        facts = bench.facts(game)
        path = Path("certificates") / f"{game}.json"
        facts.published_as = path  # the audits below say so, as `certify audit` does once it is written
        files[path] = facts.solved.text
        claim = facts.solved.certificate.claim
        certificates.append(
            {
                "game": game,
                "file": path.as_posix(),
                "rules_sha256": facts.rules.sha256(),
                "root_value": claim.root_value,
                "root_margin": claim.root_margin,
                "states": len(facts.solution),
                "sha256": facts.sha256,
                "bytes": len(facts.solved.text.encode()),
                "checker": facts.check.message,
                "command": f"certify solve {game} -o {path.as_posix()}",
            }
        )
    proofs = []
    for game, player, result in PUBLISHED_PROOFS:
        if progress:
            progress(f"proof: {game} player {player} {result}")
        path = proof_path(game, player, result)
        attempt = prove(resolve_game(game), Claim(player, result), command=f"certify prove {game} --claim {result} --player {player} -o {path.as_posix()}")
        if attempt.text is None:
            raise RuntimeError(f"{game}: player {player} {result} was not proved ({attempt.outcome.status})")
        files[path] = attempt.text
        proofs.append(proof_entry(game, player, result, path, attempt.text, attempt.outcome.nodes))
    closed = []
    for game, player in PAIRING_PROOFS:
        if progress:
            progress(f"proof: {game} player {player} no-loss, closed by pairings")
        path = closed_proof_path(game, player)
        command = f"certify prove {game} --claim no-loss --player {player} --pairings -o {path.as_posix()}"
        attempt = prove(resolve_game(game), Claim(player, "no-loss"), command=command, pairings=True)
        if attempt.text is None:
            raise RuntimeError(f"{game}: player {player} no-loss was not proved ({attempt.outcome.status})")
        files[path] = attempt.text
        closed.append(proof_entry(game, player, "no-loss", path, attempt.text, attempt.outcome.nodes))
    for game, player in KEPT_PAIRING_PROOFS:
        path = closed_proof_path(game, player)
        if (root / path).is_file():
            closed.append(proof_entry(game, player, "no-loss", path, (root / path).read_text(encoding="utf-8"), None))
    carried_closed = {entry["file"]: entry for entry in scale_record.carried_over(root, "pairing_proofs")}
    for claim in KEPT_COUNTED_PROOFS + KEPT_POSITION_PROOFS + LARGE_PAIRING_PROOFS:  # checked in minutes: carried over as LARGE_PROOFS are
        game, player = claim[:2]
        entry = large_entry(root, game, player, "no-loss", closed_proof_path(*claim), carried_closed, scale, progress)
        closed += [entry] if entry else []
    for game, player, result in KEPT_PROOFS:
        path = proof_path(game, player, result)
        if (root / path).is_file():
            if progress:
                progress(f"proof (kept): {path.as_posix()}")
            proofs.append(proof_entry(game, player, result, path, (root / path).read_text(encoding="utf-8"), None))
    carried = {entry["file"]: entry for entry in scale_record.carried_over(root, "proofs")}
    for game, player, result in LARGE_PROOFS:
        entry = large_entry(root, game, player, result, proof_path(game, player, result), carried, scale, progress)
        proofs += [entry] if entry else []
    bench.record(proofs + closed)  # the audits below cite these verdicts, not a second check of the same bytes
    pairings, pairing_files = pairing_record.generate(root, progress)
    files.update(pairing_files)
    audits: list[FileAudit] = []
    for claims_path in sorted((published / "claims").glob("*.toml")):
        relative = claims_path.relative_to(root)
        if progress:
            progress(f"audit: {relative.as_posix()}")
        audit = audit_file(claims_path, bench)
        audit = FileAudit(relative, audit.claims, audit.results)
        audits.append(audit)
        files[Path("certificates/audits") / f"{audit.claims.source}.md"] = audit_markdown(audit, audit_command(relative))
    if policies:
        for name, text in _policy_audits(progress).items():
            files[Path("certificates/audits") / name] = text
    policy_pages = sorted(p.name for p in files if p.name.startswith("policies-")) if policies else sorted(
        p.name for p in (published / "audits").glob("policies-*.md")
    )
    index = {
        "certificates": certificates,
        "proofs": proofs,
        "audits": [
            {
                "source": a.claims.source,
                "title": a.claims.title,
                "claims_file": a.path.as_posix(),
                "report": f"certificates/audits/{a.claims.source}.md",
                "claims": len(a.results),
                "verdicts": verdict_counts(a.results),
            }
            for a in audits
        ],
        "policy_audits": [f"certificates/audits/{name}" for name in policy_pages],
        pairing_record.INDEX_KEY: pairings,
        "pairing_proofs": closed,
    }
    if scale:
        scale_entries, scale_files = scale_record.regenerate(progress)
        files.update(scale_files)
    else:
        scale_entries = scale_record.carried_over(root)
    if scale_entries:
        index[scale_record.INDEX_KEY] = scale_entries
    files[Path("certificates/index.json")] = json.dumps(index, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    files[Path("certificates/README.md")] = readme(certificates, audits, policy_pages, proofs + closed, scale_entries, pairings)
    return Generated(files)


def proof_path(game: str, player: int, result: str) -> Path:
    """certificates/proofs/mnk-4-4-3.p1-win.json: named as `certify prove` names its output."""
    return Path("certificates") / "proofs" / f"{file_stem(game)}.p{player}-{result}.json"


def closed_proof_path(game: str, player: int, within: int | None = None, name: str | None = None) -> Path:
    """certificates/proofs/closed/mnk-4-5-4.p2-no-loss.json: a no-loss proof closed by pairings (or
    counts), apart from the plain proof of the same claim; a bounded one ends `-within-N`, one from
    a named position `.NAME`."""
    bound = "" if within is None else f"-within-{within}"
    where = "" if name is None else f".{name}"
    return Path("certificates") / "proofs" / "closed" / f"{file_stem(game)}.p{player}-no-loss{bound}{where}.json"


def large_limits(path: Path) -> checker.Limits:
    """The checker's budget raised to fit this proof exactly: its positions, their work, and its bytes."""
    text = path.read_text(encoding="utf-8")
    limits = proof_limits(json.loads(text), PROOF_LIMITS)
    return checker.Limits(max_bytes=max(len(text.encode()), limits.max_bytes), max_states=limits.max_states,
                          max_work=limits.max_work)


def large_entry(root: Path, game: str, player: int, result: str, path: Path, carried: dict[str, dict], scale: bool,
                progress: ProgressHook | None) -> dict | None:
    """The index entry of a kept proof whose check takes minutes: carried over from `carried` while
    the file is the one it describes (its sha256), else (or with `scale`) checked anew; None when
    the file is not there."""
    if not (root / path).is_file():
        return None
    text = (root / path).read_text(encoding="utf-8")
    entry = carried.get(path.as_posix())
    if scale or entry is None or entry.get("sha256") != hashlib.sha256(text.encode()).hexdigest():
        if progress:
            progress(f"proof (kept, large): {path.as_posix()}")
        entry = proof_entry(game, player, result, path, text, None, large_limits(root / path))
    document = json.loads(text)  # an entry carried from before counted closures too, and named no root
    return {**entry, "prover_moves": prover_moves(document), "root": document["claim"].get("root")}


def prover_moves(document: dict) -> int:
    """The prover's moves of a strategy proof: its turns, less the closures and the images (their
    CLOSE and IMAGE bytes sit among proof.moves but are no moves)."""
    return document["proof"]["turns"] - document["proof"].get("closures", 0) - document["proof"].get("image_count", 0)


def proof_entry(game: str, player: int, result: str, path: Path, text: str, nodes: int | None,
                limits: checker.Limits = PROOF_LIMITS) -> dict:
    """The index entry of a proof file: its figures and the independent checker's verdict on it."""
    document = json.loads(text)
    return {
        "game": game,
        "file": path.as_posix(),
        "rules_sha256": document["rules_sha256"],
        "player": player,
        "claim": result,
        "root": document["claim"].get("root"),  # None: the start
        "prover_moves": prover_moves(document),
        "positions": document["proof"]["positions"],
        "nodes": nodes,
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "bytes": len(text.encode()),
        "checker": checker.check_document(document, limits).message,
        "command": document["provenance"]["command"],
    }


def audit_command(claims_file: Path) -> str:
    """The command that reproduces an audit page."""
    return f"certify audit {claims_file.as_posix()}"


def readme(
    certificates: list[dict], audits: Iterable[FileAudit], policy_pages: list[str], proofs: list[dict], scale: list[dict],
    pairings: list[dict],
) -> str:
    """certificates/README.md: what is published, with hashes, sizes and checker verdicts."""
    lines = [
        "# Published certificates and audits",
        "",
        "Generated by `certify publish`; `certify publish --check` fails if any file here is stale.",
        "Each certificate is byte-for-byte what `certify solve GAME` writes; check one yourself with",
        "`python -m checker certificates/GAME.json` (standard library only) or `certify verify GAME`.",
        "",
        "| game | claim (first player) | states | rules sha256 | file sha256 | size | checker |",
        "|---|---|---|---|---|---|---|",
    ]
    for cert in certificates:
        margin = "" if cert["root_margin"] is None else f", margin {cert['root_margin']:+d}"
        verdict = cert["checker"].split(" ", 1)[0]
        lines.append(
            f"| [`{cert['game']}`]({Path(cert['file']).name}) | {cert['root_value']}{margin} | {cert['states']:,} | "
            f"`{cert['rules_sha256'][:16]}…` | `{cert['sha256'][:16]}…` | {cert['bytes']:,} B | {verdict} |"
        )
    lines += scale_record.readme_section(scale)
    lines += [
        "",
        "## Proof trees (kind `strategy`, `certify prove`)",
        "",
        "| game | claim | prover moves | positions | search nodes | sha256 | size | checker |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for proof in proofs:
        bound = re.search(r" within [\d,]+ plies", proof["checker"])  # a bounded claim, as the checker states it
        claimed = ("wins" if proof["claim"] == "win" else "does not lose") + (bound.group(0) if bound else "")
        claimed += "" if proof.get("root") is None else f" from `{proof['root']}`"
        lines.append(
            f"| `{proof['game']}` | [player {proof['player']} {claimed}]({Path(proof['file']).relative_to('certificates').as_posix()}) | "
            f"{proof['prover_moves']:,} | {proof['positions']:,} | {'not redone' if proof['nodes'] is None else format(proof['nodes'], ',')} | `{proof['sha256'][:16]}…` | "
            f"{proof['bytes']:,} B | {proof['checker'].split()[0]} |"
        )
    lines += pairing_record.readme_section(pairings)
    lines += [
        "",
        "Full sha256 digests are in `index.json`. The rules sha256 names the game a certificate is about",
        "(its rules without their name; docs/trusted-base.md shows how to confirm it with the standard library).",
        "",
        "## Audits of published claims",
        "",
        "| source | claims | holds | refuted | ambiguous | report |",
        "|---|---|---|---|---|---|",
    ]
    for audit in audits:
        counts = verdict_counts(audit.results)
        lines.append(
            f"| {audit.claims.source}: {audit.claims.title} | {len(audit.results)} | {counts.get('holds', 0)} | "
            f"{counts.get('refuted', 0)} | {counts.get('ambiguous', 0)} | [audits/{audit.claims.source}.md](audits/{audit.claims.source}.md) |"
        )
    if policy_pages:
        lines += ["", "Policy audits: " + ", ".join(f"[audits/{name}](audits/{name})" for name in policy_pages) + "."]
    return "\n".join(lines) + "\n"


def stale(root: Path, generated: Generated) -> list[Path]:
    """The generated files whose text on disk differs (or that are missing)."""
    out = []
    for relative, text in generated.files.items():
        path = Path(root) / relative
        try:
            same = path.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            out.append(relative)
    return out


def publish(root: Path, generated: Generated) -> list[Path]:
    """Write every generated file that changed; returns those written."""
    changed = stale(root, generated)
    for relative in changed:
        target = Path(root) / relative
        target.parent.mkdir(parents=True, exist_ok=True)  # publish owns the certificates/ tree
        write_atomic(target, generated.files[relative])
    return changed
