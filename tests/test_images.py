"""Positions named as symmetric images of others (`certify prove --images`): both walks write the
same file, and the stdlib checker accepts it and rejects every wrong image in one line (the
verified checker's NOT READ: tests/test_verified.py)."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

import checker
from certify.proving.single import ProofFileError, prove, read_proof, strategy_lookup, strategy_moves
from solver.games.families import resolve_game
from solver.search.pns import Claim

CASES = [("tictactoe", Claim(2, "no-loss"), {}), ("mnk:4,4,3", Claim(1, "win"), {}), ("mnk:4,5,4", Claim(2, "no-loss"), {"pairings": True})]


def document(game_text: str, claim: Claim, images: bool = True, **search: object) -> dict:
    attempt = prove(resolve_game(game_text), claim, images=images, **search)  # type: ignore[arg-type]
    assert attempt.text is not None
    return json.loads(attempt.text)


def verdict(doc: dict) -> checker.Verdict:
    return checker.check_document(doc)


def packed(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def unpacked(text: str) -> bytes:
    return zlib.decompress(base64.b64decode(text))


@pytest.mark.parametrize("game_text,claim,search", CASES)
def test_images_make_a_smaller_proof_the_checker_accepts_and_both_walks_write_alike(game_text, claim, search) -> None:
    plain, named = document(game_text, claim, False, **search), document(game_text, claim, **search)
    assert named["proof"]["image_count"] > 0 and named["proof"]["positions"] < plain["proof"]["positions"]
    result = verdict(named)
    assert result.exit_code == 0 and "positions as symmetric images of others" in result.message, result.message
    assert verdict(plain).message.split(":")[0] == result.message.split(":")[0]  # the same game and claim
    if not search:  # the Python walk (no compiled pairings here) names the same images
        python = prove(resolve_game(game_text), claim, images=True, core="python")
        assert json.loads(python.text or "") == named


def test_every_symmetry_listed_is_checked_to_map_lines_to_lines() -> None:
    doc = document("mnk:4,4,3", Claim(1, "win"))
    doc["proof"]["symmetries"][0] = [0] * 16  # not a permutation
    assert verdict(doc).exit_code != 0 and "not a permutation" in verdict(doc).message
    doc["proof"]["symmetries"][0] = [1, 0] + list(range(2, 16))  # swaps two cells: a row's line goes nowhere
    assert verdict(doc).exit_code != 0 and "does not map every line onto a line" in verdict(doc).message


def test_an_image_of_itself_is_refused() -> None:
    """After X's corner the board is its own mirror image in the diagonal: naming it an image of
    itself would take for checked what is to be checked."""
    doc = document("tictactoe", Claim(2, "no-loss"))
    symmetries = [tuple(p) for p in doc["proof"]["symmetries"]]
    diagonal = symmetries.index((0, 3, 6, 1, 4, 7, 2, 5, 8))
    proof = doc["proof"]
    proof["moves"] = packed(bytes([253]) + unpacked(proof["moves"]))
    proof["turns"] += 1
    proof["images"] = packed(bytes([diagonal]) + unpacked(proof["images"]))
    proof["image_count"] += 1
    result = verdict(doc)
    assert result.exit_code != 0 and "to itself" in result.message and result.message.count("\n") == 0


def test_wrong_images_are_rejected_in_one_line() -> None:
    doc = document("mnk:4,4,3", Claim(1, "win"))
    proof, rng = doc["proof"], random.Random(3)
    images = unpacked(proof["images"])
    for _ in range(40):  # any index: either another image of a position seen (valid), or refused
        index = rng.randrange(len(images))
        changed = dict(proof, images=packed(images[:index] + bytes([rng.randrange(256)]) + images[index + 1:]))
        result = verdict(dict(doc, proof=changed))
        assert result.exit_code == 0 or ("\n" not in result.message and ("images" in result.message or "reached" in result.message))
    unused = dict(proof, images=packed(images + b"\x00"), image_count=proof["image_count"] + 1)
    assert "never uses" in verdict(dict(doc, proof=unused)).message
    out_of_range = dict(proof, images=packed(bytes([255]) + images[1:]))
    assert "proof.symmetries has only" in verdict(dict(doc, proof=out_of_range)).message


def test_images_belong_to_positional_games_and_are_bounded() -> None:
    doc = document("mnk:4,4,3", Claim(1, "win"))
    many = dict(doc["proof"], symmetries=doc["proof"]["symmetries"] * 40)
    assert "not 1 to 256" in verdict(dict(doc, proof=many)).message
    with pytest.raises(ValueError, match="not a positional game"):
        prove(resolve_game("uttt"), Claim(1, "win"), max_nodes=10, images=True).text


def test_a_proof_with_images_is_not_replayed_as_moves(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(document("tictactoe", Claim(2, "no-loss"))))
    certificate, game = read_proof(path)
    with pytest.raises(ProofFileError, match="symmetric images"):
        strategy_moves(certificate, game)


@pytest.mark.parametrize("game_text,claim,blocks", [("tictactoe", Claim(2, "no-loss"), False), ("mnk:4,4,3", Claim(1, "win"), False),
                                                    ("mnk:4,4,3", Claim(1, "win"), True)])
def test_the_lookup_plays_out_a_proof_with_images_and_blocks(tmp_path: Path, game_text, claim, blocks) -> None:
    """strategy_lookup answers below images and after replies a blocks proof leaves out: played
    against every reply of the opponent, its moves are legal and every play ends as claimed."""
    attempt = prove(resolve_game(game_text), claim, images=True, blocks=blocks)
    path = tmp_path / "p.json"
    path.write_text(attempt.text or "")
    certificate, game = read_proof(path)
    assert certificate.proof.image_count
    lookup, seen, stack = strategy_lookup(certificate, game), set(), [game.initial()]
    while stack:
        state = stack.pop()
        if game.key(state) in seen:
            continue
        seen.add(game.key(state))
        if game.is_terminal(state):
            mine = game.returns(state)[claim.player - 1]
            assert mine == 1 or (claim.result == "no-loss" and mine == 0), game.format_position(state)
        elif game.to_move(state) == claim.player:
            move = lookup(state)
            assert move in game.legal_moves(state), game.format_position(state)
            stack.append(game.apply(state, move))
        else:
            stack.extend(game.apply(state, move) for move in game.legal_moves(state))
    assert len(seen) > certificate.proof.positions  # the positions the file leaves out, played too
    for command in (["tree", str(path), "--depth", "8"], ["explore", str(path), "-o", str(tmp_path / "p.html")]):
        done = subprocess.run([sys.executable, "-m", "certify", *command], capture_output=True, text=True)
        assert done.returncode == 0 and not done.stderr, done.stderr  # blocks made both an internal error


def test_the_cli_records_images_and_refuses_them_where_they_do_not_apply(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--images",
                           "-o", str(out), "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["images"] > 0
    assert json.loads(out.read_text())["provenance"]["command"] == "certify prove mnk:4,4,3 --claim win --player 1 --images"
    for extra in (["--workers", "2"], ["--value"]):
        refused = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,4,3", *(["--claim", "win", "--player", "1"]
                                  if extra != ["--value"] else []), "--images", *extra], capture_output=True, text=True)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--images" in refused.stderr



def test_the_python_api_writes_what_the_command_writes(tmp_path: Path) -> None:
    import certify
    from certify.errors import CertifyError

    proof = certify.prove("mnk:4,4,3", 1, images=True)
    path = tmp_path / "api.json"
    proof.save(path)
    out = tmp_path / "cli.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--images",
                           "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert path.read_bytes() == out.read_bytes()
    with pytest.raises(CertifyError, match="not a positional game"):
        certify.prove("uttt", 1, images=True, max_nodes=10)
