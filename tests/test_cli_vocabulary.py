"""One vocabulary (docs/cli.md, Errors): every command × every bad input, the same problem in the same words.

Each bad input (a truncated file, a binary file, an empty file, a folder, a file in a missing folder,
JSON of something else, an empty argument, a word where a number goes, a position that does not parse)
is given to every command and option that reads one. Each must end with exit 2 and one line on stderr,
`error: ...`, no traceback and nothing on stdout, in the words docs/cli.md lists, naming the file or the
option. The tables below are checked against the commands themselves: a new command's FILE, number or
position option must be added here, or `test_every_file_option_is_in_the_matrix` fails.
"""

from __future__ import annotations

import importlib
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from certify.cli import app
from certify.cli.registry import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

# ---- the bad files, made once -------------------------------------------------------------------

BAD_FILES = ("truncated", "binary", "empty", "folder", "missing-folder", "foreign")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One file of each problem (and a good certificate and claims file to use beside them)."""
    folder = tmp_path_factory.mktemp("bad")
    good = folder / "ttt.json"
    assert runner.invoke(app, ["solve", "tictactoe", "-o", str(good)]).exit_code == 0
    made = {
        "good": good,
        "truncated": folder / "truncated.json",
        "binary": folder / "binary.json",
        "empty": folder / "empty.json",
        "folder": folder / "a-folder.json",
        "missing-folder": folder / "no" / "such.json",
        "foreign": folder / "foreign.json",
        "holds-empty": folder / "holds-empty",
        "claims": folder / "claims.toml",
        "batch": folder / "batch.txt",
    }
    made["truncated"].write_text(good.read_text(encoding="utf-8")[:60], encoding="utf-8")
    made["binary"].write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    made["empty"].write_text("")
    made["folder"].mkdir()
    made["foreign"].write_text('{"a": 1}')
    made["batch"].write_text("tictactoe --claim win --player 1\n")
    made["holds-empty"].mkdir()
    (made["holds-empty"] / "a.json").write_text("")
    made["claims"].write_text((ROOT / "certificates" / "claims" / "000.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return made


def run(*args: str):
    return runner.invoke(app, list(args))


def one_error_line(result) -> str:
    """The run's only output: one `error:` line on stderr, exit 2, nothing on stdout, no traceback."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr and "None" not in result.stderr
    return lines[0]


# ---- files read: every reader says a file's problem in the same words -------------------------------

# What `{"a": 1}` is not, per kind of file a command reads there.
FOREIGN = {
    "certificate": "{}: not a certify certificate",
    "spec": "{}: not a game spec: unknown field 'a'",
    "game-or-certificate": "{}: neither a game spec nor a certify certificate: unknown field 'a'",
    "policy": "{}: not a policy table",
    "checkpoint": "{}: not a certify checkpoint",
    "repair log": "{}: not a certify repair log",
}

COMMON = {
    "truncated": "{}: not valid JSON: ",
    "binary": "{}: not UTF-8 text (bad byte at offset 0)",
    "empty": "{}: is empty",
    "folder": "{}: is a directory",
    "missing-folder": "{}: no such file",
}

# (command with {} where the file goes, what kind of file it reads there)
FILE_INPUTS = [
    ("check {}", "certificate"),
    ("check ttt.json --game {}", "spec"),
    ("verify {}", "spec"),
    ("solve {}", "spec"),
    ("stats {}", "spec"),
    ("stats tictactoe --cert {}", "certificate"),
    ("show {}", "spec"),
    ("show tictactoe --cert {}", "certificate"),
    ("prove {} --claim win --player 1", "spec"),
    ("prove tictactoe --claim win --player 1 --resume {}", "checkpoint"),
    ("prove tictactoe --claim win --player 1 --within 5 --from-proof {}", "certificate"),
    (f"prove mnk:4,4,3 --claim win --player 1 --within 5 --from-proof {ROOT}/certificates/proofs/mnk-4-4-3.p1-win.json "
     "-o - --resume {}", "repair log"),
    ("tree {}", "game-or-certificate"),
    ("tree tictactoe --cert {}", "certificate"),
    ("explore {}", "game-or-certificate"),
    ("play {}", "spec"),
    ("play tictactoe --cert {}", "certificate"),
    ("z3 value {}", "game-or-certificate"),
    ("z3 value tictactoe --cert {}", "certificate"),
    ("z3 strategy {}", "game-or-certificate"),
    ("z3 strategy tictactoe --cert {}", "certificate"),
    ("z3 pairing {} --search", "spec"),
    ("pairing search {}", "spec"),
    ("policy audit {} --policy random", "spec"),
    ("policy audit tictactoe --policy {}", "policy"),
]
# Files that are not JSON by nature: their own words for content, the common words for the rest.
TEXT_INPUTS = [
    ("audit {}", {"truncated": None, "foreign": "{}: not valid TOML: "}),  # a TOML file: any JSON is not TOML
    ("prove --batch {}", {"truncated": "{}: line 1: ", "foreign": "{}: line 1: "}),  # lines of prove arguments
    ("bench --suite scale --peer-source {}", {"truncated": None, "binary": None, "foreign": None}),  # C source, read by gcc
]
BINARY_INPUTS = {"checkpoint"}  # a checkpoint is zlib data: a binary or truncated one is not a checkpoint


