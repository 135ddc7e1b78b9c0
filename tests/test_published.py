"""The published certificates, audits, index and README are exactly what `certify publish` makes.

Run in a fresh process, as `certify publish` is: Z3's counterexamples depend on the solver's
history within one process, so the generation must start from the same state.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_published_files_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "certify", "publish", "--no-policies", "--check", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,  # about 300 s on an idle 2-core machine: room for a loaded one
    )  # fmt: skip
    assert result.returncode == 0, f"stale published files — run `certify publish`: {result.stdout}{result.stderr}"


def test_search_policy_audit_page_is_up_to_date() -> None:
    """certificates/audits/policies-search.md is what the search-player audits compute now.

    The TD-learning page (policies-seeds.md) trains 30 players, about ten minutes: it is checked
    by `certify publish --check`, not in the test suite.
    """
    from certify.papers.search_audit import search_audit_markdown, search_audits

    page = ROOT / "certificates" / "audits" / "policies-search.md"
    assert page.read_text(encoding="utf-8") == search_audit_markdown(search_audits()), "run `certify publish`"


def test_every_row_of_the_certificates_readme_links_the_file_whose_sha256_it_shows() -> None:
    import hashlib
    import re

    readme = ROOT / "certificates" / "README.md"
    rows = [line for line in readme.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    checked = 0
    for row in rows:
        link, shas = re.search(r"\]\(([^)]+\.json)\)", row), re.findall(r"`([0-9a-f]{16})…`", row)
        if link is None or not shas:
            continue
        sha = shas[-1]  # the file's (a table's row shows its rules sha256 first)
        target = readme.parent / link.group(1)
        assert target.is_file(), row
        assert hashlib.sha256(target.read_bytes()).hexdigest().startswith(sha), (row, target)
        checked += 1
    assert checked >= 20


def test_every_proof_entry_names_the_root_its_file_proves_from() -> None:
    """A proof from a position past the start is indexed with it, so no reader takes it for the
    game's value (certify/publish/record.py KEPT_POSITION_PROOFS)."""
    import json

    index = json.loads((ROOT / "certificates" / "index.json").read_text(encoding="utf-8"))
    entries = [entry for entry in index["proofs"] + index["pairing_proofs"] if entry.get("file")]
    for entry in entries:
        document = json.loads((ROOT / entry["file"]).read_text(encoding="utf-8"))
        assert entry["root"] == document["claim"].get("root"), entry["file"]
    assert any(entry["root"] is not None for entry in entries)
