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
