"""Layer: the explorer page, above proving — one HTML file that walks a certificate.

The explorer page: one self-contained HTML file that walks a table certificate.

The page inlines its CSS and JavaScript and embeds the labels it needs as packed arrays (zlib,
base64, the certificate's own packing), so it works opened from disk with no network. A board of
at most `FULL_TABLE_LIMIT` reachable states is embedded whole; a larger one (4×4) embeds the
states within `plies` moves of the empty board and the children of the last of them, so the page
stays small; beyond that horizon the page says so and names the command that reaches further.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files

import numpy as np

from certify.record.format import pack
from certify.record.positions import CertifiedGame

FULL_TABLE_LIMIT = 200_000
DEFAULT_PLIES = 4


@dataclass(frozen=True)
class PageFacts:
    """What a page embeds, for the caller's summary line."""

    states: int  # states whose labels are embedded
    horizon: int | None  # plies from the empty board covered, or None for every state
    bytes: int


def reachable_within(certified: CertifiedGame, plies: int) -> np.ndarray:
    """Codes of the states at most `plies` moves from the empty board, plus their children."""
    game = certified.game
    seen = {game.initial()}
    frontier = [game.initial()]
    for _ in range(plies + 1):
        after = set()
        for code in frontier:
            for move in game.legal_moves(code):
                after.add(game.apply(code, move))
        after -= seen
        seen |= after
        frontier = list(after)
    return np.array(sorted(seen), dtype=np.int64)


def page_data(
    certified: CertifiedGame, verdict: str | None, source: str, plies: int | None = None
) -> dict:
    """The JSON object the page reads: rules, claim, identity, packed labels and strategies."""
    codes, values, distances, margins = certified.label_arrays()
    horizon = None
    if plies is not None or len(codes) > FULL_TABLE_LIMIT:
        horizon = DEFAULT_PLIES if plies is None else plies
        rows = np.searchsorted(codes, reachable_within(certified, horizon))
        codes, values, distances = codes[rows], values[rows], distances[rows]
        margins = None if margins is None else margins[rows]
    kept = set(int(c) for c in codes) if horizon is not None else None
    strategies = []
    for player, moves in sorted(certified.strategies.items()):
        entries = sorted((c, m) for c, m in moves.items() if kept is None or c in kept)
        strategies.append(
            {
                "player": player,
                "guarantees": certified.guarantees(player),
                "entries": len(entries),
                "total_entries": len(moves),
                "codes": pack(np.array([c for c, _ in entries]), "uint32"),
                "cells": pack(np.array([m.cell for _, m in entries]), "uint8"),
                "marks": pack(np.array([m.mark for _, m in entries]), "uint8"),
            }
        )
    cert = certified.certificate
    rules = certified.rules
    return {
        "kind": "table",
        "source": source,
        "game": {
            "name": rules.name,
            "description": rules.describe(),
            "rows": rules.rows,
            "cols": rules.cols,
            "lines": [list(line) for line in rules.lines],
            "marks": rules.marks,
            "goal": rules.goal,
            "sha256": cert.rules_sha256,
        },
        "claim": {"root_value": cert.claim.root_value, "root_margin": cert.claim.root_margin},
        "verdict": verdict,
        "provenance": cert.provenance.model_dump(mode="json"),
        "states_total": certified.states,
        "horizon": horizon,
        "labels": {
            "count": int(len(codes)),
            "codes": pack(codes, "uint32"),
            "values": pack(values, "int8"),
            "distances": pack(distances, "uint8"),
            "margins": None if margins is None else pack(margins, "int8"),
        },
        "strategies": strategies,
    }


def render_page(data: dict) -> str:
    """The complete HTML page with `data` embedded; nothing from the file runs as code."""
    assets = files("certify.explorer")
    template = assets.joinpath("page.html").read_text(encoding="utf-8")
    # no "<" at all inside the script element, so no name can close it or open a comment
    embedded = json.dumps(data, separators=(",", ":"), ensure_ascii=True).replace("<", "\\u003c")
    title = f"certify explore: {data['game']['name']}"
    return (
        template.replace("{{TITLE}}", _html_escape(title))
        .replace("{{IDENTITY}}", _html_escape(page_identity(data)))
        .replace("/*{{CSS}}*/", assets.joinpath("page.css").read_text(encoding="utf-8"))
        .replace("/*{{JS}}*/", assets.joinpath("page.js").read_text(encoding="utf-8"))
        .replace("{{DATA}}", embedded)
    )


def page_identity(data: dict) -> str:
    """What a page shows, as its `certify-page` meta tag holds it: `table SHA256` for a certified game,
    `strategy SHA256 player P RESULT from ROOT` for a proof. Two pages of one identity are one page."""
    if data["kind"] == "strategy":
        claim = data["claim"]
        return f"strategy {data['game']['name']} {data['game']['sha256'][:16]} player {claim['player']} {claim['result']} from {claim['root'] or 'the start'}"
    return f"table {data['game']['name']} {data['game']['sha256'][:16]}"


def build_page(
    certified: CertifiedGame, verdict: str | None, source: str, plies: int | None = None
) -> tuple[str, PageFacts]:
    """The page for `certified` and what it embeds."""
    data = page_data(certified, verdict, source, plies)
    html = render_page(data)
    return html, PageFacts(data["labels"]["count"], data["horizon"], len(html.encode()))


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
