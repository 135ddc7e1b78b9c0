"""`certify prove --workers/--batch` and `certify check FOLDER`: certificates the checker accepts,
batch output identical to `certify prove`, resuming, and one-line errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from samples import assert_closure_mismatch_refused
from typer.testing import CliRunner

import checker
from certify.cli import app

runner = CliRunner()

BATCH = """\
tictactoe --claim no-loss --player 1
tictactoe --claim no-loss --player 2
tictactoe --claim win --player 1
mnk:3,4,3 --claim win --player 1 --position 'X.../..../....'
"""


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_parallel_prove_writes_a_certificate_the_checker_accepts(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = run("prove", "mnk:3,4,3", "--claim", "win", "--player", "1", "--workers", "2", "--job-nodes", "20", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "proved" and data["parallel"]["jobs"] > 1
    assert checker.check_file(str(out)).exit_code == 0


def test_parallel_prove_to_stdout_keeps_every_report_on_stderr() -> None:
    result = runner.invoke(app, ["prove", "mnk:3,4,3", "--claim", "win", "--player", "1", "--workers", "2",
                                 "--job-nodes", "20", "-o", "-"])
    assert result.exit_code == 0, result.stderr
    assert checker.check_bytes(result.stdout.encode()).exit_code == 0  # stdout is the certificate alone
    said = " ".join(result.stderr.split())
    assert said.startswith("proved mnk:3,4,3: player 1 wins") and "wrote stdout (" in said, said
    assert "parallel: process pool ×2, " in said, said


def test_parallel_prove_of_a_false_claim_certifies_the_opposite(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    result = run("prove", "tictactoe", "--claim", "win", "--player", "1", "--workers", "2", "--job-nodes", "20", "-o", str(out))
    assert result.exit_code == 1 and "disproved" in result.output
    verdict = checker.check_file(str(out)).message
    assert verdict.startswith("VALID") and "player 2 does not lose" in verdict, verdict


def test_batch_certificates_are_those_of_prove_and_a_rerun_resumes(tmp_path: Path) -> None:
    batch, folder = tmp_path / "lines.txt", tmp_path / "proofs"
    batch.write_text(BATCH)
    first = run("prove", "--batch", str(batch), "-o", str(folder), "--workers", "2", "--json")
    assert first.exit_code == 1  # line 3 is a false claim
    data = json.loads(first.output)
    assert [i["status"] for i in data["items"]] == ["proved", "proved", "refuted", "proved"]
    single = tmp_path / "single.json"
    assert run("prove", "mnk:3,4,3", "--claim", "win", "--player", "1", "--position", "X.../..../....", "-o", str(single)).exit_code == 0
    assert Path(data["items"][3]["file"]).read_bytes() == single.read_bytes()
    again = json.loads(run("prove", "--batch", str(batch), "-o", str(folder), "--json").output)
    assert [i["status"] for i in again["items"]] == ["existing", "existing", "refuted", "existing"]
    checked = run("check", str(folder), "--json")
    assert checked.exit_code == 0 and len(json.loads(checked.output)["files"]) == 3


def test_batch_lines_with_first_moves(tmp_path: Path) -> None:
    """An opening book as a batch: each first move a line, each proof the one `certify prove
    --first-move` writes; a refuted first move certifies nothing and is said apart from a refuted claim."""
    batch, folder = tmp_path / "book.txt", tmp_path / "proofs"
    batch.write_text("mnk:4,4,3 --claim win --player 1 --first-move x5\n"
                     "mnk:4,4,3 --claim win --player 1 --first-move X6\n"
                     "tictactoe --claim win --player 1 --first-move X4\n")
    result = run("prove", "--batch", str(batch), "-o", str(folder), "--workers", "2", "--json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert [(i["first_move"], i["status"]) for i in data["items"]] == [("X5", "proved"), ("X6", "proved"), ("X4", "first move fails")]
    assert data["counts"]["first move fails"] == 1 and data["items"][2]["files"] == []
    assert data["items"][0]["file"] != data["items"][1]["file"]  # one name per opening
    single = tmp_path / "single.json"
    assert run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X5", "-o", str(single)).exit_code == 0
    assert Path(data["items"][0]["file"]).read_bytes() == single.read_bytes()
    again = json.loads(run("prove", "--batch", str(batch), "-o", str(folder), "--json").output)
    assert [i["status"] for i in again["items"]] == ["existing", "existing", "first move fails"]
    table = " ".join(run("prove", "--batch", str(batch), "-o", str(folder)).output.split())
    assert "X4 first" in table and "first move fails" in table and "not refuted" in table


def test_batch_lines_with_a_bound_pairings_plain_search_threads_and_images(tmp_path: Path) -> None:
    """A line takes `--within`, `--pairings`, `--plain`, `--threads` and `--images` as `certify prove` does: the
    same certificate byte for byte (one thread), under `certify prove`'s name for it (a bound is part
    of the name)."""
    lines = [["tictactoe", "--claim", "no-loss", "--player", "2", "--pairings"],
             ["mnk:4,4,3", "--claim", "win", "--player", "1", "--within", "7", "--plain"],
             ["tictactoe", "--claim", "win", "--player", "1", "--within", "5"],
             ["mnk:4,4,4", "--claim", "no-loss", "--player", "2", "--threads", "2"],
             ["mnk:4,4,4", "--claim", "no-loss", "--player", "1", "--images", "--blocks"]]
    batch, folder = tmp_path / "lines.txt", tmp_path / "proofs"
    batch.write_text("".join(" ".join(words) + "\n" for words in lines))
    data = json.loads(run("prove", "--batch", str(batch), "-o", str(folder), "--workers", "2", "--json").output)
    assert [(i["status"], i.get("within")) for i in data["items"]] == [("proved", None), ("proved", 7), ("refuted", 5), ("proved", None),
                                                                       ("proved", None)]
    names = [Path(i["file"]).name for i in data["items"]]
    assert names[1].startswith("mnk-4-4-3.p1-win-within-7.") and names[2].startswith("tictactoe.p2-no-loss-within-5.")
    for number, words in [*enumerate(lines[:3]), (4, lines[4])]:
        single = tmp_path / f"single{number}.json"
        run("prove", *words, "-o", str(single))
        assert Path(data["items"][number]["file"]).read_bytes() == single.read_bytes(), words
    threaded = Path(data["items"][3]["file"])  # two threads race: another proof each run, its command says so
    assert json.loads(threaded.read_text())["provenance"]["command"].endswith("--threads 2")
    assert checker.check_file(str(threaded)).exit_code == 0
    assert json.loads((tmp_path / "single2.json").read_text())["claim"]["within"] == 5  # the opposite keeps the bound
    assert json.loads(single.read_text())["proof"]["image_count"] > 0  # --images named images
    assert json.loads(Path(data["items"][0]["file"]).read_text())["proof"]["closures"] > 0  # --pairings closed branches


def test_a_batch_writes_positions_as_certify_prove_does(tmp_path: Path) -> None:
    """A position in another spelling (lower case) and a value line searched `--plain` give the
    files `certify prove --value` writes for the same words, byte for byte, their commands spelled
    the canonical way."""
    batch, folder, single = tmp_path / "lines.txt", tmp_path / "proofs", tmp_path / "single"
    batch.write_text("tictactoe --value --plain --position 'x../.o./...'\n")
    data = json.loads(run("prove", "--batch", str(batch), "-o", str(folder), "--json").output)
    assert data["items"][0]["position"] == "X../.O./..." and len(data["items"][0]["files"]) == 2
    single.mkdir()
    assert run("prove", "tictactoe", "--value", "--plain", "--position", "x../.o./...", "-o", str(single)).exit_code == 0
    for name in data["items"][0]["files"]:
        mine = single / Path(name).name.replace(Path(name).suffixes[-2], "")  # the batch's name adds a hash
        assert Path(name).read_bytes() == mine.read_bytes()
        assert "--position 'X../.O./...' --plain" in json.loads(mine.read_text())["provenance"]["command"]


@pytest.mark.parametrize(("args", "message"), [
    (["--pairings"], "give --pairings there, not here"),
    (["--within", "5", "--plain"], "give --within and --plain there, not here"),
    (["--threads", "2"], "give --threads there, not here"),
    (["--images"], "give --images there, not here"),
    (["--blocks"], "give --blocks there, not here"),
    (["--first-move", "X4"], "give --first-move there, not here"),
    (["--policy", "certify.papers.bertholon:open_rules_plan"], "leave out --policy"),
])
def test_search_options_of_a_batch_go_on_its_lines(tmp_path: Path, args: list[str], message: str) -> None:
    batch = tmp_path / "lines.txt"
    batch.write_text("tictactoe --claim no-loss --player 2\n")
    result = run("prove", "--batch", str(batch), *args, "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("line", "message"), [
    ("tictactoe --value --first-move X4", "line 1: --first-move fixes the first move of a claim's proof; leave out --value"),
    ("tictactoe --claim win --player 1 --first-move X9", "line 1: --first-move: X9 is not a legal move"),
    ("tictactoe --claim no-loss --player 2 --first-move X4", "line 1: --first-move: X4 is player 1's move"),
    ("uttt --claim no-loss --player 2 --within 20 --pairings", "line 1: --pairings: uttt has no pairing closures"),
    ("uttt --claim win --player 1 --images", "line 1: --images: uttt is not a positional game"),
    ("tictactoe --value --images", "line 1: --images names images in a claim's proof; leave out --value"),
    ("misere --claim no-loss --player 1 --blocks", "line 1: --blocks: misere is not a game of own marks whose first line wins"),
])
def test_a_bad_first_move_in_a_batch_is_one_line(tmp_path: Path, line: str, message: str) -> None:
    batch = tmp_path / "lines.txt"
    batch.write_text(line + "\n")
    result = run("prove", "--batch", str(batch), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output
    assert not (tmp_path / "out").exists()


def test_check_folder_reports_the_worst(tmp_path: Path) -> None:
    assert run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(tmp_path / "a.json")).exit_code == 0
    (tmp_path / "b.json").write_text("{}")
    result = run("check", str(tmp_path))
    assert result.exit_code == 2 and "1 of 2 files VALID" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("check", str(empty)).exit_code == 2


@pytest.mark.parametrize(("args", "message"), [
    (["prove", "--batch", "nope.txt"], "nope.txt: no such file"),
    (["prove", "tictactoe", "--batch", "x.txt"], "give GAME there, not here"),
    (["prove", "tictactoe", "--value", "--pairings"], "leave out --pairings"),
    (["prove", "--batch", "x.txt", "--workers", "-1"], "--workers"),
    (["prove", "tictactoe", "--player", "1"], "error: certify prove: missing --claim, or give --batch FILE"),
    (["prove"], "error: certify prove: missing argument GAME and --claim and --player, or give --batch FILE"),
])
def test_bad_prove_options_are_one_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and message in result.output


def test_a_bad_batch_line_stops_before_any_work(tmp_path: Path) -> None:
    batch = tmp_path / "lines.txt"
    batch.write_text("tictactoe --claim win --player 1\nnosuchgame --claim win --player 1\n")
    result = run("prove", "--batch", str(batch), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "line 2" in result.output and not (tmp_path / "out").exists()


def test_ray_missing_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    result = run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--ray")
    assert result.exit_code == 2 and "pip install -e '.[ray]'" in result.output


def test_check_folder_of_one_file_says_file(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    assert run("solve", "tictactoe", "-o", str(folder / "t.json")).exit_code == 0
    result = run("check", str(folder))
    assert result.exit_code == 0 and result.stdout.strip().splitlines()[-1] == "1 of 1 file VALID"


def test_a_driver_checkpoint_of_another_closure_is_refused_in_one_line(tmp_path: Path) -> None:
    """The parallel driver's checkpoint names the closure (`closure_version`), as the serial one's
    does: one saved under another closure, or before the header named it, is refused (exit 2)."""
    checkpoint = tmp_path / "c"
    claim = ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "27", "--workers", "1",
             "--job-nodes", "20", "--max-nodes", "60"]
    run(*claim, "--checkpoint", str(checkpoint))
    assert_closure_mismatch_refused(lambda args: runner.invoke(app, args), claim, checkpoint)
