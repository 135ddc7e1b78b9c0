"""Explorer pages of strategy (proof-tree) certificates: the embedded proof, and the page in a browser."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from certify.explorer.proof import NODE_LIMIT, grid, proof_page_data, unpacked_json
from certify.proving.single import prove, read_proof
from solver.games.families import resolve_game
from solver.search.pns import Claim

# a late Ultimate tic-tac-toe position (reached by seeded random play) whose proof is small
UTTT_ROOT = ".O.X..X.O/XOOX...XO/X.X.O...O/XO.O.X.X./OOXO.X.X./OXXX.O.X./..XO.OOO./OXOXO.O.X/O.X.X..OX 1"


@cache
def proved(game: str, player: int, result: str, root: str | None = None):
    """A strategy certificate of a claim the proof search settles, and its game."""
    family = resolve_game(game)
    attempt = prove(family, Claim(player, result), root, max_nodes=500_000)
    if attempt.certificate is None:
        pytest.skip(f"proof search did not prove {game} player {player} {result}: {attempt.outcome.status}")
    return attempt.certificate, family


@pytest.mark.parametrize("game, player, result, root", [("w3t", 1, "win", None), ("uttt", 2, "win", UTTT_ROOT)])
def test_embedded_proof_is_the_certified_strategy(game, player, result, root):
    certificate, family = proved(game, player, result, root)
    data = proof_page_data(certificate, family, None, "proof.json")
    nodes = unpacked_json(data["proof"]["nodes"])
    assert not data["proof"]["cut"] and len(nodes) == certificate.proof.positions
    state = family.initial() if root is None else family.parse_position(root)
    assert nodes[0]["p"] == family.format_position(state)
    for node in nodes:
        position = family.parse_position(node["p"])
        legal = [family.format_move(m) for m in family.legal_moves(position)]
        moves = [c[0] for c in node["c"]]
        if node["r"] is not None:  # a finished game the claim allows
            assert not legal and (node["r"] > 0 if player == 1 else node["r"] < 0)
        elif node["m"] == player:
            assert len(moves) == 1 and moves[0] in legal
        else:
            assert moves == legal  # every reply is covered
        for name, child, cell, mark in node["c"]:
            after = family.apply(position, family.parse_move(name))
            assert nodes[child]["p"] == family.format_position(after)
            assert grid(node["p"])[0][cell] == "." and grid(nodes[child]["p"])[0][cell] == mark


def test_a_large_proof_is_cut_and_says_so():
    certificate, family = proved("w3t", 1, "win")
    data = proof_page_data(certificate, family, None, "proof.json", limit=10)
    nodes = unpacked_json(data["proof"]["nodes"])
    assert data["proof"]["cut"] and len(nodes) == data["proof"]["count"] == 10 < NODE_LIMIT
    assert any(child == -1 for node in nodes for _, child, _, _ in node["c"])


def test_explore_reads_a_strategy_certificate(tmp_path):
    from typer.testing import CliRunner

    from certify.cli import app
    from certify.proving.single import write_proof

    certificate, _ = proved("uttt", 2, "win", UTTT_ROOT)
    source = tmp_path / "uttt.json"
    write_proof(certificate, source)
    out = tmp_path / "uttt.html"
    result = CliRunner().invoke(app, ["explore", str(source), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["verdict"].startswith("VALID") and summary["states_total"] == certificate.proof.positions
    page = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="certify-data">(.*?)</script>', page, re.S).group(1))
    assert data["kind"] == "strategy" and data["claim"]["root"] == UTTT_ROOT
    assert read_proof(source)[0] == certificate


def test_explore_says_how_much_of_a_large_proof_the_page_embeds_and_the_page_says_it_is_loading(tmp_path, monkeypatch):
    import certify.explorer.proof as proof_module
    from typer.testing import CliRunner

    from certify.cli import app

    certificate, _ = proved("tictactoe", 1, "no-loss")
    path = tmp_path / "p.json"
    path.write_text(certificate.model_dump_json())
    whole = CliRunner().invoke(app, ["explore", str(path), "--no-check", "-o", str(tmp_path / "whole.html")])
    assert whole.exit_code == 0 and "every position of the proof" in " ".join(whole.stdout.split()), whole.output
    small = proof_module.proof_page_data
    monkeypatch.setattr(proof_module, "proof_page_data", lambda *args, **kwargs: small(*args, **kwargs, limit=50))  # a proof past the page's limit
    cut = CliRunner().invoke(app, ["explore", str(path), "--no-check", "-o", str(tmp_path / "cut.html"), "--json"])
    data = json.loads(cut.stdout)
    assert (data["states_embedded"], data["states_total"]) == (50, certificate.proof.positions)
    cut = CliRunner().invoke(app, ["explore", str(path), "--no-check", "-o", str(tmp_path / "cut.html")])
    said = " ".join(cut.stdout.split())
    assert f"50 of the proof's {certificate.proof.positions:,} positions, breadth first from its start" in said and "every" not in said
    html = (tmp_path / "cut.html").read_text()  # what a browser shows before the script has decoded the proof
    assert re.search(r'<p id="status"[^>]*>Reading the certificate embedded in this page…</p>', html)
