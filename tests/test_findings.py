"""docs/findings.md states each source's claim count and verdicts as the published audits do."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_findings_count_lines_match_the_published_audits() -> None:
    text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    stated = dict(re.findall(r"`certify audit certificates/claims/([a-z]*\d+)\.toml`.*?(\d+ claims?: [^.]+)\.", text, re.S))
    audits = sorted(p for p in (ROOT / "certificates" / "audits").glob("*.md") if not p.stem.startswith("policies-"))
    assert stated and set(stated) <= {path.stem for path in audits}
    for path in (p for p in audits if p.stem in stated):
        summary = re.search(r"^\*\*(\d+ claims?: [^.]+)\.\*\*$", path.read_text(encoding="utf-8"), re.M)
        assert summary is not None
        assert " ".join(stated[path.stem].split()) == summary.group(1), path.stem


def test_an_unsettled_search_is_reported_as_measured_without_a_direction() -> None:
    """A stopped df-pn's root numbers say where it would look next, not the value (issue 32)."""
    text = " ".join((ROOT / "docs" / "findings.md").read_text(encoding="utf-8").split())
    for sentence in re.findall(r"[^.]*not settled[^.]*\.[^.]*\.", text):
        assert not re.search(r"\blean|\btowards\b|\blikely\b|\bsuggests?\b", sentence), sentence


def audit_rows(source: str) -> dict[str, str]:
    """Claim id → its summary row in the published audit of `source`."""
    text = (ROOT / "certificates" / "audits" / f"{source}.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| \[([0-9A-Za-z.]+)\]\(#[^)]*\) \|.*$", text, re.M)}


def test_one_cause_has_one_verdict() -> None:
    """000.2b, 2i (18,752) and 2c, 2d (931, its complement) are the same off-by-one: the empty board."""
    rows = audit_rows("000")
    verdicts = {claim: re.findall(r"\*\*(\w+)\*\* \|$", rows[claim])[0] for claim in ("000.2b", "000.2c", "000.2d", "000.2i")}
    assert len(set(verdicts.values())) == 1, verdicts


def test_a_primary_quote_is_one_passage_as_written() -> None:
    """001.3's words are its section 3.2 sentence; section 3.3's stop rule is quoted apart, not spliced in."""
    import tomllib

    claims = tomllib.loads((ROOT / "certificates" / "claims" / "001.toml").read_text(encoding="utf-8"))
    claim = next(c for c in claims["claim"] if c["id"] == "001.3")
    words = claim["primary"]["words"]
    assert "..." not in words and "stops" not in words, words
    seeds = sorted((ROOT.parent / "shared" / "seeds").glob("001_*.txt")) + sorted((ROOT.parents[1] / "shared" / "seeds").glob("001_*.txt"))
    if seeds:  # the source text sits beside the repository on the machines that have it
        source = " ".join(seeds[0].read_text(encoding="utf-8").replace("\\cdot ", "·").split())
        assert words in source, words


def test_the_worked_position_audit_says_x_still_wins_after_the_replies_that_escape() -> None:
    row = audit_rows("003")["003.3b"]
    assert "give X no immediate win, yet X forces a win after each of them (proof search," in row and "search is required" in row, row