def expected_words(kind: str, problem: str, template: str) -> str:
    if template == "check {}" and problem == "folder":  # check takes a folder of certificates too
        return "{}: no .json files to check"
    if problem == "foreign":
        return FOREIGN[kind]
    if kind in BINARY_INPUTS and problem in ("truncated", "binary"):
        return FOREIGN[kind]
    return COMMON[problem]


def command_args(template: str, path: Path, files: dict[str, Path]) -> list[str]:
    return [str(path) if word == "{}" else str(files["good"]) if word == "ttt.json" else word for word in template.split()]


@pytest.mark.parametrize("problem", BAD_FILES)
@pytest.mark.parametrize(("template", "kind"), FILE_INPUTS, ids=[t for t, _ in FILE_INPUTS])
def test_a_bad_file_is_named_in_the_same_words_by_every_reader(files, template, kind, problem):
    path = files[problem]
    line = one_error_line(run(*command_args(template, path, files)))
    assert line.startswith("error: " + expected_words(kind, problem, template).format(path)), line


@pytest.mark.parametrize("problem", BAD_FILES)
@pytest.mark.parametrize(("template", "own"), TEXT_INPUTS, ids=[t for t, _ in TEXT_INPUTS])
def test_a_bad_text_file_is_named_in_the_same_words(files, template, own, problem):
    path = files[problem]
    words = own[problem] if problem in own else COMMON[problem]
    if words is None:
        pytest.skip(f"a {problem} file is a readable file of this kind")
    line = one_error_line(run(*command_args(template, path, files)))
    assert line.startswith("error: " + words.format(path)), line


def test_an_empty_file_inside_a_folder_is_named_as_empty(files):
    result = run("check", str(files["holds-empty"]))
    inner = files["holds-empty"] / "a.json"
    assert result.exit_code == 2 and f"✗ {inner}: is empty\n" in result.stdout, result.stdout


def test_a_certificate_given_as_game_is_named_so(files):
    good = files["good"]
    for args in (["solve", str(good)], ["stats", str(good)], ["show", str(good)], ["prove", str(good), "--value"],
                 ["pairing", "search", str(good)], ["check", str(good), "--game", str(good)]):
        line = one_error_line(run(*args))
        assert line.startswith(f"error: {good}: a certify certificate, not a GAME"), (args, line)


# ---- files written: a folder, a missing folder ---------------------------------------------------

FILE_OUTPUTS = [
    "solve tictactoe -o {}",
    "verify tictactoe -o {}",
    "explore tictactoe -o {}",
    "prove tictactoe --claim win --player 1 -o {}",
    "prove tictactoe --claim win --player 1 --checkpoint {}",
    "pairing search tictactoe -o {}",
    "audit claims.toml -o {}",
    "bench --suite uttt --plot {}",
]
FOLDER_OUTPUTS = [("verify tictactoe --out-dir {}", "--out-dir"), ("prove tictactoe --value -o {}", "-o"),
                  ("prove --batch batch.txt -o {}", "-o"), ("pairing openings tictactoe --out-dir {}", "--out-dir")]


