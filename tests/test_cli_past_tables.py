"""Past the 4×4 tables (issue 25): moves valued by proof search, values in one command, positions round-trip."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest
from typer.testing import CliRunner

from certify.claims.result import Verdict
from certify.cli import app
from certify.proving.single import move_values
from solver.games.positional.engine import Game
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_show_values_moves_past_the_table_by_proof_search():
    result = run("show", "mnk:5,5,3", "--moves", "X12,O6", "--solve", "2000", "--json")
    assert result.exit_code == 0, result.stderr
    view = json.loads(result.stdout)
    assert [row["move"] for row in view["move_values"]] == [f"X{m['cell']}" for m in view["moves"]]
    assert {row["value"] for row in view["move_values"]} <= {"win", "draw", "loss", None}
    assert "win" in {row["value"] for row in view["move_values"]}  # X to move with a free-standing X wins 3 in a row


def test_show_says_unknown_where_the_budget_runs_out():
    result = run("show", "mnk:5,5,4", "--moves", "X12", "--solve", "5")
    assert result.exit_code == 0, result.stderr
    assert "unknown" in result.stdout and "5 nodes per question" in result.stdout


def test_searched_move_values_agree_with_the_table():
    rules = resolve("mnk:3,4,3")
    game = Game(rules)
    state = game.parse_position("X.../.O../....")
    solution = solve(rules)
    table = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        table[game.format_move(move)] = {1: "loss", 0: "draw", -1: "win"}[int(solution.values[solution.index(child)])]
    searched = {row["move"]: row["value"] for row in move_values(game, state, 100_000)}
    assert searched == table


@pytest.mark.parametrize("game", ["tictactoe", "mnk:5,5,4"])
def test_show_takes_the_position_it_prints(game):
    shown = json.loads(run("show", game, "--moves", "X4,O0", "--json").stdout)
    again = run("show", game, "--position", shown["position"], "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["code"] == shown["code"]
    assert shown["position"] in run("show", game, "--moves", "X4,O0").stdout


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["show", "tictactoe", "--solve", "10"], "error: --solve: tictactoe fits a table (at most 16 cells)"),
        (["show", "tictactoe", "--code", "3", "--position", "X../.../..."], "error: give one of --code, --moves and --position, not --code and --position"),
        (["show", "mnk:5,5,4", "--position", "X..."], "error: --position: position 'X...': expected 5 rows of 5 cells"),
    ],
)
def test_show_refuses_in_one_line(args, first):
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(first), result.stderr


@pytest.mark.parametrize(("game", "value", "files"), [
    ("tictactoe", "draw", ["tictactoe.p1-no-loss.json", "tictactoe.p2-no-loss.json"]),
    ("w3t", "win", ["w3t.p1-win.json"]),
    ("notakto", "win", ["notakto.p1-win.json"]),
])
def test_prove_value_writes_every_certificate_of_the_value(tmp_path, game, value, files):
    result = run("prove", game, "--value", "-o", str(tmp_path), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["value"] == value and sorted(Path(f).name for f in data["files"]) == files
    assert sorted(p.name for p in tmp_path.iterdir()) == files
    table_value = json.loads(run("stats", game, "--json").stdout)["root_value"]
    assert table_value == value
    for name in files:
        checked = run("check", str(tmp_path / name))
        assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_prove_value_from_a_position_is_one_line(tmp_path):
    result = run("prove", "tictactoe", "--value", "--position", "XO./.../...", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("win for tictactoe at XO./.../..., player 1 to move — wrote")
    assert [p.name for p in tmp_path.iterdir()] == ["tictactoe.p1-win.json"]


def test_prove_value_out_of_budget_says_what_it_settled_and_writes_nothing(tmp_path):
    result = run("prove", "mnk:4,4,3", "--value", "--max-nodes", "3", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert result.stdout.startswith("not settled mnk:4,4,3, player 1 to move — player 1 wins: node budget; nothing written")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "first"), [
    (["prove", "tictactoe", "--value", "--player", "1"], "error: --value settles both players' claims with the serial search; leave out --player"),
    (["prove", "tictactoe", "--value", "-o", "no/such/folder"], "error: -o no/such/folder: cannot write: no such folder (with --value, -o names the folder"),
    (["prove", "tictactoe", "--value", "--position", "XXX/OO./..."], "error: --position: the game is already over"),
])
def test_prove_value_refuses_in_one_line(args, first):
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.startswith(first), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_batch_lines_do_what_prove_does_with_the_same_words(tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("tictactoe --value\nw3t --claim win --player 2\n")
    folder = tmp_path / "proofs"
    result = run("prove", "--batch", str(lines), "-o", str(folder), "--workers", "1", "--json")
    assert result.exit_code == 1, result.stderr  # line 2 is a false claim
    value, refuted = json.loads(result.stdout)["items"]
    assert (value["status"], value["note"]) == ("proved", "draw")
    assert [Path(f).name.split(".")[1] for f in value["files"]] == ["p1-no-loss", "p2-no-loss"]
    assert refuted["status"] == "refuted" and [Path(f).name.split(".")[1] for f in refuted["files"]] == ["p1-no-loss"]
    single = tmp_path / "single"
    single.mkdir()
    assert run("prove", "tictactoe", "--value", "-o", str(single)).exit_code == 0
    assert Path(value["files"][0]).read_bytes() == (single / "tictactoe.p1-no-loss.json").read_bytes()
    assert run("prove", "w3t", "--claim", "win", "--player", "2", "-o", str(single / "w.json")).exit_code == 1
    assert Path(refuted["files"][0]).read_bytes() == (single / "w.json").read_bytes()
    again = json.loads(run("prove", "--batch", str(lines), "-o", str(folder), "--json").stdout)["items"]
    assert [i["status"] for i in again] == ["existing", "refuted"]


# ---- output a script can use; help that is whole ------------------------------------------------


def test_check_json_has_status_and_valid(tmp_path):
    cert = tmp_path / "t.json"
    assert run("solve", "tictactoe", "-o", str(cert)).exit_code == 0
    data = json.loads(run("check", str(cert), "--json").stdout)
    assert (data["status"], data["valid"], data["exit_code"]) == ("valid", True, 0)
    other = json.loads(run("check", str(cert), "--game", "w3t", "--json").stdout)
    assert (other["status"], other["valid"], other["exit_code"]) == ("invalid", False, 1)
    folder = json.loads(run("check", str(tmp_path), "--json").stdout)
    assert (folder["status"], folder["valid"]) == ("valid", True) and folder["files"][0]["status"] == "valid"


def test_audit_json_counts_every_verdict():
    result = run("audit", "certificates/claims/000.toml", "--json")
    data = json.loads(result.stdout)
    counts = data["counts"]
    verdicts = [c["verdict"] for a in data["audits"] for c in a["claims"]]
    assert counts["claims"] == len(verdicts) > 0
    assert {k: v for k, v in counts.items() if k != "claims"} == {v: verdicts.count(v) for v in get_args(Verdict)}


def test_games_json_lists_every_row_of_the_table():
    rows = json.loads(run("games", "--json").stdout)
    names = [row["game"] for row in rows]
    assert {"tictactoe", "w3t", "uttt", "mnk:R,C,K[,wild][,misere]", "FILE.json / FILE.toml"} <= set(names)
    table = run("games").stdout
    assert all(name in table for name in names)


def test_the_checker_help_is_whole():
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, "-m", "checker", "--help"], capture_output=True, text=True, check=True).stdout
    description = " ".join(shown.split("\n\n")[1].split())
    assert description.endswith("Progress goes to stderr when it is a terminal."), description
    assert "(not a certificate, or over the budget)" in description and "1,000,000" in shown


def test_a_spec_with_both_k_and_lines_is_refused(tmp_path):
    spec = tmp_path / "both.json"
    spec.write_text(json.dumps({"rows": 3, "cols": 3, "k": 3, "lines": [[0, 1, 2]], "marks": "own", "goal": "first-line-wins"}))
    result = run("solve", str(spec))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {spec}: a spec gives k or lines, not both (docs/rules.md)"


# ---- one vocabulary for file problems, empty arguments, bad numbers ------------------------------


@pytest.fixture()
def bad_files(tmp_path):
    good = tmp_path / "good.json"
    assert run("solve", "tictactoe", "-o", str(good)).exit_code == 0
    text = good.read_text()
    files = {
        "truncated": text[: len(text) // 2],
        "binary": b"\x7fELF\x02\x01\x01\x00\xd0\xff",
        "unreadable": '{"a": 1}',
        "empty": "",
    }
    paths = {}
    for name, content in files.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_bytes(content if isinstance(content, bytes) else content.encode())
    return paths


WORDS = {"truncated": "not valid JSON: ", "binary": "not UTF-8 text (bad byte at offset 8)",
         "unreadable": "not a certify certificate", "empty": "is empty"}


@pytest.mark.parametrize("problem", list(WORDS))
@pytest.mark.parametrize("command", [["check"], ["show", "tictactoe", "--cert"], ["stats", "tictactoe", "--cert"], ["z3", "value", "tictactoe", "--cert"]])
def test_a_bad_certificate_file_is_named_in_the_same_words_everywhere(bad_files, problem, command):
    path = bad_files[problem]
    result = run(*command, str(path))
    assert result.exit_code == 2
    assert result.stderr.strip() .startswith(f"error: {path}: {WORDS[problem]}"), result.stderr
    assert "None" not in result.stderr


@pytest.mark.parametrize("problem", ["truncated", "binary", "empty"])
def test_tree_and_explore_name_a_bad_file_in_those_words(bad_files, problem):
    for command in (["tree"], ["explore", "--no-check"]):
        result = run(*command, str(bad_files[problem]))
        assert result.exit_code == 2 and result.stderr.startswith(f"error: {bad_files[problem]}: {WORDS[problem]}"), result.stderr


def test_an_empty_file_in_a_folder_is_named_as_empty(tmp_path):
    (tmp_path / "empty.json").write_text("")
    result = run("check", str(tmp_path))
    assert result.exit_code == 2 and f"{tmp_path / 'empty.json'}: is empty" in result.stdout


@pytest.mark.parametrize(("args", "line"), [
    (["solve", ""], "error: certify solve: argument GAME is empty (see 'certify solve --help')"),
    (["solve", "tictactoe", "-o", ""], "error: certify solve: -o/--output is empty (see 'certify solve --help')"),
    (["check", ""], "error: certify check: argument CERTIFICATE is empty (see 'certify check --help')"),
    (["stats", "tictactoe", "--cert", ""], "error: certify stats: --cert is empty (see 'certify stats --help')"),
    (["check", "x.json", "--max-states", "abc"], "error: certify check: --max-states abc: must be a whole number (see 'certify check --help')"),
    (["z3", "value", "w3t", "--timeout", "soon"], "error: certify z3 value: --timeout soon: must be a number (see 'certify z3 value --help')"),
    (["show", "uttt", "--position", "xx"], "error: --position: a position is 81 cells"),
    (["show", "uttt", "--moves", "9.9"], "error: --moves: move '9.9'"),
    (["prove", "uttt", "--claim", "win", "--player", "1", "--position", "xx"], "error: --position: a position is 81 cells"),
])
def test_empty_arguments_and_bad_values_are_named(args, line):
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.strip().startswith(line), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ---- the Python API says what the command line says ---------------------------------------------


@pytest.mark.parametrize(("call", "words"), [
    (lambda c: c.game("nope"), "unknown game 'nope'"),
    (lambda c: c.solve("mnk:5,5,4"), "the table solver handles at most 16"),
    (lambda c: c.prove("tictactoe", 3), "player 3: must be 1 or 2"),
    (lambda c: c.prove("tictactoe", 1, "lose"), "claim 'lose': must be 'win' or 'no-loss'"),
    (lambda c: c.prove("tictactoe", 1, position="xx"), "position 'xx': expected 3 rows"),
    (lambda c: c.prove("uttt", 1, position="zz"), "a position is 81 cells"),
    (lambda c: c.load("no/such/file.json"), "no/such/file.json: no such file"),
    (lambda c: c.check("no/such/file.json"), "no/such/file.json: no such file"),
    (lambda c: c.solve("tictactoe").position("X4,X0"), "move X0 is not legal"),
    (lambda c: c.solve("tictactoe").position("Q"), "move 'Q'"),
    (lambda c: c.solve("tictactoe").strategy(3), "player 3: must be 1 or 2"),
    (lambda c: c.solve("tictactoe").position().play("X9"), "move X9 is not legal"),
    (lambda c: c.audit_claims("no/such.toml"), "no/such.toml: no such file"),
    (lambda c: c.solve("tictactoe").save("no/such/folder/x.json"), "cannot write: no such folder"),
])
def test_every_bad_input_to_the_api_is_one_certify_error(call, words):
    import certify

    with pytest.raises(certify.CertifyError) as caught:
        call(certify)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_api_certifies_a_disproof_like_the_cli(tmp_path):
    import certify

    proof = certify.prove("w3t", 2, "win", max_memory=4096)
    assert proof.status == "disproved" and proof.opposite is not None and proof.opposite.proved
    saved = proof.opposite.save(tmp_path / "o.json")
    cli = tmp_path / "cli.json"
    assert run("prove", "w3t", "--claim", "win", "--player", "2", "-o", str(cli)).exit_code == 1
    assert json.loads(saved.read_text())["proof"] == json.loads(cli.read_text())["proof"]


# ---- the README's quick start is what a user sees -------------------------------------------------


def normalised(line: str) -> str:
    """A line with what varies from run to run (times, memory) blanked, spaces collapsed."""
    line = re.sub(r"\d[\d,]*\.\d+ s\b", "T s", line)
    line = re.sub(r"peak [\d,]+ MB", "peak M MB", line)
    return " ".join(line.split())


def test_the_readme_quick_start_shows_real_output(tmp_path, monkeypatch):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme.split("## Quick start", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ certify "):
            commands.append((line[len("$ certify "):], []))
        elif line != "…":
            commands[-1][1].append(line)
    assert [c for c, _ in commands] == ["solve w3t", "check w3t.json", "prove tictactoe --value"]
    for command, shown in commands:
        result = run(*command.split())
        assert result.exit_code == 0, result.stderr
        out = [normalised(line) for line in result.stdout.splitlines()]
        missing = [line for line in shown if normalised(line) not in out]
        assert not missing, (command, missing, result.stdout)


# ---- resumable search ------------------------------------------------------------------------------


@pytest.mark.parametrize("core", ["python", "native"])
def test_a_checkpointed_search_resumes_to_the_same_certificate(tmp_path, core):
    checkpoint = tmp_path / "search.ckpt"
    claim = ("prove", "tictactoe", "--claim", "no-loss", "--player", "2", "--core", core)
    stopped = run(*claim, "--max-nodes", "100", "--checkpoint", str(checkpoint), "-o", str(tmp_path / "never.json"))
    assert stopped.exit_code == 1 and "not settled (node budget)" in stopped.stdout
    assert checkpoint.is_file() and not (tmp_path / "never.json").exists()
    copy = tmp_path / "copy.ckpt"  # a settled claim's --resume file is removed as spent
    copy.write_bytes(checkpoint.read_bytes())
    resumed = run(*claim, "--resume", str(checkpoint), "-o", str(tmp_path / "r.json"), "--json")
    assert resumed.exit_code == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["nodes"] > 100 and data["nodes_resumed"] == 100  # the nodes of both runs, and the checkpoint's
    again = run(*claim, "--resume", str(copy), "-o", str(tmp_path / "r2.json"))
    assert f"{data['nodes']:,} nodes ({data['nodes'] - 100:,} this run) in" in " ".join(again.stdout.split())
    straight = run(*claim, "-o", str(tmp_path / "s.json"))
    assert straight.exit_code == 0
    assert (tmp_path / "r.json").read_bytes() == (tmp_path / "s.json").read_bytes()


def test_the_checkpoint_is_named_when_kept_suggested_when_not_and_removed_once_spent(tmp_path):
    def said(result) -> str:
        return " ".join(result.stdout.split())  # as read, whatever the terminal's width

    checkpoint = tmp_path / "search.ckpt"
    claim = ("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--plain", "-o", str(tmp_path / "p.json"))
    stopped = run(*claim, "--max-nodes", "300", "--checkpoint", str(checkpoint))
    assert stopped.exit_code == 1 and "no certificate written" in said(stopped) and "nothing written" not in said(stopped)
    assert f"checkpoint kept at {checkpoint}: continue with --resume {checkpoint}" in said(stopped)
    unkept = run(*claim, "--max-nodes", "300")
    assert "the search's table is not kept: --checkpoint FILE saves it" in said(unkept)
    again = run(*claim, "--max-nodes", "50", "--resume", str(checkpoint), "--checkpoint", str(checkpoint), "--force", "--json")
    assert json.loads(again.stdout)["checkpoint"] == {"kept": str(checkpoint), "removed": None, "continue": f"--resume {checkpoint}"}
    resumed = run(*claim, "--resume", str(checkpoint), "--checkpoint", str(checkpoint), "--force")
    assert resumed.exit_code == 0 and f"removed the checkpoint {checkpoint}: the claim is settled" in said(resumed)
    assert not checkpoint.exists() and (tmp_path / "p.json").is_file()


def test_a_resumed_compiled_search_has_every_entry_and_continues_as_the_stopped_one_would(tmp_path):
    from pathlib import Path

    from solver.games.families import resolve_game
    from solver.search.native import NativeProofSearch
    from solver.search.pns import Claim

    game, claim = resolve_game("mnk:4,5,4"), Claim(2, "no-loss")
    start = game.initial()
    stopped = NativeProofSearch(game, claim, game.search_hooks())
    assert stopped.search(start, max_nodes=100_000).status == "node budget"  # the old load evicted 2,812 of 83,197
    dump = tmp_path / "table"
    with open(dump, "wb") as handle:
        count = stopped.dump_table(handle.fileno())
    resumed = NativeProofSearch(game, claim, game.search_hooks())
    resumed.load_table(Path(dump), 0, count, stopped.nodes, stopped.table_checksum())
    assert (resumed.entries, resumed.evictions, resumed.table_checksum()) == (stopped.entries, 0, stopped.table_checksum())
    for search in (stopped, resumed):
        assert search.search(start, max_nodes=40_000).status == "node budget"
    assert resumed.table_checksum() == stopped.table_checksum()  # the same work from the same table


def test_one_core_does_not_read_the_others_checkpoint(tmp_path):
    checkpoint = tmp_path / "c"
    claim = ("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--plain", "--max-nodes", "50")
    run(*claim, "--core", "native", "--checkpoint", str(checkpoint))
    result = run(*claim, "--core", "python", "--resume", str(checkpoint))
    assert result.exit_code == 2 and "a checkpoint of another search" in result.stderr, result.stderr


@pytest.mark.parametrize(("core", "game_text"), [("python", "tictactoe"), ("native", "mnk:4,4,3")])
def test_checkpoints_are_saved_while_the_search_runs(tmp_path, core, game_text):
    from certify.proving.checkpoint import load_checkpoint
    from certify.proving.single import prove, proof_search
    from solver.games.families import resolve_game
    from solver.games.game import NoHooks
    from solver.search.pns import Claim

    game, claim = resolve_game(game_text), Claim(2, "no-loss") if core == "python" else Claim(1, "win")
    checkpoint = tmp_path / "c"
    # budgets are read every 1,024 nodes (2,995 for this native claim), so a save comes at the first read
    attempt = prove(game, claim, plain=True, checkpoint=checkpoint, checkpoint_seconds=1e-6, core=core)
    assert attempt.outcome.status == "proved" and checkpoint.is_file() and attempt.core == core
    about = {"game": game_text, "rules_sha256": game.rules.sha256(), "player": claim.player, "result": claim.result,
             "position": None, "plain": True,
             **({"core": core} if core == "native" else {})}
    search, _ = proof_search(game, claim, NoHooks(), None, core, None)
    load_checkpoint(checkpoint, about, search, 0)
    assert 0 < search.nodes <= attempt.outcome.nodes and search.entries if core == "native" else search.table


def flip_last_entry_byte(data: bytes) -> bytes:
    """The checkpoint with one byte of its last table entry changed."""
    return data[:-30] + bytes([data[-30] ^ 1]) + data[-29:]


@pytest.mark.parametrize(("core", "damage", "words"), [
    ("python", lambda data: data.replace(b'"player": 1', b'"player": 2'), "a checkpoint of another search (player 2 win in mnk:4,4,3"),
    ("python", lambda data: data.replace(b'"version": 1', b'"version": 9'), "checkpoint version 9; this certify reads version 1"),
    ("python", lambda data: data[: len(data) - 40], "checkpoint table damaged"),
    ("python", lambda data: b'{"a": 1}\n', "not a certify checkpoint"),
    ("python", lambda data: data.replace(b'"raw_bytes": ', b'"raw_bytes": 99999999999999'), "checkpoint header states a table of"),
    ("native", lambda data: data.replace(b'"player": 1', b'"player": 2'), "a checkpoint of another search (player 2 win in mnk:4,4,3"),
    ("native", lambda data: data[: len(data) - 40], "checkpoint table damaged: the table ends early"),
    ("native", lambda data: data + b"x", "checkpoint table damaged: the table runs past its stated entries"),
    ("native", flip_last_entry_byte, "checkpoint table damaged"),
    ("native", lambda data: data.replace(b'"checksum": ', b'"checksum": -'), "checkpoint header states no compiled table"),
    ("native", lambda data: data.replace(b'"entries": ', b'"entries": -'), "checkpoint header states"),
])
def test_a_bad_checkpoint_is_one_line(tmp_path, core, damage, words):
    checkpoint = tmp_path / "c"
    claim = ("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--plain", "--core", core)
    run(*claim, "--max-nodes", "50", "--checkpoint", str(checkpoint))
    checkpoint.write_bytes(damage(checkpoint.read_bytes()))
    result = run(*claim, "--resume", str(checkpoint))
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {checkpoint}: {words}"), result.stderr


def test_a_stopped_search_says_which_first_moves_it_settled():
    result = run("prove", "tictactoe", "--claim", "win", "--player", "1", "--max-nodes", "1500", "--plain", "--json")
    assert result.exit_code == 1
    rows = json.loads(result.stdout)["first_moves"]
    assert [row["move"] for row in rows] == [f"X{cell}" for cell in range(9)]
    statuses = {row["status"] for row in rows}
    assert "disproved" in statuses and statuses <= {"disproved", "open"}  # X wins after no first move
    open_rows = [row for row in rows if row["status"] == "open"]
    assert open_rows and all(row["pn"] > 0 and row["dn"] > 0 for row in open_rows)  # the table's numbers after each
    assert all("pn" not in row for row in rows if row["status"] != "open")
    said = " ".join(run("prove", "tictactoe", "--claim", "win", "--player", "1", "--max-nodes", "1500", "--plain").stdout.split())
    assert "fails (disproved): disproved X" in said
    nearest = min(open_rows, key=lambda row: (row["pn"], -row["dn"]))  # named first: nearest to proved
    assert f"{len(open_rows)} open: {nearest['move']} (pn {nearest['pn']} dn {nearest['dn']})" in said


# ---- progress and targets ---------------------------------------------------------------------------


def fake_startup(times: dict[str, float]):
    def startup_benchmark(repeat: int) -> list[dict]:
        targets = {"certify --help": 0.30, "certify solve w3t -o FILE": 0.35}
        return [{"command": name, "runs": repeat, "median_s": t, "best_s": t, "over_python_s": t, "peak_rss_mb": 20.0,
                 "target_s": targets.get(name)} for name, t in times.items()]
    return startup_benchmark


@pytest.mark.parametrize(("solve_seconds", "code", "mark"), [(0.2, 0, "✓"), (0.5, 1, "✗")])
def test_bench_marks_a_missed_target_and_exits_nonzero(monkeypatch, solve_seconds, code, mark):
    import certify.bench.startup

    monkeypatch.setattr(certify.bench.startup, "startup_benchmark",
                        fake_startup({"python -c pass": 0.02, "certify --help": 0.1, "certify solve w3t -o FILE": solve_seconds}))
    result = run("bench", "--suite", "startup", "--repeat", "1")
    assert result.exit_code == code
    assert f"≤ 0.35 s {mark}" in result.stdout
    assert ("1 target missed: certify solve w3t -o FILE" in result.stderr) == (code == 1)
    data = json.loads(run("bench", "--suite", "startup", "--repeat", "1", "--json").stdout)
    assert data["targets_missed"] == ([] if code == 0 else ["certify solve w3t -o FILE"])


def test_search_progress_shows_the_fraction_of_the_budget():
    from certify.cli.prove import progress_line
    from solver.search.pns import Progress

    p = Progress(nodes=250, root_pn=3, root_dn=4, entries=10, seconds=0.5, rss_mb=40.0)
    assert progress_line(p, 1000, None) == "250 nodes (25% of the node budget)  root pn 3 dn 4  500 nodes/s  10 entries  40 MB"
    assert "(50% of the memory budget)" in progress_line(p, 1000, 80)
    assert "budget" not in progress_line(p, None, None)
    walking = Progress(nodes=250, root_pn=0, root_dn=2**60, entries=10, seconds=0.5, rss_mb=40.0, walked=65_536)
    assert progress_line(walking, 1000, None) == "proved in 250 nodes; writing the proof: 65,536 positions  40 MB"


def test_audit_and_publish_name_the_step_that_runs(monkeypatch):
    import io

    from rich.console import Console

    from certify.cli import audit as audit_module

    with audit_module.step_progress(False, "publishing") as update:
        assert update is None  # not a terminal: no progress line (docs/cli.md)
    sink = io.StringIO()
    monkeypatch.setattr(audit_module, "errors", Console(file=sink, force_terminal=True, width=100))
    with audit_module.step_progress(True, "publishing", 3) as update:
        assert update is not None
        update("certificate: w3t")
        update("audit: 000.md")
    assert "publishing: certificate: w3t" in sink.getvalue() or "publishing: audit: 000.md" in sink.getvalue()


# ---- pictures ------------------------------------------------------------------------------------------


UTTT_LATE = ".OXXXXXOO/.XXOOX.X./.OOXOO.XO/OX.OOOOOO/OX..XX.../..XO.O.OO/.XX.X.XOO/O.XXO.XXX/...O.XOXX 2"


@pytest.fixture(scope="module")
def uttt_proof(tmp_path_factory):
    path = tmp_path_factory.mktemp("uttt") / "u.json"
    result = run("prove", "uttt", "--claim", "no-loss", "--player", "2", "--position", UTTT_LATE, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


def test_tree_of_a_uttt_proof_names_moves_and_boards_not_81_cells(uttt_proof):
    result = run("tree", str(uttt_proof), "--depth", "2")
    assert result.exit_code == 0, result.stderr
    assert "X to play in board 2 [X 1 8 · O 4 5]" in result.stdout
    assert "if 2.3  O to play in board 3" in result.stdout
    assert not re.search(r"[.XO]{9}/", result.stdout)  # no position strings


def test_tree_exports_dot_and_svg(uttt_proof):
    from xml.dom.minidom import parseString

    graph = run("tree", str(uttt_proof), "--depth", "1", "--format", "dot")
    assert graph.exit_code == 0 and graph.stdout.startswith("digraph proof {") and graph.stdout.rstrip().endswith("}")
    edges = graph.stdout.count(" -> ")
    nodes = len(re.findall(r"^  n\d+ \[label=", graph.stdout, re.M))
    assert nodes == edges + 1 and '[label="2.3"' in graph.stdout
    picture = run("tree", str(uttt_proof), "--depth", "1", "--format", "svg")
    document = parseString(picture.stdout)
    assert len(document.getElementsByTagName("rect")) == nodes  # one box per position
    table = run("tree", "w3t", "--depth", "1", "--format", "svg")
    assert table.exit_code == 0 and parseString(table.stdout).getElementsByTagName("rect")
    assert run("tree", "w3t", "--format", "dot", "--json").exit_code == 2


@pytest.mark.parametrize(("args", "rects"), [
    (["show", "w3t", "--moves", "X4,O0"], 9),
    (["show", "mnk:5,5,4", "--moves", "X12"], 25),
    (["show", "uttt", "--moves", "4.0 0.4 4.8"], 9 + 81),
])
def test_show_exports_svg(args, rects):
    from xml.dom.minidom import parseString

    result = run(*args, "--format", "svg")
    assert result.exit_code == 0, result.stderr
    assert len(parseString(result.stdout).getElementsByTagName("rect")) == rects


def test_show_svg_of_a_table_state_carries_each_move_value():
    shown = run("show", "w3t", "--moves", "X4,O0", "--format", "svg").stdout
    view = json.loads(run("show", "w3t", "--moves", "X4,O0", "--json").stdout)
    assert shown.count("<tspan fill=") == 2 * len(view["moves"])  # mark and value of every move


# ---- explorer pages of proofs ---------------------------------------------------------------------------


def test_explore_names_the_page_after_the_file_and_never_replaces_another(tmp_path, monkeypatch, uttt_proof):
    monkeypatch.chdir(tmp_path)
    w8 = tmp_path / "w8.json"
    w8.write_bytes(uttt_proof.read_bytes())
    first = run("explore", str(w8), "--no-check")
    assert first.exit_code == 0, first.stderr
    page = tmp_path / "w8.html"
    assert page.is_file() and not (tmp_path / "uttt.html").exists()
    assert '<meta name="certify-page" content="strategy uttt ' in page.read_text()
    assert run("explore", str(w8), "--no-check").exit_code == 0  # the same proof's page: replaced
    other = tmp_path / "other.json"
    assert run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(other)).exit_code == 0
    before = page.read_bytes()
    refused = run("explore", str(other), "--no-check", "-o", str(page))
    assert refused.exit_code == 2 and refused.stderr.startswith(f"error: {page}: exists and is the page of strategy uttt")
    assert page.read_bytes() == before
    assert run("explore", str(other), "--no-check", "-o", str(page), "--force").exit_code == 0


def test_a_proof_page_has_no_best_move_legend_and_equal_columns(uttt_proof, tmp_path):
    out = tmp_path / "p.html"
    assert run("explore", str(uttt_proof), "--no-check", "-o", str(out)).exit_code == 0
    html = out.read_text()
    assert '<span id="legend-best">' in html and '$("legend-best").hidden = true' in html
    assert "repeat(${model.cols}, minmax(0, 1fr))" in html


# ---- benchmark figures ------------------------------------------------------------------------------------


def fake_uttt_run(plies, positions, seconds, progress=None, extend=True, plain=True, peer_source=None, peer_share=1.0,
                  estimate=False):
    from certify.bench.uttt import Attempt

    out = []
    for mode in ("critical", "plain"):
        for ply in plies:
            for i in range(positions):
                settled = i < positions - (1 if mode == "plain" else 0)
                out.append((mode, Attempt(ply, f"p{ply}.{i}", "win" if settled else None, 0.1 * (i + 1), 1000 * (i + 1),
                                          500 * (i + 1) if settled else 0, 0.01 * (i + 1) if settled else 0.0, settled)))
    return out


def test_bench_plot_draws_the_uttt_figures(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="the plot extra is not installed: pip install -e '.[plot]'")
    from xml.dom.minidom import parse

    import certify.bench.uttt

    monkeypatch.setattr(certify.bench.uttt, "uttt_benchmark", fake_uttt_run)
    out = tmp_path / "frontier.svg"
    result = run("bench", "--suite", "uttt", "--plies", "50,45", "--positions", "3", "--plot", str(out))
    assert result.exit_code == 0, result.stderr
    texts = " ".join(node.toxml() for node in parse(str(out)).getElementsByTagName("g") if node.getAttribute("id").startswith("text_"))
    assert all(f"<!-- {title} -->" in texts for title in ("positions settled (the frontier)", "proof search speed", "independent check"))
    png = tmp_path / "frontier.png"
    assert run("bench", "--suite", "uttt", "--plies", "50", "--positions", "2", "--plot", str(png)).exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("args", "words"), [
    (["bench", "--suite", "startup", "--plot", "x.svg"], "error: --plot applies to --suite uttt only, not --suite startup"),
    (["bench", "--suite", "uttt", "--plot", "x.pdf"], "error: --plot x.pdf: a plot is written as .svg or .png"),
    (["bench", "--suite", "uttt", "--plot", "no/such/folder/x.svg"], "error: no/such/folder/x.svg: cannot write: no such folder"),
])
def test_bench_plot_refuses_in_one_line(args, words):
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.startswith(words), result.stderr


def test_bench_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    import sys

    import certify.bench.uttt

    monkeypatch.setattr(certify.bench.uttt, "uttt_benchmark", fake_uttt_run)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    result = run("bench", "--suite", "uttt", "--plies", "50", "--positions", "1", "--plot", str(tmp_path / "f.svg"))
    assert result.exit_code == 2 and result.stderr.strip() == "error: matplotlib is not installed: pip install -e '.[plot]'"


def test_proof_pages_shade_won_local_boards_as_the_cli_does(uttt_proof, tmp_path):
    """The page's blockStatus (run by node, where installed) agrees with certify/render/uttt.py."""
    import shutil
    import subprocess

    from certify.render.uttt import board_status
    from solver.games.uttt.engine import Uttt

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's JavaScript is exercised by the browser tests")
    script = (Path(__file__).resolve().parents[1] / "certify" / "explorer" / "page.js").read_text()
    function = re.search(r"\n  function blockStatus\(.*?\n  }\n", script, re.S).group(0)
    game = Uttt()
    s = game.parse_position(UTTT_LATE)
    cells = [".XO".index(c) for c in UTTT_LATE.split(" ")[0].replace("/", "")]
    out = subprocess.run([node, "-e", f"{function}\nconsole.log(JSON.stringify(blockStatus({json.dumps(cells)}, 9, 3)))"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [board_status(s, b) for b in range(9)]
    page = tmp_path / "p.html"
    assert run("explore", str(uttt_proof), "--no-check", "-o", str(page)).exit_code == 0
    html = page.read_text()
    assert 'id="legend-boards" hidden' in html and ".won1 {" in html and "cls.push(`won${status}`)" in html


def test_ctrl_c_saves_a_checkpoint_that_resumes(tmp_path):
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    game = resolve_game("tictactoe")
    checkpoint = tmp_path / "c"

    def interrupt(_progress):
        raise KeyboardInterrupt  # what Ctrl-C raises mid-search (the first report comes at 1,024 nodes)

    stopped = prove(game, Claim(2, "no-loss"), plain=True, progress=interrupt, checkpoint=checkpoint)
    assert stopped.outcome.status == "interrupted" and checkpoint.is_file()
    resumed = prove(game, Claim(2, "no-loss"), plain=True, resume=checkpoint)
    straight = prove(game, Claim(2, "no-loss"), plain=True)
    assert resumed.outcome.status == "proved" and resumed.text == straight.text


def test_pairings_are_refused_for_a_game_without_pairing_closures():
    result = run("prove", "uttt", "--claim", "no-loss", "--player", "1", "--pairings")
    assert result.exit_code == 2 and result.stderr.startswith("error: --pairings: uttt has no pairing closures"), result.stderr


def large_proof_flow() -> list[str]:
    """The README's commands that prove and check player 2's half of the 5×5 draw, as written."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    blocks = readme.split("```console\n")[1:]
    block = next(b.split("```", 1)[0] for b in blocks if "$ certify prove mnk:5,5,4" in b.split("```", 1)[0])
    return [line[2:] for line in block.splitlines() if line.startswith("$ ")]


def test_the_readme_large_proof_flow_checks_the_file_its_prove_command_writes():
    from certify.cli.options import default_output
    from solver.search.pns import Claim

    prove_line, check_line = large_proof_flow()
    assert prove_line == "certify prove mnk:5,5,4 --claim no-loss --player 2"
    written = default_output("mnk:5,5,4", Claim(2, "no-loss")).name
    assert check_line == f"certify check {written} --game mnk:5,5,4"  # --game: the budget fits a proof of that game


@pytest.mark.slow
def test_the_readme_large_proof_flow_runs_verbatim(tmp_path):
    """About 3 minutes and 2.5 GB to prove, 4 to 8 minutes to check on a shared 2-core machine."""
    import shlex
    import subprocess

    for line in large_proof_flow():
        done = subprocess.run(shlex.split(line), cwd=tmp_path, capture_output=True, text=True, timeout=3600)
        assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert "VALID strategy" in done.stdout


def test_tree_draws_a_proof_closed_by_pairings_or_counts():
    closed = "certificates/proofs/closed/mnk-4-4-4.p2-no-loss.json"
    data = json.loads(run("tree", closed, "--depth", "1", "--json").stdout)
    replies = data["tree"]["replies"]
    assert len(replies) == 16 and all(reply.get("closed") for reply in replies.values())  # every first move of X closed
    assert data["closures"] == 16 and data["prover_moves"] == 0
    drawn = run("tree", closed, "--depth", "1")
    assert drawn.exit_code == 0 and drawn.stdout.count("■ closed by a pairing") == 17  # 16 leaves and the key line
    counted = run("tree", "certificates/proofs/closed/uttt-open.p2-no-loss-within-21.json", "--depth", "2")
    assert counted.exit_code == 0, counted.stderr
    assert "does not lose within 21 plies" in counted.stdout and "■ closed by a count" in counted.stdout
    graph = run("tree", closed, "--depth", "1", "--format", "dot").stdout
    assert graph.count("\\nclosed by a pairing") == 16


def test_tree_of_a_bounded_proof_stops_at_its_bound(tmp_path):
    path = tmp_path / "b3.json"
    assert run("prove", "mnk:3,3,3", "--claim", "no-loss", "--player", "2", "--within", "3", "-o", str(path)).exit_code == 0
    drawn = run("tree", str(path), "--depth", "2")
    assert drawn.exit_code == 0 and "within 3 plies" in drawn.stdout
    data = json.loads(run("tree", str(path), "--depth", "2", "--json").stdout)
    plays = [reply["then"] for reply in data["tree"]["replies"].values()]
    assert all(child.get("bound") for play in plays for child in play["replies"].values())  # ply 3: the bound
    assert drawn.stdout.count("⊣ the bound") == sum(len(play["replies"]) for play in plays)


def test_a_resumed_search_reports_this_runs_rate_not_the_checkpoints_nodes_over_this_runs_seconds():
    from certify.cli.prove import summary
    from certify.proving.single import Attempt
    from solver.search.pns import Claim, Outcome

    outcome = Outcome("node budget", 5, 7, 1_000, 900, 2.0, 10.0)
    fresh, resumed = (summary(Attempt(Claim(1, "win"), None, outcome, None, None, 2.5, resumed=r), None) for r in (0, 600))
    assert fresh["nodes_per_second"] == 500 and "nodes_resumed" not in fresh
    assert resumed["nodes_per_second"] == 200 and resumed["nodes_resumed"] == 600 and resumed["nodes"] == 1_000
