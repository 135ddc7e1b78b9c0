"""What every command does with bad input, files and long work (docs/cli.md): exit code and first line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from certify.cli import app
from certify.cli.prove import work_done
from certify.files import CERTIFICATE_MARK, FileProblem, write_atomic
from certify.limits import available_memory
from certify.smt.graph import memory_estimate
from solver.games.positional.rules import resolve

runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


def first_error(result) -> str:
    return result.stderr.strip().splitlines()[0]


# ---- one-line errors, the same words everywhere ------------------------------------------------


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["tree", "w3t", "--player", "3"], "error: certify tree: --player 3: must be 1 or 2"),
        (["show", "tictactoe", "--code", "99999999999999999999999"], "error: --code 99999999999999999999999: must be in 0..19,682"),
        (["show", "tictactoe", "--moves", "X4,X0"], "error: --moves: move 2, X0: player 2 places O, not X"),
        (["show", "tictactoe", "--moves", "X4,O4"], "error: --moves: move 2, O4: cell 4 is taken (by X)"),
        (["show", "tictactoe", "--moves", "X9"], "error: --moves: move 1, X9: there is no cell 9 (cells are 0..8)"),
        (["show", "tictactoe", "--moves", "X0,O3,X1,O4,X2,O5"], "error: --moves: move 6, O5: the game is already over"),
        (["show", "tictactoe", "--moves", "X4,,O0"], "error: --moves: move 2 of 'X4,,O0' is empty"),
        (["show", "w3t", "--moves", "4"], "error: --moves: move 1, 4: say which mark, X4 or O4"),
        (["solve", "tic_tac_toe"], "error: unknown game 'tic_tac_toe'; did you mean 'tictactoe'?"),
        (["tree", "uttt"], "error: uttt: this command takes positional games"),
        (["z3", "value", "w3t", "--timeout", "0"], "error: certify z3 value: --timeout 0.0: must be at least 0.1"),
    ],
)
def test_bad_input_is_one_line_naming_what_is_wrong(args, first):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and first_error(result).startswith(first), result.stderr


def test_the_mark_is_implied_where_only_one_may_be_placed():
    by_cells = json.loads(run("show", "tictactoe", "--moves", "4,0", "--json").stdout)
    assert by_cells["code"] == json.loads(run("show", "tictactoe", "--moves", "X4,O0", "--json").stdout)["code"]


def test_input_files_directory_empty_and_wrong_suffix(tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_text("")
    spec_txt = tmp_path / "spec.txt"
    spec_txt.write_text('{"rows": 3}')
    cases = [
        (["solve", str(tmp_path)], f"error: {tmp_path}: is a directory"),
        (["solve", str(empty)], f"error: {empty}: is empty"),
        (["solve", str(spec_txt)], f"error: {spec_txt}: a spec file must end in .json or .toml"),
        (["check", str(tmp_path / "none")], f"error: {tmp_path / 'none'}: no such file"),
        (["check", str(empty)], f"error: {empty}: is empty"),
        (["z3", "strategy", str(empty)], f"error: {empty}: is empty"),
        (["audit", str(tmp_path / "none.toml")], f"error: {tmp_path / 'none.toml'}: no such file"),
    ]
    for args, first in cases:
        result = run(*args)
        assert result.exit_code == 2 and first_error(result).startswith(first), (args, result.stderr)


def test_check_over_the_work_budget_says_which_options_fit_the_file():
    path = Path(__file__).resolve().parents[1] / "certificates" / "mnk-4-4-3.json"
    states = json.loads(path.read_text(encoding="utf-8"))["table"]["states"]
    result = run("check", str(path))
    line = first_error(result)
    assert result.exit_code == 2 and result.stdout == ""
    assert line.startswith(f"error: table.states = {states:,} and states x lines = "), line
    assert f"--max-states {states} --max-work " in line and "ERROR" not in line, line


@pytest.mark.parametrize("command", [["prove", "--batch"], ["policy", "audit", "tictactoe", "--policy"]])
def test_batch_and_policy_files_say_what_is_wrong_in_the_same_words(command, tmp_path):
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "folder.json").mkdir()
    what = "batch file" if "--batch" in command else "policy table"
    for name, words in (("missing.json", "no such file"), ("empty.json", "is empty"),
                        ("folder.json", f"is a directory, not a {what}")):
        result = run(*command, str(tmp_path / name))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.strip() == f"error: {tmp_path / name}: {words}", result.stderr


def test_a_wrong_claims_file_lists_every_problem(tmp_path):
    claims = tmp_path / "spec.toml"
    claims.write_text('rows = 3\ncols = 3\nmarks = "own"\n')
    result = run("audit", str(claims))
    assert result.exit_code == 2
    line = first_error(result)
    for field in ("source", "title", "claim", "rows", "cols", "marks"):
        assert f"{field}:" in line, line


# ---- exit codes for results --------------------------------------------------------------------


def test_a_refuted_claim_exits_1():
    result = run("z3", "value", "w3t", "--claim", "draw", "--timeout", "60")
    assert result.exit_code == 1 and "REFUTED" in result.stdout


def test_timeout_bounds_a_z3_command_that_would_run_for_minutes():
    result = run("z3", "value", "mnk:4,4,3", "--timeout", "1", "--json")
    assert result.exit_code == 1
    (only,) = json.loads(result.stdout)["results"]
    assert only["status"] == "unknown" and only["details"]["reason"] == "timeout"
    if (available_memory() or 0) < memory_estimate(resolve("mnk:4,4,3")):
        assert first_error(result).startswith("warning: Z3 encodes up to 43,046,721 states")


def test_unwritable_outputs_exit_2_before_the_work(tmp_path):
    cases = [
        (["solve", "w3t", "-o", str(tmp_path / "no" / "w3t.json")], "cannot write: no such folder"),
        (["solve", "w3t", "-o", str(tmp_path)], "cannot write: is a directory"),
        (["verify", "w3t", "--out-dir", str(tmp_path / "missing")], "cannot write: no such folder"),
        (["audit", "certificates/claims/000.toml", "-o", str(tmp_path / "no" / "a.md")], "cannot write: no such folder"),
    ]
    for args, words in cases:
        result = run(*args)
        assert result.exit_code == 2 and words in first_error(result), (args, result.stderr)


@pytest.mark.parametrize("command", [
    ["audit", "certificates/claims/000.toml", "-o", "{folder}/a.md"],
    ["verify", "w3t", "--out-dir", "{folder}"],
    ["solve", "w3t", "-o", "{folder}/w3t.json"],
    ["prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", "{folder}/p.json"],
    ["explore", "w3t", "-o", "{folder}/w3t.html"],
])
def test_a_read_only_folder_is_bad_input_before_the_work(command, tmp_path, monkeypatch):
    """The issue's read-only folders (audit: exit 3 PermissionError, verify: exit 1 NOT VERIFIED), as
    a non-root user sees them: os.access says the folder is not writable (root may write anywhere)."""
    real_access = os.access
    monkeypatch.setattr("certify.files.os.access",
                        lambda path, mode: False if mode & os.W_OK and str(path) == str(tmp_path) else real_access(path, mode))
    result = run(*(arg.format(folder=tmp_path) for arg in command))
    assert result.exit_code == 2 and result.stdout == "", result.stdout
    assert first_error(result).endswith(f"cannot write: folder {tmp_path} is not writable"), result.stderr
    assert list(tmp_path.iterdir()) == []


# ---- safe files --------------------------------------------------------------------------------


def test_solve_refuses_to_overwrite_a_file_that_is_not_a_certificate(tmp_path):
    notes = tmp_path / "notes.json"
    notes.write_text("my notes")
    refused = run("solve", "w3t", "-o", str(notes))
    assert refused.exit_code == 2 and "use --force" in first_error(refused)
    assert notes.read_text() == "my notes"
    assert run("solve", "w3t", "-o", str(notes), "--force").exit_code == 0
    assert json.loads(notes.read_text())["format"] == "certify-certificate"


def test_a_proof_from_one_position_does_not_replace_a_proof_from_another(tmp_path):
    path = tmp_path / "tictactoe.p1-no-loss.json"
    assert run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(path)).exit_code == 0
    before = path.read_text()
    refused = run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--position", "X.O/.X./...", "-o", str(path))
    assert refused.exit_code == 2 and refused.stdout == "", refused.stdout
    assert first_error(refused) == (f"error: {path}: exists and is the proof from the start, not from X.O/.X./...; "
                                    "give -o FILE or --force to replace it")
    assert path.read_text() == before
    assert run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(path)).exit_code == 0  # the same proof again
    forced = run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--position", "X.O/.X./...", "-o", str(path), "--force")
    assert forced.exit_code == 0 and json.loads(path.read_text())["claim"]["root"] == "X.O/.X./..."
    again = run("prove", "tictactoe", "--value", "--position", "X.O/.X./...", "-o", str(tmp_path))  # --value names files alike
    assert again.exit_code == 0  # the same position: its proofs may be rewritten
    refused = run("prove", "tictactoe", "--value", "-o", str(tmp_path))
    assert refused.exit_code == 2 and "not from the start" in first_error(refused)


def test_the_api_refuses_what_the_cli_refuses(tmp_path):
    import certify

    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    proof = certify.prove("tictactoe", 1, "no-loss")
    with pytest.raises(certify.CertifyError, match="use --force"):
        proof.save(notes)
    with pytest.raises(certify.CertifyError, match="use --force"):
        certify.solve("w3t").save(notes)
    assert notes.read_text() == "my notes"
    proof.save(tmp_path / "p1.json")
    proof.save(tmp_path / "p1.json")  # the same proof again
    with pytest.raises(certify.CertifyError, match="the proof from the start, not from X.O"):
        certify.prove("tictactoe", 1, "no-loss", position="X.O/.X./...").save(tmp_path / "p1.json")
    assert proof.save(notes, force=True) == notes and "certify-certificate" in notes.read_text()


def test_the_peak_reported_is_the_processs_peak(tmp_path):
    import resource

    filler = b"x" * (300 << 20)  # a peak above anything the search reaches: the report must include it
    del filler
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # reported to 0.1 MB
    proved = json.loads(run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "-o", str(tmp_path / "p.json"), "--json").stdout)
    settled = json.loads(run("prove", "tictactoe", "--value", "-o", str(tmp_path), "--json").stdout)
    assert min(proved["peak_rss_mb"], settled["peak_rss_mb"]) >= peak - 0.05, (peak, proved["peak_rss_mb"], settled["peak_rss_mb"])


UNDER_ULIMIT = """
import json, resource, sys
import numpy  # noqa: F401 (its thread buffers are mapped before the limit, as in any long run)
from typer.testing import CliRunner
from certify.cli import app
from solver.search.native import GROWTH_HEADROOM, address_space_left_mb, table_mb_for
mapped = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (mapped + (80 << 20), resource.getrlimit(resource.RLIMIT_AS)[1]))  # ulimit -v
left = address_space_left_mb()
assert 60 < left <= 80 and table_mb_for(None) == left / GROWTH_HEADROOM, (left, table_mb_for(None))
result = CliRunner().invoke(app, ["prove", "mnk:4,5,4", "--claim", "no-loss", "--player", "2", "--max-nodes", "2000000", "--json"])
from solver.games.families import resolve_game
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim
game = resolve_game("mnk:4,5,4")
unsized = NativeProofSearch(game, Claim(2, "no-loss"), game.search_hooks(), table_mb=100_000)  # a cap past the limit
unsized._core.search(unsized.kernel.position(game.initial()), 800_000)  # the core alone: no table sized up front, it doubles
assert unsized.full_evictions > 0 and unsized._core.table_cap == unsized.table_bytes  # the failed doubling set the cap
sys.stdout.write(result.stdout)
"""


def test_the_compiled_table_fits_the_address_space_left_and_says_when_it_is_full():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", UNDER_ULIMIT], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "node budget" and data["table_evictions"] > 0 and data["core"] == "native"
    line = " ".join(work_done(data).split())
    evicted = data["table_evictions"]
    assert f"(the table was full: {evicted:,} {'entry' if evicted == 1 else 'entries'} evicted;" in line and "ulimit -v" in line


def test_check_with_the_game_named_fits_its_budget_to_a_large_proof_and_only_then(tmp_path):
    proof = tmp_path / "p.json"
    assert run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(proof)).exit_code == 0
    small = ("check", str(proof), "--max-states", "100", "--max-work", "1000")  # a budget this proof is over
    refused = run(*small)
    positions = json.loads(proof.read_text())["proof"]["positions"]
    assert refused.exit_code == 2 and "over the work budget" in refused.stderr and f"--max-states {positions} " in refused.stderr
    named = run(*small, "--game", "tictactoe")
    assert named.exit_code == 0 and "VALID strategy" in named.stdout, named.output
    other = run(*small, "--game", "w3t")  # another game: INVALID before any work, the budget untouched
    assert other.exit_code == 1 and "not the game asked for" in other.stdout


def test_overwriting_keeps_mode_and_symlink(tmp_path):
    target = tmp_path / "real.json"
    assert run("solve", "tictactoe", "-o", str(target)).exit_code == 0
    target.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    assert run("solve", "w3t", "-o", str(link), "--force").exit_code == 0  # another game: only with --force
    assert link.is_symlink() and json.loads(target.read_text())["rules"]["name"] == "w3t"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_dash_writes_the_certificate_to_stdout_and_the_summary_to_stderr():
    result = run("solve", "tictactoe", "-o", "-")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["format"] == "certify-certificate"
    assert "wrote stdout" in result.stderr


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "c.json"
    path.write_text('{"format": "certify-certificate"}')

    def terminated(_fd):
        raise SystemExit(143)  # what the CLI's SIGTERM handler raises

    monkeypatch.setattr(os, "fsync", terminated)
    with pytest.raises(SystemExit):
        write_atomic(path, "new text", CERTIFICATE_MARK, force=False)
    assert path.read_text() == '{"format": "certify-certificate"}'
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def test_write_atomic_refuses_a_missing_folder(tmp_path):
    with pytest.raises(FileProblem, match="no such folder"):
        write_atomic(tmp_path / "missing" / "x.json", "{}")


# ---- drawn output ------------------------------------------------------------------------------


def test_tree_marks_the_winning_move_and_where_depth_cut_it():
    out = run("tree", "w3t", "--depth", "2").stdout
    assert "★ wins" in out and "cut by --depth" in out
    assert "#N: the state's code" in out
    assert "1 own move" in run("tree", "w3t", "--depth", "1").stdout


def test_solve_summary_uses_move_notation_and_singular_plural():
    out = run("solve", "w3t", "-o", "-").stderr
    assert "X4" in out and " on 4" not in out
    assert "97 entries" in out


# ---- play --------------------------------------------------------------------------------------


def test_play_help_undo_quit():
    result = run("play", "tictactoe", "--player", "1", "--seed", "1", stdin="help\nundo\n4\nundo\nquit\n")
    assert result.exit_code == 0
    out = " ".join(result.stdout.split())
    assert "type a cell number" in out
    assert "nothing to undo yet" in out
    assert "took back your last move" in out
    assert "game abandoned" in out


# ---- --cert: look up states in a checked certificate instead of solving again ------------------


def test_show_and_tree_read_a_certificate_instead_of_solving(tmp_path):
    cert = tmp_path / "w3t.json"
    assert run("solve", "w3t", "-o", str(cert)).exit_code == 0
    for args in (["show", "w3t", "--moves", "X4,O0", "--json"], ["tree", "w3t", "--depth", "1", "--json"]):
        solved = json.loads(run(*args).stdout)
        assert json.loads(run(*args, "--cert", str(cert)).stdout) == solved
    other = run("show", "tictactoe", "--cert", str(cert))
    assert other.exit_code == 2 and "not for 'tictactoe'" in first_error(other)


def test_stats_counts_the_same_from_a_certificate_and_refuses_another_game(tmp_path):
    cert = tmp_path / "tictactoe.json"
    assert run("solve", "tictactoe", "-o", str(cert)).exit_code == 0
    solved = json.loads(run("stats", "tictactoe", "--json").stdout)
    read = json.loads(run("stats", "tictactoe", "--cert", str(cert), "--json").stdout)
    assert (solved.pop("labels"), read.pop("labels")) == ("solved now", f"certificate {cert} (checked)")
    assert read == solved and read["reachable_states"] == 5478 and read["edges"] == 16167
    shown = run("stats", "tictactoe", "--cert", str(cert))
    assert shown.exit_code == 0 and "5,478" in shown.stdout and "labels: certificate" in shown.stdout
    other = run("stats", "w3t", "--cert", str(cert))
    assert other.exit_code == 2 and other.stdout == ""
    assert first_error(other) == f"error: {cert}: certificate is for 'tictactoe', not for 'w3t' (rules differ)"
    assert len(other.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["show", "tictactoe"], ["tree", "tictactoe"], ["stats", "tictactoe"],
                                     ["play", "tictactoe"], ["z3", "value", "tictactoe"], ["z3", "strategy", "tictactoe"]])
def test_cert_that_is_no_file_says_so_in_the_same_words(command, tmp_path):
    (tmp_path / "empty.json").write_text("")
    for name, words in (("missing.json", "no such file"), ("empty.json", "is empty"), (".", "is a directory, not a certificate")):
        result = run(*command, "--cert", str(tmp_path / name), stdin="")
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.strip() == f"error: {tmp_path / name}: {words}", result.stderr


def test_a_false_certificate_given_by_cert_is_refused_with_the_checkers_verdict(tmp_path):
    cert = tmp_path / "tictactoe.json"
    assert run("solve", "tictactoe", "-o", str(cert)).exit_code == 0
    data = json.loads(cert.read_text())
    data["claim"]["root_value"] = "win"
    cert.write_text(json.dumps(data))
    result = run("stats", "tictactoe", "--cert", str(cert))
    assert result.exit_code == 1 and result.stdout == ""
    assert first_error(result).startswith(f"error: {cert}: INVALID table")


def test_verify_goes_on_when_z3_runs_out_of_time(tmp_path):
    result = run("verify", "w3t", "--out-dir", str(tmp_path), "--timeout", "0.1", "--json")
    assert result.exit_code == 0
    steps = {s["name"]: s for s in json.loads(result.stdout)["steps"]}
    assert steps["z3"]["ok"] is None and steps["z3"]["detail"].startswith("unknown (timeout")
    assert steps["checker"]["ok"] is True and "claims" in steps


def test_bench_startup_times_whole_processes_beside_python():
    result = run("bench", "--suite", "startup", "--repeat", "1", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == (1 if data["targets_missed"] else 0)  # a loaded machine may miss a target
    rows = {row["command"]: row for row in data["startup"]}
    assert list(rows) == ["python -c pass", "certify --help", "certify solve w3t -o FILE"]
    assert rows["certify --help"]["target_s"] == 0.30 and all(row["peak_rss_mb"] > 0 for row in rows.values())


def test_bench_names_the_missing_package_and_keeps_the_extra_visible(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def without_cvxpy(name, *args, **kwargs):
        if name.startswith("open_spiel.python.algorithms"):
            raise ImportError("No module named 'cvxpy'", name="cvxpy")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_cvxpy)
    from certify.bench.timing import missing_peer_module

    assert missing_peer_module() == "cvxpy"
    result = run("bench", "--suite", "solver", "--repeat", "1")
    assert result.exit_code == 0
    assert "cvxpy is not installed (pip install -e '.[bench]')" in " ".join(result.stderr.split())


def test_sigterm_unwinds_like_an_exception_so_writes_clean_up():
    import subprocess
    import sys

    script = (
        "import os, signal\n"
        "from certify.cli.app import stop_on_sigterm\n"
        "stop_on_sigterm()\n"
        "try:\n    os.kill(os.getpid(), signal.SIGTERM)\n    signal.pause()\n"
        "except SystemExit as stop:\n    print('unwound', stop.code)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == "unwound 143"


def test_tables_wrap_on_a_narrow_terminal_instead_of_cutting(monkeypatch):
    from certify.cli.app import console

    monkeypatch.setenv("COLUMNS", "60")
    # rich fixes a console's width from COLUMNS when the console is made: pytest-xdist's workers
    # export COLUMNS=80 before the app is imported, so the console is made to read it again
    monkeypatch.setattr(console, "_width", None)
    result = run("audit", "certificates/claims/001.toml")
    assert result.exit_code == 0
    assert "…" not in result.stdout and max(len(line) for line in result.stdout.splitlines()) <= 60


def test_a_search_whose_stderr_is_a_log_file_writes_a_plain_line_each_interval(monkeypatch):
    """Reports in spans whose seconds restart at 0 (a search with --checkpoint runs between saves
    so): the log's interval and its nodes/s are the clock's since the first report."""
    import io

    from rich.console import Console

    import certify.cli.prove as prove_cli
    from solver.search.pns import Progress

    sink, now = io.StringIO(), [1000.0]
    monkeypatch.setattr(prove_cli, "errors", Console(file=sink, width=200))  # a file: not a terminal
    monkeypatch.setattr(prove_cli, "clock", lambda: now[0])
    with prove_cli.search_progress(True, None, None) as hook:
        assert hook is not None
        for step in range(1, 8):  # a report every 300 s of the clock, each span's seconds from 0 again
            now[0] = 1000.0 + 300 * step
            hook(Progress(nodes=1_000_000 * step, root_pn=5, root_dn=7, entries=10, seconds=1.0 + 300 * (step % 2), rss_mb=40.0))
    lines = sink.getvalue().splitlines()
    assert len(lines) == 3, lines  # at 600, 1,200 and 1,800 s of the clock
    assert all(" UTC  " in line and "root pn 5 dn 7" in line and "3,333 nodes/s" in line for line in lines), lines
    with prove_cli.search_progress(False, None, None) as hook:  # --json: none
        assert hook is None
