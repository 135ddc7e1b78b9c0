"""`certify audit FILE -o OUT` writes the published audit byte for byte, in a fresh process and
twice in one process (Z3 witnesses, caches and training runs must not depend on what ran before).

The sources with Z3 searches and TD training take minutes: they run with `python -m pytest -m slow`;
`test_published.py` regenerates every audit in a fresh process in the default suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from certify.claims.facts import Bench
from certify.claims.report import audit_markdown
from certify.claims.run import audit_file
from certify.publish.record import audit_command

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["000", "001"]
SLOW = ["002", "004"]
ALL = [pytest.param(s, id=s) for s in QUICK] + [pytest.param(s, id=s, marks=pytest.mark.slow) for s in SLOW]


def published(source: str) -> str:
    return (ROOT / "certificates" / "audits" / f"{source}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("source", ALL)
def test_certify_audit_in_a_fresh_process_writes_the_published_audit(source: str, tmp_path: Path) -> None:
    out = tmp_path / f"{source}.md"
    claims = f"certificates/claims/{source}.toml"
    result = subprocess.run(
        [sys.executable, "-m", "certify", "audit", claims, "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8") == published(source), "run `certify publish`"


@pytest.mark.parametrize("source", ALL)
def test_the_same_audit_twice_in_one_process(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    claims = Path(f"certificates/claims/{source}.toml")
    pages = [
        audit_markdown(audit_file(claims, Bench(published_dir=Path("certificates"))), audit_command(claims))
        for _ in range(2)
    ]
    assert pages[0] == pages[1]
    assert pages[0] == published(source), "run `certify publish`"