@pytest.mark.parametrize("template", FILE_OUTPUTS)
def test_an_output_into_a_folder_or_a_missing_folder_is_refused_in_the_same_words(files, tmp_path, template):
    suffix = ".svg" if "--plot" in template else ".json"
    folder = tmp_path / f"out{suffix}"
    folder.mkdir()
    missing = tmp_path / "no" / f"such{suffix}"

    def args(path: Path) -> list[str]:
        return [str(files["claims"]) if w == "claims.toml" else w for w in command_args(template, path, files)]

    assert one_error_line(run(*args(folder))) == f"error: {folder}: cannot write: is a directory"
    assert one_error_line(run(*args(missing))).startswith(f"error: {missing}: cannot write: no such folder")


@pytest.mark.parametrize(("template", "option"), FOLDER_OUTPUTS)
def test_an_output_folder_that_is_a_file_or_missing_is_named_with_its_option(files, tmp_path, template, option):
    missing = tmp_path / "no" / "such"
    for path, words in ((files["empty"], "cannot write: is not a folder"), (missing, "cannot write: no such folder")):
        args = [str(files["batch"]) if w == "batch.txt" else w for w in command_args(template, path, files)]
        assert one_error_line(run(*args)).startswith(f"error: {option} {path}: {words}")


def test_input_folders_are_named_with_their_option(files, tmp_path):
    missing = tmp_path / "no" / "such"
    assert one_error_line(run("verify", "tictactoe", "--claims", str(missing))).startswith(f"error: --claims {missing}: no such folder")
    assert one_error_line(run("verify", "tictactoe", "--claims", str(files["empty"]))).startswith(f"error: --claims {files['empty']}: is not a folder")


# ---- every option, from the commands themselves ----------------------------------------------------


def leaf_commands() -> dict[str, typer.core.click.Command]:
    """Every command and subcommand by its path (`z3 value`), every module imported."""
    for module, _ in COMMANDS.values():
        importlib.import_module(module)
    found = {}

    def walk(command, path: str) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, f"{path} {name}".strip())
        else:
            found[path] = command

    walk(typer.main.get_command(app), "")
    return found


LEAVES = leaf_commands()


def placeholders(command) -> list[str]:
    """A value for each required argument, so only the option under test is wrong."""
    return ["tictactoe" for p in command.params if p.param_type_name == "argument" and p.required]


def options_of(kind: str) -> list[tuple[str, str]]:
    """(command, option) for every option whose type is `kind` (int, float, path, or a value at all)."""
    found = []
    for path, command in LEAVES.items():
        for param in command.params:
            if param.param_type_name != "option" or getattr(param, "is_flag", False) or param.name == "help":
                continue
            name = getattr(param.type, "name", "")
            if kind == "value" or (kind == "number" and name in ("integer", "float", "integer range", "float range")) \
                    or (kind == "path" and name == "path"):
                found.append((path, param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0]))
    return found


@pytest.mark.parametrize(("command", "option"), options_of("number"), ids=lambda v: v)
def test_a_word_where_a_number_goes_is_said_in_plain_words(command, option):
    args = [*command.split(), *placeholders(LEAVES[command]), option, "abc"]
    kind = getattr(next(p for p in LEAVES[command].params if option in p.opts).type, "name", "")
    number = "a whole number" if kind.startswith("integer") else "a number"
    assert one_error_line(run(*args)) == f"error: certify {command}: {option} abc: must be {number} (see 'certify {command} --help')"


@pytest.mark.parametrize(("command", "option"), options_of("value"), ids=lambda v: v)
def test_an_empty_option_value_is_named_as_empty(command, option):
    param = next(p for p in LEAVES[command].params if option in p.opts)
    args = [*command.split(), *placeholders(LEAVES[command]), option, ""]
    named = "/".join(param.opts)
    assert one_error_line(run(*args)) == f"error: certify {command}: {named} is empty (see 'certify {command} --help')"


@pytest.mark.parametrize("command", [c for c, cmd in LEAVES.items() if any(p.param_type_name == "argument" for p in cmd.params)])
def test_an_empty_argument_is_named_as_empty(command):
    argument = next(p for p in LEAVES[command].params if p.param_type_name == "argument")
    line = one_error_line(run(*command.split(), ""))
    name = argument.metavar or str(argument.name).upper()
    assert line == f"error: certify {command}: argument {name} is empty (see 'certify {command} --help')"


