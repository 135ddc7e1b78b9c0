"""The options every command shares, one name and one meaning each (docs/cli.md).

Light on purpose: command modules import this when they load; nothing heavy here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal, Optional

import typer

if TYPE_CHECKING:
    from solver.search.pns import Claim

GAME_HELP = "A built-in name (see `certify games`), mnk:R,C,K[,wild][,misere], or a .json/.toml spec file."
DEFAULT_TIMEOUT = 120.0

GameArg = Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of tables.")]
OutputOpt = Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Write the output here; - for stdout.", show_default=False)]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite an existing file even if it is not a certify output of the same kind.")]
CertOpt = Annotated[Optional[Path], typer.Option("--cert", metavar="FILE", help="Read the labels from this certificate (checked first) instead of solving again.", show_default=False)]
TimeoutOpt = Annotated[float, typer.Option("--timeout", metavar="SECONDS", min=0.1, help="Bound on the step's running time; then it reports unknown (timeout).")]
Player = Literal["1", "2"]
PlayerOrBoth = Literal["1", "2", "both"]
PlayerOpt = Annotated[Optional[Player], typer.Option("--player", help="The side: 1 moves first, 2 second.", show_default=False)]



def default_output(game_name: str, claim: Claim) -> Path:
    """`mnk-4-4-3.p1-win.json`: the game's name made file-safe, the player and the claim."""
    from certify.files import proof_stem

    return Path(f"{proof_stem(game_name, claim.player, claim.result, claim.within)}.json")
