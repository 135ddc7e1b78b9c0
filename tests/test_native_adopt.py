"""A disproof's table given to the opposite claim's search (solver/search/native.py `adopt`,
dfpn.c `adopt`), as `certify prove` does after a disproof.

What could go wrong and is checked here: the swapped numbers must be a table of the opposite claim
(it then proves with no new node where nothing was evicted, and writes the certificate a search of
its own writes), a table that evicted must still give a certificate the checker accepts, a table
must never pass between searches that are not each other's complement or key positions
differently, and the checkpoint of an opposite search stopped unsettled must be kept and named
with the claim it continues, the disproved claim's spent one removed.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import checker
from certify.cli import app
from certify.cli.prove import checkpoint_fate
from certify.files import write_atomic
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.games.game import NoHooks
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim


@pytest.mark.parametrize("text, claim, root", [
    ("tictactoe", Claim(1, "win"), None),
    ("mnk:4,4,4", Claim(2, "win"), None),
    ("uttt:open", Claim(1, "win", 21), None),  # the opposite closes by the count, the disproof did not
])
def test_the_opposite_proves_from_the_disproofs_table_with_no_node_and_the_same_certificate(text, claim, root) -> None:
    game = resolve_game(text)
    disproof = prove(game, claim, root)  # no budget: the table grows as needed (a reserved one would raise this worker's peak)
    assert disproof.outcome.status == "disproved" and disproof.outcome.evictions == 0 and disproof.search is not None
    entries = disproof.outcome.entries
    inherited = prove(game, claim.opposite(), root, inherit=disproof)
    fresh = prove(game, claim.opposite(), root)
    assert inherited.outcome.status == "proved" and inherited.outcome.nodes == 0 and inherited.adopted == entries
    assert disproof.search.entries == 0  # the table moved, it was not copied
    assert fresh.outcome.nodes > 0 and inherited.text == fresh.text


def test_a_disproof_whose_table_evicted_still_gives_a_valid_certificate() -> None:
    game = resolve_game("mnk:4,4,4")
    claim = Claim(1, "win")
    disproof = prove(game, claim, table_mb=1)  # 15,360 slots for 63,557 positions
    assert disproof.outcome.status == "disproved" and disproof.outcome.evictions > 0
    opposite = prove(game, claim.opposite(), table_mb=1, inherit=disproof)
    assert opposite.outcome.status == "proved" and opposite.adopted > 0
    assert checker.check_bytes((opposite.text or "").encode()).message.startswith("VALID")


def test_a_table_passes_only_to_the_complement_keyed_alike() -> None:
    game = resolve_game("mnk:4,4,4")
    hooks = game.search_hooks()
    disproof = NativeProofSearch(game, Claim(2, "win"), hooks)
    assert disproof.search(game.initial()).status == "disproved"
    entries = disproof.entries
    for other in (NativeProofSearch(game, Claim(2, "win"), hooks),  # the same claim
                  NativeProofSearch(game, Claim(1, "no-loss", 9), hooks),  # another bound
                  NativeProofSearch(game, Claim(1, "no-loss"), NoHooks()),  # keys without the symmetries
                  NativeProofSearch(resolve_game("mnk:4,4,3"), Claim(1, "no-loss"), resolve_game("mnk:4,4,3").search_hooks())):
        assert not other.adopt(disproof) and disproof.entries == entries
    with pytest.raises(ValueError, match="complement"):
        NativeProofSearch(game, Claim(2, "win"), hooks)._core.adopt(disproof._core)
    taker = NativeProofSearch(game, Claim(1, "no-loss"), hooks)
    assert taker.adopt(disproof) and taker.entries == entries and disproof.entries == 0


def test_an_unsettled_opposites_checkpoint_is_kept_and_named_with_its_claim(tmp_path) -> None:
    checkpoint, resume = tmp_path / "opposite.ckpt", tmp_path / "disproved.ckpt"
    for path in (checkpoint, resume):
        write_atomic(path, b'{"format": "certify-checkpoint"}\n')
    fate = checkpoint_fate("interrupted", checkpoint, resume, Claim(2, "no-loss", 25))
    assert fate == {"kept": str(checkpoint), "removed": str(resume),
                    "continue": f"--claim no-loss --player 2 --resume {checkpoint}"}
    assert checkpoint.exists() and not resume.exists()
    assert checkpoint_fate("proved", checkpoint, None, Claim(2, "no-loss", 25))["removed"] == str(checkpoint)
    assert not checkpoint.exists()


def test_certify_prove_reports_the_opposite_searched_from_the_disproofs_table(tmp_path) -> None:
    result = CliRunner().invoke(app, ["prove", "tictactoe", "--claim", "win", "--player", "1", "--json",
                                      "-o", str(tmp_path / "p2.json")])
    assert result.exit_code == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "disproved" and data["opposite"]["status"] == "proved"
    assert data["opposite"]["nodes"] == 0 and data["opposite"]["table_inherited"] == data["table_entries"]
    assert checker.check_file(str(tmp_path / "p2.json")).message.startswith("VALID")
    # the command that writes this file again is the one run: the opposite's own search, from an
    # empty table, writes another proof where the disproof's table differs from its own
    written = json.loads((tmp_path / "p2.json").read_text())
    assert written["provenance"]["command"] == "certify prove tictactoe --claim win --player 1"