def test_every_file_option_is_in_the_matrix():
    """A FILE or folder option added to any command must be listed above (as an input or an output)."""
    templates = [t for t, _ in FILE_INPUTS + TEXT_INPUTS + FOLDER_OUTPUTS] + FILE_OUTPUTS + ["verify tictactoe --claims {}"]
    missing = []
    for path, command in LEAVES.items():
        for param in command.params:
            if param.param_type_name == "option" and getattr(param.type, "name", "") == "path" and not any(
                    template.startswith(path + " ") and any(f"{opt} {{}}" in template for opt in param.opts) for template in templates):
                missing.append(f"{path} {param.opts[0]}")
    assert missing == ["publish --root"]  # the repository to regenerate: not a file of one kind


# ---- values that do not parse name their option, in every family -------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["show", "tictactoe", "--position", "zz"], "error: --position: position 'zz': expected 3 rows"),
    (["show", "mnk:5,5,4", "--position", "zz"], "error: --position: position 'zz': expected 5 rows"),
    (["show", "uttt", "--position", "zz"], "error: --position: a position is 81 cells"),
    (["show", "tictactoe", "--moves", "zz"], "error: --moves: move 1, 'zz' is not a move"),
    (["show", "uttt", "--moves", "zz"], "error: --moves: move 'zz': expected BOARD.CELL"),
    (["prove", "tictactoe", "--claim", "win", "--player", "1", "--position", "zz"], "error: --position: position 'zz'"),
    (["prove", "mnk:5,5,4", "--claim", "win", "--player", "1", "--position", "zz"], "error: --position: position 'zz'"),
    (["prove", "uttt", "--claim", "win", "--player", "1", "--position", "zz"], "error: --position: a position is 81 cells"),
    (["prove", "tictactoe", "--value", "--position", "zz"], "error: --position: position 'zz'"),
    (["pairing", "search", "tictactoe", "--position", "zz"], "error: --position: position 'zz'"),
    (["prove", "tictactoe", "--claim", "win", "--player", "1", "--policy", "zz"], "error: --policy: policy 'zz': expected module:function"),
    (["policy", "audit", "tictactoe", "--policy", "zz"], "error: --policy: unknown policy 'zz'"),
    (["z3", "pairing", "tictactoe", "--pairs", "zz"], "error: --pairs: pair 'zz': expected two cells like 1-2"),
    (["z3", "pairing", "tictactoe", "--search", "--opening", "zz"], "error: --opening: cell 'zz' is not a number in 0..8"),
    (["z3", "strategy", "tictactoe", "--claim", "zz"], "error: --claim zz: must be win, no-loss, draw or no-lines"),
    (["prove", "tictactoe", "--claim", "lose", "--player", "1"], "error: certify prove: --claim lose: must be win or no-loss"),
    (["prove", "tictactoe", "--claim", "win", "--player", "3"], "error: certify prove: --player 3: must be 1 or 2"),
    (["show", "tictactoe", "--code", "99999999"], "error: --code 99999999: must be in 0..19,682"),
    (["bench", "--suite", "uttt", "--plies", "abc"], "error: --plies abc: must be whole numbers separated by commas"),
    (["bench", "--plies", "40"], "error: --plies applies to --suite uttt only, not --suite solver"),
    (["bench", "--suite", "uttt", "--repeat", "3"], "error: --repeat applies to --suite solver, z3, pairing, all or startup only"),
    (["show", "mnk:5,5,4", "--cert", "x.json"], "error: --cert x.json: mnk:5,5,4 is past the tables"),
    (["show", "uttt", "--cert", "x.json"], "error: --cert x.json: uttt has no table certificate"),
    (["show", "mnk:9,9,5"], "error: mnk:9,9,5: board 9x9 has 81 cells; a board has 1 to 64 cells (any shape: 8x8, 4x16, 1x64)"),
    # these read the solved table: past 4x4 they say so before any work (each was an internal error)
    (["verify", "qubic"], "error: qubic: 4x16 has 64 cells; the table solver handles at most 16 (4x4) — use `certify prove`"),
    (["play", "mnk:5,5,4"], "error: mnk:5,5,4: 5x5 has 25 cells; the table solver handles at most 16"),
    (["policy", "audit", "mnk:5,5,4", "--policy", "random"], "error: mnk:5,5,4: 5x5 has 25 cells; the table solver handles at most 16"),
])
def test_a_value_that_does_not_parse_names_its_option(args, words):
    assert one_error_line(run(*args)).startswith(words)


