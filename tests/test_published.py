"""The published certificates, audits, index and README are exactly what `certify publish` makes."""

from __future__ import annotations

from pathlib import Path

from certify.publish import generate, stale

ROOT = Path(__file__).resolve().parents[1]


def test_published_files_are_up_to_date() -> None:
    generated = generate(ROOT, policies=False)
    assert stale(ROOT, generated) == [], "run `certify publish`"


def test_generation_is_deterministic() -> None:
    first = generate(ROOT, policies=False).files
    second = generate(ROOT, policies=False).files
    assert first == second
