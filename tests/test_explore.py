"""`certify explore` without a browser: the page is self-contained, embeds what it says, and fails cleanly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from typer.testing import CliRunner

from certify.record.certificate import read_certificate
from certify.cli import app
from certify.explorer import build_page, page_data
from certify.record.positions import CertifiedGame

ROOT = Path(__file__).resolve().parents[1]
W3T = ROOT / "certificates" / "w3t.json"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def embedded(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="certify-data">(.*?)</script>', html, re.S)
    assert match, "no embedded data"
    return json.loads(match.group(1))


def test_page_from_a_certificate_is_self_contained(tmp_path):
    out = tmp_path / "page.html"
    result = run("explore", str(W3T), "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    html = out.read_text(encoding="utf-8")
    assert summary["verdict"].startswith("VALID") and summary["bytes"] == len(html.encode())
    assert summary["states_embedded"] == summary["states_total"] == read_certificate(W3T).table.states
    # nothing is fetched: no external script, style, image or link
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html and "fetch(" not in html
    assert embedded(html)["verdict"] == summary["verdict"]


def test_page_from_a_game_solves_and_checks_it(tmp_path):
    out = tmp_path / "t.html"
    result = run("explore", "tictactoe", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["verdict"].startswith("VALID") and data["claim"]["root_value"] == "draw"
    assert [s["player"] for s in data["strategies"]] == [1, 2]


def test_names_from_the_file_stay_inert(tmp_path):
    certificate = read_certificate(W3T)
    hostile = certificate.model_copy(
        update={"rules": certificate.rules.model_copy(update={"name": "</script><script>alert(1)</script>"})}
    )
    html, _ = build_page(CertifiedGame(hostile), None, "x.json")
    assert "alert(1)</script>" not in html and "<script>alert" not in html
    assert embedded(html)["game"]["name"] == "</script><script>alert(1)</script>"


def test_horizon_embeds_only_nearby_states():
    certified = CertifiedGame(read_certificate(W3T))
    data = page_data(certified, None, "w3t.json", plies=1)
    # the empty board, its 18 children, and every state two moves in
    two_in = {c1 + m2 * 3**c2 for c1 in (3**c * m for c in range(9) for m in (1, 2))
              for c2 in range(9) for m2 in (1, 2) if (c1 // 3**c2) % 3 == 0}
    assert data["horizon"] == 1 and data["labels"]["count"] == 1 + 18 + len(two_in)


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    result = run("explore", "nosuchgame")
    assert result.exit_code == 2 and "unknown game" in result.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "certify-certificate", "version": 2}')
    result = run("explore", str(broken))
    assert result.exit_code == 2 and str(broken) in result.output and result.output.count("\n") == 1
    assert not (tmp_path / "broken.html").exists()


@pytest.mark.parametrize("source", [str(W3T), "w3t"])  # a certificate, or a game solved first (no page file)
def test_serve_answers_on_loopback_only(source, tmp_path):
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "certify", "explore", source, "--serve", "--no-check"], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        with urllib.request.urlopen(match.group(0), timeout=30) as response:
            page = response.read().decode()
        assert embedded(page)["game"]["name"] == "w3t"
        try:
            urllib.request.urlopen(match.group(0) + "other", timeout=30)
            raise AssertionError("a path other than the page was served")
        except urllib.error.HTTPError as err:
            assert err.code == 404
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert list(tmp_path.iterdir()) == []  # served, not written


def test_output_conventions(tmp_path):
    precious = tmp_path / "notes.html"
    precious.write_text("<p>mine</p>")
    result = run("explore", str(W3T), "-o", str(precious), "--no-check")
    assert result.exit_code == 2 and "--force" in result.output
    assert precious.read_text() == "<p>mine</p>"
    assert run("explore", str(W3T), "-o", str(precious), "--no-check", "--force").exit_code == 0
    assert run("explore", str(W3T), "-o", str(precious), "--no-check").exit_code == 0  # a page over a page
    result = run("explore", str(W3T), "-o", "-", "--no-check")
    assert result.exit_code == 0 and embedded(result.stdout)["game"]["name"] == "w3t"
    result = run("explore", "uttt")  # no table certificate: one line, exit 2
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "uttt" in result.output


def test_a_false_certificate_gives_the_checker_verdict_and_exit_1(tmp_path):
    document = json.loads(W3T.read_text())
    document["claim"]["root_value"] = "draw"  # w3t's start is labelled a win: the claim no longer matches
    false = tmp_path / "false.json"
    false.write_text(json.dumps(document))
    out = tmp_path / "false.html"
    result = run("explore", str(false), "-o", str(out))
    assert result.exit_code == 1 and "INVALID" in result.output
    assert "INVALID" in embedded(out.read_text())["verdict"]  # the page is written and says so