# ---- the independent checker says the same -----------------------------------------------------------


def checker(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("problem", BAD_FILES)
def test_the_checker_names_a_bad_file_in_the_same_words(files, problem):
    path = files[problem]
    done = checker(str(path))
    words = "not a certify certificate" if problem == "foreign" else COMMON[problem]  # what is inside: the one file it reads
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done
    assert done.stderr.startswith("ERROR: " + words.format(path)) and "None" not in done.stderr, done.stderr


@pytest.mark.parametrize(("args", "line"), [
    (["x.json", "--max-states", "abc"], "ERROR: --max-states abc: must be a whole number (see 'python -m checker --help')"),
    ([""], "ERROR: argument CERTIFICATE is empty"),
    ([], "ERROR: the following arguments are required: CERTIFICATE (see 'python -m checker --help')"),
])
def test_the_checker_usage_errors_are_one_line(args, line):
    done = checker(*args)
    assert done.returncode == 2 and done.stderr == line + "\n" and done.stdout == ""


def test_the_checkers_budget_line_separates_thousands_but_not_the_options_to_type(files):
    states = json.loads(files["good"].read_text(encoding="utf-8"))["table"]["states"]
    done = checker(str(files["good"]), "--max-states", "10")
    assert done.returncode == 2 and f"table.states = {states:,} and" in done.stderr and f"--max-states {states} " in done.stderr


# ---- what the commands print: counts in words, no Python None ------------------------------------------

SINGULAR_WRONG = re.compile(r"(?<![\d,.#])1 (states|positions|moves|nodes|entries|classes|files|claims|searches|plies|"
                            r"games|pairs|lines|cells|strategies|choices|bytes|readings|targets)\b")
UNSEPARATED = re.compile(r"(?<![\d,.#:/\w-])\d{4,}(?![\d,.\w])")  # a count of 1,000 or more without its separators


@pytest.mark.parametrize("args", [
    ["games"], ["stats", "tictactoe"], ["show", "tictactoe", "--moves", "X4,O0"], ["show", "uttt"],
    ["show", "mnk:5,5,3", "--moves", "X12,O6", "--solve", "50"], ["tree", "w3t", "--depth", "1"],
    ["prove", "tictactoe", "--value", "-o", "{tmp}"], ["policy", "audit", "tictactoe", "--policy", "random", "--player", "1"],
    ["audit", "certificates/claims/000.toml"], ["check", "certificates/w3t.json"],
], ids=lambda a: " ".join(a[:3]))
def test_text_output_has_plurals_right_separators_and_no_none(args, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "400")  # one table row per line: numbers are never wrapped apart
    result = run(*[str(tmp_path) if a == "{tmp}" else a for a in args])
    said = result.stdout + result.stderr
    assert result.exit_code in (0, 1), said
    assert "None" not in said
    assert not SINGULAR_WRONG.findall(said), SINGULAR_WRONG.findall(said)
    counts = [n for n in UNSEPARATED.findall(said) if "code" not in said[max(0, said.find(n) - 40):said.find(n)]]
    assert counts == [] or args[0] in ("show", "audit"), counts  # state codes and quoted sources are names, not counts


def test_a_count_over_a_thousand_is_separated_and_one_is_singular():
    flaws = run("policy", "audit", "tictactoe", "--policy", "random", "--player", "1").stdout
    assert re.search(r"positions where it may give up value: \d{1,3},\d{3}\b", flaws), flaws
    assert re.search(r"… and \d{1,3},\d{3} more", flaws), flaws
    audit = run("audit", str(ROOT / "certificates" / "claims" / "000.toml")).stdout
    assert "(es)" not in audit and "(s)" not in audit


@pytest.mark.parametrize("args", [
    ["games", "--json"], ["show", "uttt", "--json"], ["show", "mnk:5,5,3", "--moves", "X12,O6", "--solve", "50", "--json"],
    ["prove", "tictactoe", "--value", "-o", "{tmp}", "--json"], ["check", "certificates", "--json"],
    ["policy", "audit", "tictactoe", "--policy", "random", "--player", "2", "--json"],
], ids=lambda a: " ".join(a[:3]))
def test_json_output_says_null_never_none(args, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run(*[str(tmp_path) if a == "{tmp}" else a for a in args])
    assert result.exit_code in (0, 1, 2), result.stderr
    json.loads(result.stdout)
    assert "None" not in result.stdout + result.stderr


def test_play_names_an_empty_move_as_empty():
    result = runner.invoke(app, ["play", "tictactoe", "--player", "1"], input="\nzz\nquit\n")
    assert "the move is empty: type a mark and a cell" in result.stdout
    assert "'zz' is not a move: type a mark and a cell" in result.stdout


def test_a_certificate_of_another_kind_is_named_by_its_kind():
    pairing = next((ROOT / "certificates" / "pairings").glob("*.json"))
    for args, words in ((["explore", str(pairing), "-o", "-"], "explore shows a table"), (["tree", str(pairing)], "tree draws a proof"),
                        (["z3", "value", str(pairing)], "where kind 'table' is needed")):
        line = one_error_line(run(*args))
        assert line.startswith(f"error: {pairing}: a certificate of kind") and words in line, line


# ---- the first hour (issue 32): each thing a new user met once --------------------------------------


def test_games_lists_every_game_string_a_command_takes():
    listed = [row["game"] for row in json.loads(run("games", "--json").stdout)]
    assert "uttt" in listed and "uttt:open" in listed
    assert "uttt:open" in run("games").stdout


def test_an_unknown_command_names_the_help_once():
    line = one_error_line(run("frobnicate"))
    assert line == "error: certify: no such command 'frobnicate' (see 'certify --help')", line


@pytest.mark.parametrize(("command", "words"), [
    (["policy", "audit"], "{code: [[cell, mark], ...]}"),
    (["explore"], "a proof (.json written by `certify prove`)"),
    (["tree"], "a proof file (.json written by `certify prove`)"),
    (["bench"], "pip install -e '.[bench]'"),
])
def test_help_says_what_a_command_takes_in_plain_text(command, words):
    shown = " ".join(run(*command, "--help").stdout.split())
    assert words in shown and "\\[" not in shown, shown


def test_a_folder_check_names_every_file_the_same_way(files, tmp_path):
    (tmp_path / "good.json").write_bytes(files["good"].read_bytes())
    (tmp_path / "empty.json").write_text("")
    result = run("check", str(tmp_path))
    lines = [line for line in result.stdout.splitlines() if line[:1] in "✓✗"]
    assert len(lines) == 2 and all(line[2:].startswith(f"{tmp_path}/") for line in lines), result.stdout


def test_sigterm_says_it_ended_the_command():
    script = (  # SIGTERM one second into a long search
        "import os, signal, sys\n"
        "from certify.cli import app\n"
        "signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGTERM))\n"
        "signal.alarm(1)\n"
        "sys.argv = ['certify', 'prove', 'mnk:6,6,5', '--claim', 'win', '--player', '1', '--core', 'python', '--max-nodes', '10000000']\n"
        "app()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 143 and done.stderr.strip().splitlines()[-1] == "terminated (SIGTERM)", done.stderr


def test_sigterm_during_a_compiled_search_keeps_its_checkpoint_and_root_numbers(tmp_path):
    checkpoint = tmp_path / "search.ckpt"
    command = [sys.executable, "-c", "from certify.cli import app; app()", "prove", "mnk:8,8,5", "--claim", "no-loss",
               "--player", "2", "--checkpoint", str(checkpoint)]  # no budget: the table grows as it needs
    search = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    search.send_signal(signal.SIGTERM)
    out, err = search.communicate(timeout=120)
    assert search.returncode == 143 and err.strip().splitlines()[-1] == "terminated (SIGTERM)", err
    assert "not settled (interrupted)" in " ".join(out.split()) and "root pn" in out, out
    assert f"checkpoint kept at {checkpoint}" in " ".join(out.split()) and checkpoint.stat().st_size > 0, out


def test_audit_names_a_certificate_given_in_place_of_claims(files):
    line = one_error_line(run("audit", str(files["good"])))
    assert line == (f"error: {files['good']}: a certify certificate (kind table), not a claims file (TOML, docs/claims-format.md); "
                    f"`certify check {files['good']}` checks it"), line
