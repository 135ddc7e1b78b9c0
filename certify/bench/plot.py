"""`certify bench --suite uttt --plot FILE`: the proof frontier's figures drawn with matplotlib.

matplotlib is an optional extra (`pip install -e '.[plot]'`); it is imported only here, when a
plot is asked for. Three panels from one run's rows: the share of positions settled per ply (the
frontier), the search's nodes per second per ply, and the checker's time against each settled
position's certificate size. The format follows FILE's suffix (.svg or .png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FORMATS = (".svg", ".png")


class PlotError(ValueError):
    """A plot that cannot be drawn (matplotlib missing, an unknown format); one line."""


def plot_frontier(rows: list[dict[str, Any]], attempts: list[tuple[str, Any]], path: Path) -> None:
    """Draw the uttt suite's rows (certify.bench.uttt.summary) and settled positions into `path`."""
    if path.suffix not in FORMATS:
        raise PlotError(f"{path}: a plot is written as .svg or .png, not '{path.suffix or 'no suffix'}'")
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, no display
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("matplotlib is not installed: pip install -e '.[plot]'") from None
    modes = sorted({row["mode"] for row in rows})
    figure, (frontier, speed, checks) = plt.subplots(1, 3, figsize=(13, 4), layout="constrained")
    for mode in modes:
        mine = sorted((row for row in rows if row["mode"] == mode), key=lambda row: row["ply"])
        plies = [row["ply"] for row in mine]
        frontier.plot(plies, [row["solved"] / row["positions"] for row in mine], marker="o", label=mode)
        speed.plot(plies, [row["nodes_per_s"] for row in mine], marker="o", label=mode)
        settled = [a for m, a in attempts if m == mode and a.value is not None]
        checks.scatter([a.certificate_bytes for a in settled], [a.check_seconds for a in settled], s=14, label=mode)
    frontier.set(title="positions settled (the frontier)", xlabel="ply", ylabel="share settled", ylim=(-0.05, 1.05))
    speed.set(title="proof search speed", xlabel="ply", ylabel="nodes / s")
    checks.set(title="independent check", xlabel="certificate bytes", ylabel="check time (s)")
    for axes in (frontier, speed, checks):
        axes.grid(alpha=0.3)
        axes.legend(title="mode")
    figure.suptitle("certify bench --suite uttt: one run")
    figure.savefig(path)
    plt.close(figure)
