"""Strategy and proof trees as pictures: Graphviz DOT text, or SVG laid out here (no Graphviz needed).

A tree is a `Node`: the position's label and its edges, each a move (the prover's, or an
opponent's reply) to the next node. `certify tree --format dot|svg` builds one from the tree it
draws as text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

BOX_WIDTH, BOX_HEIGHT, GAP_X, GAP_Y, CHAR_WIDTH = 150, 46, 16, 58, 6.4
EDGE_COLOUR = {"prover": "#1f5fbf", "reply": "#b8327a"}


@dataclass
class Node:
    """One position: up to two lines of label, and the moves out of it."""

    label: str
    edges: list[tuple[str, str, Node]] = field(default_factory=list)  # (move, "prover" | "reply", child)
    note: str = ""  # the result, or where the drawing was cut


def dot(root: Node, title: str) -> str:
    """The tree in Graphviz DOT: boxes for positions, edges labelled with the moves."""
    lines = ["digraph proof {", f"  label={quote(title)}; labelloc=t;", '  node [shape=box, fontname="monospace"];']
    counter = 0

    def walk(node: Node) -> str:
        nonlocal counter
        name = f"n{counter}"
        counter += 1
        text = node.label + (f"\\n{node.note}" if node.note else "")
        lines.append(f"  {name} [label={quote(text)}];")
        for move, kind, child in node.edges:
            child_name = walk(child)
            lines.append(f"  {name} -> {child_name} [label={quote(move)}, color={quote(EDGE_COLOUR[kind])}];")
        return name

    walk(root)
    lines.append("}")
    return "\n".join(lines) + "\n"


def quote(text: str) -> str:
    """A DOT string literal (`\\n` kept as DOT's line break)."""
    return '"' + text.replace("\\", "\\\\").replace("\\\\n", "\\n").replace('"', '\\"') + '"'


def svg(root: Node, title: str) -> str:
    """The tree drawn top-down: leaves left to right, each parent centred over its children."""
    placed: list[tuple[Node, float, int]] = []
    edges: list[tuple[float, int, float, int, str, str]] = []
    next_leaf = 0.0

    def place(node: Node, depth: int) -> float:
        nonlocal next_leaf
        if not node.edges:
            x = next_leaf
            next_leaf += 1
        else:
            xs = [place(child, depth + 1) for _, _, child in node.edges]
            x = (xs[0] + xs[-1]) / 2
            for (move, kind, _), child_x in zip(node.edges, xs, strict=True):
                edges.append((x, depth, child_x, depth + 1, move, kind))
        placed.append((node, x, depth))
        return x

    place(root, 0)
    levels = 1 + max(depth for _, _, depth in placed)
    width = max(1.0, next_leaf) * (BOX_WIDTH + GAP_X) + GAP_X
    height = 40 + levels * (BOX_HEIGHT + GAP_Y)

    def centre(x: float, depth: int) -> tuple[float, float]:
        return GAP_X + x * (BOX_WIDTH + GAP_X) + BOX_WIDTH / 2, 40 + depth * (BOX_HEIGHT + GAP_Y)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="monospace" font-size="11">',
             f'<text x="{GAP_X}" y="20" font-family="sans-serif" font-size="14" font-weight="bold">{escape(title)}</text>']
    for x1, d1, x2, d2, move, kind in edges:
        (ax, ay), (bx, by) = centre(x1, d1), centre(x2, d2)
        parts.append(f'<line x1="{ax:.1f}" y1="{ay + BOX_HEIGHT:.1f}" x2="{bx:.1f}" y2="{by:.1f}" stroke="{EDGE_COLOUR[kind]}"/>')
        parts.append(f'<text x="{(ax + bx) / 2 + 4:.1f}" y="{(ay + BOX_HEIGHT + by) / 2 + 4:.1f}" fill="{EDGE_COLOUR[kind]}" '
                     f'font-weight="bold">{escape(move)}</text>')
    for node, x, depth in placed:
        cx, top = centre(x, depth)
        parts.append(f'<rect x="{cx - BOX_WIDTH / 2:.1f}" y="{top:.1f}" width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="4" '
                     f'fill="#f7f8fa" stroke="#9aa0a8"/>')
        for i, line in enumerate([*fit(node.label), *([node.note] if node.note else [])][:3]):
            parts.append(f'<text x="{cx:.1f}" y="{top + 14 + i * 13:.1f}" text-anchor="middle">{escape(line)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def fit(label: str) -> list[str]:
    """The label in lines that fit a box (split at ' / ' or spaces)."""
    most = int(BOX_WIDTH / CHAR_WIDTH)
    words, lines, line = label.replace(" / ", "/ ").split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > most:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines
