"""The verified checker (verified/): its Rocq proofs assume nothing, and it agrees with the stdlib
checker on every published strategy certificate and small table, on the proofs and tables of small
games and on their mutants.

The development is built once per session into a temporary directory (`make -C DIR`, about 15 s);
without coqc, ocamlopt or make (`.ci/install-coq` installs them) every test here is skipped with
the reason.
"""

from __future__ import annotations

import base64
import copy
import json
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import checker
from test_checker_helpers import BUILTINS, SMALL_SPECS, close_arrays, open_arrays, pool
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim
from test_proof_certificates import PROOFS, document, losing_replacement, moves_of, rehashed, with_moves

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "verified"
THEORIES = sorted(SOURCES.glob("*.v"))
# the published proofs: positional and Ultimate tic-tac-toe
PUBLISHED = json.loads((ROOT / "certificates" / "index.json").read_text())["proofs"]
# the pairings, and the proofs closed by pairings
INDEX = json.loads((ROOT / "certificates" / "index.json").read_text())
CLOSED = [entry for entry in INDEX["pairings"] + INDEX["pairing_proofs"] if entry.get("file")]
# bounded claims (uttt:open's lower bounds, closed by counts, two-byte and deep: Count.v, Checker.closed_within)
BOUNDED = [entry for entry in CLOSED if "--within" in entry["command"]]
# the large closed proofs (certify/publish/record.py LARGE_PAIRING_PROOFS: 4x8, 2.9 M positions) are past
# the default budget, as the large `proofs` are: a slow test reads them with the budget of `certify publish`
LARGE_CLOSED = {"certificates/proofs/closed/mnk-4-8-4.p2-no-loss.json"}
PAIRINGS = [entry for entry in CLOSED if "--within" not in entry["command"] and entry["file"] not in LARGE_CLOSED]
# the within-23 proof (550,349 positions, past the default budget), the within-25 one (137,225
# positions, 96,570 closed by deep count records), the within-27 one (15 MB) and the within-29 one
# (37 MB) take minutes: slow tests
LARGE_BOUNDED = {"certificates/proofs/closed/uttt-open.p2-no-loss-within-23.json",
                 "certificates/proofs/closed/uttt-open.p2-no-loss-within-25.json",
                 "certificates/proofs/closed/uttt-open.p2-no-loss-within-27.json",
                 "certificates/proofs/closed/uttt-open.p2-no-loss-within-29.json",
                 "certificates/proofs/closed/uttt-open.p2-no-loss-within-25.corner16.json"}
LARGE_PAIRINGS = [entry for entry in CLOSED if entry["file"] in LARGE_CLOSED]
PUBLISHED_BYTES = (ROOT / "certificates" / "proofs" / "mnk-3-3-3-misere.p1-no-loss.json").read_bytes()
TABLE_BYTES = (ROOT / "certificates" / "notakto.json").read_bytes()
SMALL = [case for case in PROOFS if case[0] != "mnk:4,4,3"]  # finding a losing move solves the game
SUFFIX = {"strategy": "; closure check proved in Rocq", "table": "; minimax and closure checks proved in Rocq",
          "pairing": "; pairing check proved in Rocq"}
TABLES = [entry for entry in json.loads((ROOT / "certificates" / "index.json").read_text())["certificates"]
          if entry.get("checker")]  # the tables within the default budget (3x3 boards)
SCALE = json.loads((ROOT / "certificates" / "index.json").read_text())["scale_certificates"]  # the 4x4 tables
TOOLS = ("coqc", "ocamlopt", "make")


def _missing_tool() -> str | None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    return f"{', '.join(missing)} not found (apt-get install coq ocaml-nox make, or run .ci/install-coq)" if missing else None


pytestmark = pytest.mark.skipif(_missing_tool() is not None, reason=f"no Rocq toolchain: {_missing_tool()}")


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build of verified/ (proofs checked, assumptions printed, driver compiled)."""
    directory = tmp_path_factory.mktemp("verified")
    for source in SOURCES.iterdir():
        built = source.name in ("core.ml", "core.mli")  # extracted by the build: never a stale copy
        if (source.suffix in (".v", ".ml") and not built) or source.name in ("Makefile", "_CoqProject"):
            shutil.copy(source, directory)
    done = subprocess.run(["make", "-C", str(directory)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return directory


def run(build: Path, path: Path, *options: str, timeout: int = 120) -> tuple[int, str]:
    """verified/check's exit code and its one line (stdout, or stderr for ERROR and NOT READ)."""
    done = subprocess.run([str(build / "check"), str(path), *options], capture_output=True, text=True, timeout=timeout)
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) == 1, lines
    return done.returncode, lines[0]


def agree(build: Path, tmp_path: Path, doc: dict | str, name: str = "cert.json") -> tuple[int, str]:
    """Check one document with both checkers; they must give the same exit code and the same line."""
    text = doc if isinstance(doc, str) else json.dumps(doc, indent=2, sort_keys=True)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, line = run(build, path)
    expected = checker.check_file(str(path))
    assert code == expected.exit_code, (line, expected.message)
    if code in (0, 1):  # a verdict names the game, the hash and the claim exactly as the stdlib checker does
        assert line.removesuffix(SUFFIX[line.split()[1]]) == expected.message
    assert "internal checker failure" not in line
    return code, line


def test_the_proofs_assume_nothing(build: Path) -> None:
    printed = (build / "assumptions.txt").read_text().split("\n")
    audited = (SOURCES / "Extract.v").read_text().count("Print Assumptions ")
    assert audited >= 6 and [line for line in printed if line] == ["Closed under the global context"] * audited
    for theory in THEORIES:
        code = re.sub(r"\(\*.*?\*\)", "", theory.read_text(), flags=re.S)
        assert not re.search(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Conjecture)\b", code), theory


def large(entry: dict) -> bool:
    """A large kept proof (certify/publish/record.py LARGE_PROOFS): millions of positions."""
    from certify.publish.record import LARGE_PROOFS, proof_path

    return entry["file"] in {proof_path(*claim).as_posix() for claim in LARGE_PROOFS}


@pytest.mark.parametrize("entry", [e for e in PUBLISHED if not large(e)], ids=lambda entry: Path(entry["file"]).stem)
def test_every_published_proof_is_valid(build: Path, entry: dict) -> None:
    """The published record holds the stdlib checker's verdict line (tests/test_published.py keeps it
    current), checked with the budget `certify publish` gives the stdlib checker."""
    from certify.publish.record import PROOF_LIMITS

    budget = ("--max-states", str(PROOF_LIMITS.max_states), "--max-work", str(PROOF_LIMITS.max_work))
    # mnk:4,5,4 player 2 (1.4 M positions) passed 120 s on the shared machine at load 6
    assert run(build, ROOT / entry["file"], *budget, timeout=900) == (0, entry["checker"] + SUFFIX["strategy"])


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in PUBLISHED if large(e)], ids=lambda entry: Path(entry["file"]).stem)
def test_every_large_published_proof_is_valid(build: Path, entry: dict) -> None:
    """The large kept proofs, with the budget `certify publish --scale` gives the stdlib checker."""
    from certify.publish.record import large_limits

    limits = large_limits(ROOT / entry["file"])
    budget = ("--max-states", str(limits.max_states), "--max-work", str(limits.max_work))
    assert run(build, ROOT / entry["file"], *budget, timeout=3600) == (0, entry["checker"] + SUFFIX["strategy"])


@pytest.mark.slow
@pytest.mark.parametrize("entry", LARGE_PAIRINGS, ids=lambda entry: Path(entry["file"]).stem)
def test_every_large_closed_proof_is_valid(build: Path, entry: dict) -> None:
    """The 4x8 proof closed by pairings (2.9 M positions, 1.2 M closures), read within 2 GB
    (docs/verified-checker.md, Measured), with the budget `certify publish` gives the stdlib checker."""
    from certify.publish.record import large_limits

    limits = large_limits(ROOT / entry["file"])
    budget = ("--max-states", str(limits.max_states), "--max-work", str(limits.max_work))
    assert run(build, ROOT / entry["file"], *budget, timeout=3600) == (0, entry["checker"] + SUFFIX["strategy"])


@pytest.mark.parametrize("entry", TABLES, ids=lambda entry: Path(entry["file"]).stem)
def test_every_published_small_table_is_valid(build: Path, entry: dict) -> None:
    assert run(build, ROOT / entry["file"]) == (0, entry["checker"] + SUFFIX["table"])


@pytest.mark.parametrize("entry", PAIRINGS, ids=lambda entry: Path(entry["file"]).stem)
def test_every_pairing_and_closed_proof_is_valid(build: Path, entry: dict) -> None:
    """certificates/pairings/ and certificates/proofs/closed/: the index's stdlib line, word for word."""
    kind = "pairing" if "/pairings/" in entry["file"] else "strategy"
    assert run(build, ROOT / entry["file"]) == (0, entry["checker"] + SUFFIX[kind])


def test_every_certificate_file_is_one_a_test_requires_valid() -> None:
    """Every file under certificates/ but the index is read by one of the tests that require
    VALID (the large ones in the slow suite): PUBLISHED, TABLES, PAIRINGS, LARGE_PAIRINGS, BOUNDED,
    SCALE -- a certificate published without an index entry, or of a kind no test reads, fails
    here."""
    files = {path.relative_to(ROOT).as_posix() for path in (ROOT / "certificates").rglob("*.json")} - {"certificates/index.json"}
    covered = {entry["file"] for entry in PUBLISHED + TABLES + PAIRINGS + LARGE_PAIRINGS + BOUNDED + SCALE}
    assert files <= covered, files - covered
    assert covered <= files, covered - files  # and every file the index names is there


def budget_for(path: Path) -> tuple[str, ...]:
    """The stdlib checker's budget raised to fit this proof (certify/publish/record.py large_limits)."""
    from certify.publish.record import large_limits

    limits = large_limits(path)
    return ("--max-bytes", str(limits.max_bytes), "--max-states", str(limits.max_states), "--max-work", str(limits.max_work))


@pytest.mark.parametrize("entry", [e for e in BOUNDED if e["file"] not in LARGE_BOUNDED], ids=lambda entry: Path(entry["file"]).stem)
def test_the_published_bounded_proofs_are_valid(build: Path, entry: dict) -> None:
    """uttt:open's lower bounds, closed by counts: VALID with the index's stdlib line, word for word."""
    path = ROOT / entry["file"]
    assert run(build, path, *budget_for(path), timeout=600) == (0, entry["checker"] + SUFFIX["strategy"])


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in BOUNDED if e["file"] in LARGE_BOUNDED], ids=lambda entry: Path(entry["file"]).stem)
def test_the_large_published_bounded_proofs_are_valid(build: Path, entry: dict) -> None:
    path = ROOT / entry["file"]
    assert run(build, path, *budget_for(path), timeout=3600) == (0, entry["checker"] + SUFFIX["strategy"])


def counts_of(doc: dict) -> bytes:
    return zlib.decompress(base64.b64decode(doc["proof"]["counts"]))


def with_counts(doc: dict, counts: bytes) -> dict:
    changed = copy.deepcopy(doc)
    changed["proof"]["counts"] = base64.b64encode(zlib.compress(counts)).decode()
    return changed


@pytest.fixture(scope="module")
def bounded_proofs() -> dict[str, dict]:
    """Bounded proofs of both families, proved here (each about a second): standard uttt's
    player 2 within 19 plies (1,403 count closures, nearly all with a move), uttt:open's within 15,
    tic-tac-toe-like mnk:4,4,3's win within 9 plies (no closures). The count closures are the
    two-byte ones the verified checker proves (the Python search with deep records off: NEST 0)."""
    import solver.games.uttt.engine as uttt_engine
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    out = {}
    nest, uttt_engine.NEST = uttt_engine.NEST, 0
    try:
        for name, game, claim in (("uttt-p2-19", "uttt", Claim(2, "no-loss", within=19)),
                                  ("open-p2-15", "uttt:open", Claim(2, "no-loss", within=15)),
                                  ("mnk443-p1-9", "mnk:4,4,3", Claim(1, "win", within=9))):
            attempt = prove(resolve_game(game), claim, None, max_nodes=300_000, core="python")
            assert attempt.outcome.status == "proved" and attempt.text is not None
            out[name] = json.loads(attempt.text)
    finally:
        uttt_engine.NEST = nest
    return out


@pytest.mark.parametrize("name", ["uttt-p2-19", "open-p2-15", "mnk443-p1-9"])
def test_bounded_proofs_and_their_mutants(build: Path, tmp_path: Path, bounded_proofs: dict, name: str) -> None:
    """Both checkers give the same exit code and line on a bounded proof, on other bounds (and bad
    ones), and, for the count-closed ones, on changed counts and moves of its closures."""
    doc = bounded_proofs[name]
    code, line = agree(build, tmp_path, doc)
    assert code == 0 and " within " in line, line
    claim = doc["claim"]
    within = claim["within"]
    codes = []
    for value in (within - 2, within - 1, within + 1, within + 2, 1, 0, -1, 10**30, -(10**30), None, "9", True, 2.5):
        codes.append(agree(build, tmp_path, {**doc, "claim": {**claim, "within": value}}, "w.json")[0])
    assert codes.count(1) >= 1 and codes.count(2) >= 5, codes  # a bound under the longest play is refused
    unbounded = {k: v for k, v in claim.items() if k != "within"}
    agree(build, tmp_path, {**doc, "claim": unbounded}, "unbounded.json")
    agree(build, tmp_path, {**doc, "claim": {**claim, "result": "win"}}, "win.json")
    if "counts" not in doc["proof"]:
        return
    counts = counts_of(doc)
    closures = len(counts) // 2
    refused = 0
    for index in range(0, closures, max(1, closures // 15)):
        for at, delta in ((2 * index + 1, 1), (2 * index + 1, -1), (2 * index, 1)):
            changed = bytearray(counts)
            changed[at] = (changed[at] + delta) % 256
            code, _ = agree(build, tmp_path, with_counts(doc, bytes(changed)), "c.json")
            refused += code == 1
    assert refused >= closures // max(1, closures // 15) * 2, refused
    proof = doc["proof"]
    for field, value in (("closures", proof["closures"] - 1), ("closure_bytes", proof["closure_bytes"] + 1), ("counts", "!")):
        agree(build, tmp_path, {**doc, "proof": {**proof, field: value}}, "f.json")
    agree(build, tmp_path, {**doc, "proof": {k: v for k, v in proof.items() if k not in ("closures", "closure_bytes", "counts")}}, "n.json")
    agree(build, tmp_path, with_moves(doc, moves_of(doc) + bytes([255])), "extra.json")


# The published within-21 proof of uttt:open, walked by the driver's traversal into the set and
# the closures it hands to the extracted Count.closed_within; then the bound, the counts, the rules
# or the claim changed by hand: each change must be refused by the proved check itself.
COUNT_PROBE = """
let () =
  let doc = Load.parse_json (Load.read_file Sys.argv.(1) max_int) in
  let f = Proof.uttt Core.OpenRules in
  let proof = Load.obj "certificate" "proof" doc in
  let positions = Load.int_in "proof" "positions" 1 max_int proof and turns = Load.int_in "proof" "turns" 0 max_int proof in
  let moves = Unpack.field "proof" "moves" turns proof in
  let limits = { Load.max_bytes = max_int; max_states = max_int; max_work = max_int; sha = None } in
  let closures = Proof.closures_of f proof true turns limits in
  let closing = Hashtbl.create 64 in
  let root = f.Proof.initial () in
  let seen = Proof.traverse ~closures ~closing ~within:21 f 2 true root positions turns moves in
  let closure s = Hashtbl.find_opt closing (seen.Proof.number s) in
  (* the trie Proof.uttt_positions hands to Count.closed_within, rebuilt from the traversal's numbers *)
  let key n = Proof.positive_of_int (n + 2) in
  let lookup s = let n = seen.Proof.number s in if n < 0 then Core.XH else key n in
  let set = ref Core.M.empty and stack = ref [root] in
  while !stack <> [] do
    let s = List.hd !stack in
    stack := List.tl !stack;
    let n = seen.Proof.number s in
    if n >= 0 && Core.M.find (key n) !set = None then begin
      set := Core.M.add (key n) (s, Positional.nat_of_int (seen.Proof.choice n)) !set;
      stack := Core.uttt_children Core.OpenRules s @ !stack
    end
  done;
  let set = !set in
  let verdict ?(rules = Core.OpenRules) ?(player = Core.P2) ?(no_loss = true) ?(n = 21) c =
    Core.uttt_closed_within rules lookup (Proof.counts_of c) player no_loss (Positional.nat_of_int n) set root in
  let flag b = print_string (if b then "1" else "0") in
  flag (verdict closure);
  flag (verdict ~n:23 closure);
  flag (verdict ~n:25 closure);
  flag (verdict ~rules:Core.Standard closure);
  flag (verdict ~no_loss:false closure);
  flag (verdict ~player:Core.P1 closure);
  (* one closure's count one higher, one lower, or its move dropped or added, at 7 closures *)
  let tried = ref 0 and refused = ref 0 in
  let entries = Hashtbl.fold (fun k v acc -> (k, v) :: acc) closing [] in
  List.iteri (fun i (k, v) ->
      if i mod (List.length entries / 7) = 0 && !tried < 21 then
        match v with
        | Proof.Count r -> (match r () with
          | Core.Two (mv, c) ->
          List.iter (fun v' ->
              incr tried;
              let c' s = if seen.Proof.number s = k then Some v' else closure s in
              if not (verdict c') then incr refused)
            (List.map (fun r' -> Proof.Count (fun () -> r'))
               [Core.Two (mv, Core.S c); Core.Two (mv, (match c with Core.S p -> p | Core.O -> Core.S Core.O));
                Core.Two ((match mv with None -> Some Core.O | Some _ -> None), c)])
          | _ -> ())
        | _ -> ()) entries;
  Printf.printf " %d %d" !tried !refused
"""


def test_the_proved_count_check_refuses_wrong_counts_and_bounds_by_itself(build: Path) -> None:
    (build / "count_probe.ml").write_text(COUNT_PROBE)
    modules = ["core.cmx", "load.cmx", "unpack.cmx", "sha256.cmx", "positional.cmx", "packed.cmx", "symmetric.cmx", "uttt.cmx", "pairing.cmx", "proof.cmx"]
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", "count_probe", "unix.cmxa", *modules, "count_probe.ml"],
                              cwd=build, capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    path = ROOT / "certificates" / "proofs" / "closed" / "uttt-open.p2-no-loss-within-21.json"
    done = subprocess.run([str(build / "count_probe"), str(path)], capture_output=True, text=True, timeout=900)
    flags, tried, refused = done.stdout.split()
    # the honest set and closures pass; with the bound 23 or 25, under the standard rules, as a win,
    # as player 1's: refused (22 passes: no play reaches ply 21, and every count still closes)
    assert (done.returncode, flags) == (0, "100000"), done.stdout + done.stderr
    # each count one off is refused (14); a move dropped or added may close the position too
    assert int(tried) == 21 and int(refused) >= 14, done.stdout


def deep_uttt(game: str, within: int) -> dict:
    """Player 2 not beaten within `within` plies, a proof closed by deep count records (254, a
    move, k, then k records nested two deep at most: checker/uttt_count.py), proved here."""
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    attempt = prove(resolve_game(game), Claim(2, "no-loss", within=within), None, max_nodes=300_000, core="native")
    assert attempt.outcome.status == "proved" and attempt.text is not None
    doc = json.loads(attempt.text)
    assert 254 in counts_of(doc), game  # a deep record: the tests are about them
    return doc


@pytest.fixture(scope="module")
def deep_proofs() -> dict[str, dict]:
    """Standard uttt's player 2 within 19 plies (81 closures, records nested two deep at most) and
    uttt:open's within 21 (81 closures, every record three deep), by the compiled search."""
    return {"uttt-p2-19": deep_uttt("uttt", 19), "open-p2-21": deep_uttt("uttt:open", 21)}


def with_records(doc: dict, records: list[bytes]) -> dict:
    """`doc` with these count records, `proof.closure_bytes` their length."""
    changed = with_counts(doc, b"".join(records))
    changed["proof"]["closure_bytes"] = sum(map(len, records))
    return changed


def records_of(counts: bytes) -> list[bytes]:
    """The count records of `proof.counts`, one after another (checker/uttt_count.py record_length)."""
    from checker.uttt_count import record_length

    out, at = [], 0
    while at < len(counts):
        length = record_length(counts, at)
        assert length, at
        out.append(counts[at:at + length])
        at += length
    return out


def parts_of(record: bytes) -> list[bytes]:
    """A deep record's k records, one after another."""
    from checker.uttt_count import NEST, record_length

    out, at = [], 3
    for _ in range(record[2]):
        out.append(record[at:at + record_length(record, at, NEST - 1)])
        at += len(out[-1])
    return out


def deep_mutants(record: bytes) -> list[bytes]:
    """A deep record changed as a forger would: its move, its k, a count of a record inside, its
    records cut off, duplicated, reordered, or one nested a level deeper than NEST allows."""
    parts = parts_of(record)
    head = record[:3]
    out = [bytes([254, (record[1] + 1) % 254]) + record[2:], record[:2] + bytes([record[2] + 1]) + record[3:],
           record[:2] + bytes([record[2] - 1]) + record[3:], head + b"".join(parts[:-1]),
           record[:2] + bytes([record[2] - 1]) + b"".join(parts[:-1]), record[:2] + bytes([record[2] + 1]) + record[3:] + parts[-1],
           head + b"".join(parts[::-1])]
    two = 3
    while record[two] == 254:  # the first two-byte record inside
        two += 3
    out.append(record[:two + 1] + bytes([(record[two + 1] + 1) % 256]) + record[two + 2:])  # a count one higher
    deeper = [part for part in parts if part[0] == 254]
    if deeper:  # its records one level deeper: past NEST where the record is already at it
        inner = deeper[0]
        out.append(record.replace(inner, inner[:3] + b"".join(bytes([254, 0, 1]) + p for p in parts_of(inner)), 1))
    return out


@pytest.mark.parametrize("name", ["uttt-p2-19", "open-p2-21"])
def test_deep_count_records_and_their_mutants(build: Path, tmp_path: Path, deep_proofs: dict, name: str) -> None:
    """A proof closed by deep count records is VALID to both checkers, and each deep record changed
    (`deep_mutants`) gets the same exit code and line from both; the changes that keep the bytes
    readable are refused (INVALID), the ones past the format (cut off, too deep) are errors."""
    doc = deep_proofs[name]
    code, line = agree(build, tmp_path, doc)
    assert code == 0 and "closed by a count" in line, line
    records = records_of(counts_of(doc))
    deep = [i for i, record in enumerate(records) if record[0] == 254]
    codes = []
    for index in deep[::max(1, len(deep) // 6)][:6]:
        for mutant in deep_mutants(records[index]):
            changed = with_records(doc, records[:index] + [mutant] + records[index + 1:])
            codes.append(agree(build, tmp_path, changed, "deep.json")[0])
    assert codes.count(1) >= len(codes) // 2 and codes.count(2) >= 1, codes


# The proofs of `deep_proofs`, walked by the driver's traversal; each deep record (with its state
# and plies left) handed to the extracted Count.record_ok alone, honest and changed by hand (its
# move, its k, a count inside, its records cut off, duplicated or reordered, nested deeper than
# the check is allowed to go): each change must be refused by the proved check itself. Then a
# record made four levels deep by hand, right at four levels (record_ok with 4), must be refused
# by Count.closed_within, whose records nest three deep at most.
DEEP_PROBE = """
let nat = Positional.nat_of_int
let rec depth = function Core.Two _ -> 0 | Core.Deep (_, _, rs) -> 1 + List.fold_left (fun m r -> max m (depth r)) 0 rs
let () =
  let doc = Load.parse_json (Load.read_file Sys.argv.(1) max_int) in
  let rules = if Sys.argv.(2) = "open" then Core.OpenRules else Core.Standard and within = int_of_string Sys.argv.(3) in
  let f = Proof.uttt rules in
  let proof = Load.obj "certificate" "proof" doc in
  let positions = Load.int_in "proof" "positions" 1 max_int proof and turns = Load.int_in "proof" "turns" 0 max_int proof in
  let moves = Unpack.field "proof" "moves" turns proof in
  let limits = { Load.max_bytes = max_int; max_states = max_int; max_work = max_int; sha = None } in
  let closures = Proof.closures_of f proof true turns limits in
  let closing = Hashtbl.create 64 and root = f.Proof.initial () in
  let seen = Proof.traverse ~closures ~closing ~within f 2 true root positions turns moves in
  let key n = Proof.positive_of_int (n + 2) in
  let lookup s = let n = seen.Proof.number s in if n < 0 then Core.XH else key n in
  (* the trie Proof.uttt_positions hands to Count.closed_within, and every record with its state *)
  let set = ref Core.M.empty and stack = ref [root] and found = ref [] in
  while !stack <> [] do
    let s = List.hd !stack in
    stack := List.tl !stack;
    let n = seen.Proof.number s in
    if n >= 0 && Core.M.find (key n) !set = None then begin
      set := Core.M.add (key n) (s, nat (seen.Proof.choice n)) !set;
      (match Hashtbl.find_opt closing n with
       | Some (Proof.Count r) -> found := (n, s, within - (f.Proof.empties root - f.Proof.empties s), r ()) :: !found
       | _ -> ());
      stack := Core.uttt_children rules s @ !stack
    end
  done;
  let closure n' r' s = let n = seen.Proof.number s in
    if n = n' then Some (Proof.Count (fun () -> r')) else Hashtbl.find_opt closing n in
  let verdict c = Core.uttt_closed_within rules lookup (Proof.counts_of c) Core.P2 true (nat within) !set root in
  let ok ?(nest = 3) s left r = Core.uttt_record_ok rules Core.P2 (nat nest) (nat left) s r in
  let rec bump = function (* the first two-byte record inside, its count one higher *)
    | Core.Two (mv, c) -> Core.Two (mv, Core.S c)
    | Core.Deep (i, k, r :: rs) -> Core.Deep (i, k, bump r :: rs)
    | r -> r in
  (* a two-byte record with a move, at depth 3, written out one level further: the move, then for
     each reply the count where the reply leaves the opponent (its own two-byte record) *)
  let rec expand level s = function
    | Core.Deep (i, k, rs) ->
      let a = List.nth (Core.uttt_children rules s) (Uttt.int_of_nat i) in
      Core.Deep (i, k, List.map2 (expand (level + 1)) (Core.uttt_children rules a) rs)
    | Core.Two (Some j, _) when level = 3 ->
      let b = List.nth (Core.uttt_children rules s) (Uttt.int_of_nat j) in
      let replies = Core.uttt_children rules b in
      Core.Deep (j, nat (List.length replies), List.map (fun h -> Core.Two (None, Core.uttt_needed Core.P2 h None)) replies)
    | r -> r in
  let honest = ref 0 and deep = ref 0 and three = ref 0 and three_refused = ref 0 in
  let tried = Array.make 9 0 and refused = Array.make 9 0 in
  let attempt kind s left r = tried.(kind) <- tried.(kind) + 1; if not (ok s left r) then refused.(kind) <- refused.(kind) + 1 in
  List.iter (fun (n, s, left, r) -> match r with
      | Core.Deep (i, k, rs) ->
        incr deep;
        if ok s left r then incr honest;
        let last = List.nth rs (List.length rs - 1) and cut = List.filteri (fun j _ -> j < List.length rs - 1) rs in
        let pred = function Core.S p -> p | Core.O -> Core.O in
        attempt 0 s left (Core.Deep (Core.S i, k, rs));
        attempt 1 s left (Core.Deep (i, Core.S k, rs));
        attempt 2 s left (Core.Deep (i, pred k, rs));
        attempt 3 s left (Core.Deep (i, k, cut));
        attempt 4 s left (Core.Deep (i, pred k, cut));
        attempt 5 s left (Core.Deep (i, Core.S k, rs @ [last]));
        if List.exists (fun r' -> r' <> List.hd rs) rs then attempt 6 s left (Core.Deep (i, k, List.rev rs));
        attempt 7 s left (bump r);
        tried.(8) <- tried.(8) + 1;
        if not (ok ~nest:(depth r - 1) s left r) then refused.(8) <- refused.(8) + 1;
        let r3 = expand 0 s r in
        if depth r3 = 4 && ok ~nest:4 s left r3 then begin
          incr three;
          if not (ok s left r3) && not (verdict (closure n r3)) then incr three_refused
        end
      | _ -> ()) !found;
  Printf.printf "%b %d %d %d %d" (verdict (fun s -> Hashtbl.find_opt closing (seen.Proof.number s))) !deep !honest !three !three_refused;
  Array.iteri (fun j t -> Printf.printf " %d/%d" refused.(j) t) tried
"""


@pytest.mark.parametrize("name", ["uttt-p2-19", "open-p2-21"])
def test_the_proved_count_check_refuses_wrong_deep_records_by_itself(build: Path, tmp_path: Path, deep_proofs: dict,
                                                                     name: str) -> None:
    (build / "deep_probe.ml").write_text(DEEP_PROBE)
    modules = ["core.cmx", "load.cmx", "unpack.cmx", "sha256.cmx", "positional.cmx", "packed.cmx", "symmetric.cmx", "uttt.cmx", "pairing.cmx", "proof.cmx"]
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", "deep_probe", "unix.cmxa", *modules, "deep_probe.ml"],
                              cwd=build, capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(deep_proofs[name]))
    within = str(deep_proofs[name]["claim"]["within"])
    done = subprocess.run([str(build / "deep_probe"), str(path), "open" if "open" in name else "standard", within],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    accepted, deep, honest, three, three_refused, *kinds = done.stdout.split()
    assert accepted == "true" and int(deep) >= 1 and honest == deep, done.stdout
    counts = [tuple(map(int, kind.split("/"))) for kind in kinds]
    # k one more or less, the records cut off (k kept or not) or one duplicated, a count one off,
    # nested past the depth allowed: every one refused; the move changed or the records
    # reordered: nearly every one (another reply may happen to close too)
    for kind in (1, 2, 3, 4, 5, 7, 8):
        assert counts[kind][0] == counts[kind][1] == int(deep), (kind, done.stdout)
    for kind in (0, 6):
        assert counts[kind][0] >= counts[kind][1] * 3 // 4, (kind, done.stdout)
    # a record four levels deep (right at four: record_ok with 4) is refused where three is the limit
    assert int(three_refused) == int(three) and (int(three) >= 1 or "uttt-p2" in name), done.stdout  # standard's nest two deep


# Tic-tac-toe's pairing for X (certificates/pairings/tictactoe.p1-pairing.json: the centre, then
# four pairs), handed to the extracted Pairing.pairing_check: it must accept it and refuse each
# change (a pair dropped, a pair on a taken cell, pairs sharing a cell, no first move, the other
# player, misere rules) by itself -- the driver's scan refuses them first on a certificate.
PAIRING_CHECK_PROBE = """
let rec nat n = if n = 0 then Core.O else Core.S (nat (n - 1))
let lines = [[0;1;2];[3;4;5];[6;7;8];[0;3;6];[1;4;7];[2;5;8];[0;4;8];[2;4;6]]
let game goal = { Core.lines = List.map (List.map nat) lines; Core.marks = Core.Own; Core.goal_of = goal }
let pairs = List.map (fun (a, b) -> (nat a, nat b)) PAIRS
let root = List.init 9 (fun _ -> Core.Empty)
let check ?(goal = Core.FirstLineWins) ?(player = Core.P1) ?(first = Some (nat 4)) ?(root = root) pairs =
  print_string (if Core.pairing_check (game goal) player first pairs root then "1" else "0")
let () =
  check pairs;
  check (List.tl pairs);
  check ~root:(List.mapi (fun i m -> if (nat i, nat i) = (fst (List.hd pairs), fst (List.hd pairs)) then Core.Nought else m) root) pairs;
  check ((fst (List.hd pairs), snd (List.nth pairs 1)) :: List.tl pairs);
  check ~first:None pairs;
  check ~player:Core.P2 pairs;
  check ~goal:Core.FirstLineLoses pairs
"""


def test_the_proved_pairing_check_refuses_a_wrong_pairing_by_itself(build: Path) -> None:
    doc = json.loads((ROOT / "certificates" / "pairings" / "tictactoe.p1-pairing.json").read_text())
    assert doc["pairing"]["first_move"] == 4
    pairs = "[" + "; ".join(f"({a}, {b})" for a, b in doc["pairing"]["pairs"]) + "]"
    (build / "pairing_probe.ml").write_text(PAIRING_CHECK_PROBE.replace("PAIRS", pairs))
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", "pairing_probe", "core.cmx", "pairing_probe.ml"], cwd=build,
                              capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run([str(build / "pairing_probe")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "1000000")


# seed 003's worked position of standard Ultimate tic-tac-toe, X sent to board 8: X wins
# (tests/test_uttt_proofs.py; a few thousand nodes)
WORKED = "......O../.......XX/XXXX.XXX./...O.O.OO/..X.XXXXO/O...O..X./O..OOO..O/O.......O/O.....X.. 8"


@pytest.fixture(scope="module")
def standard_uttt() -> dict:
    """A proof about standard Ultimate tic-tac-toe (won boards closed) from a position."""
    from certify.proving.single import prove
    from solver.games.uttt.engine import Uttt
    from solver.search.pns import Claim

    attempt = prove(Uttt(), Claim(1, "win"), WORKED, max_nodes=200_000)
    assert attempt.outcome.status == "proved" and attempt.text is not None
    return json.loads(attempt.text)


def test_standard_uttt_proof_and_its_mutants(build: Path, tmp_path: Path, standard_uttt: dict) -> None:
    """The two checkers give the same line on the proof and on copies with one move changed, or
    proved from another position, or for the other player."""
    code, line = agree(build, tmp_path, standard_uttt)
    assert code == 0 and line.startswith("VALID strategy ultimate tic-tac-toe (won and full boards closed"), line
    moves = moves_of(standard_uttt)
    verdicts = []
    for index in range(0, len(moves), max(1, len(moves) // 12)):
        changed = bytearray(moves)
        changed[index] = (changed[index] + 1) % 9
        verdicts.append(agree(build, tmp_path, with_moves(standard_uttt, bytes(changed)), f"m{index}.json")[0])
    assert verdicts.count(1) >= len(verdicts) // 2, verdicts
    claim = standard_uttt["claim"]
    assert agree(build, tmp_path, {**standard_uttt, "claim": {**claim, "root": WORKED[:-1] + "2"}}, "other.json")[0] == 1
    assert agree(build, tmp_path, {**standard_uttt, "claim": {**claim, "player": 2}}, "p2.json")[0] != 0


# The published open-rules proof, walked by the driver's traversal into the set it hands to the
# extracted Uttt.closed; then the set changed by hand: each change must be refused by the proved
# check itself (the driver's traversal would refuse most of them first).
UTTT_CLOSED_PROBE = """
let () =
  let doc = Load.parse_json (Load.read_file Sys.argv.(1) max_int) in
  let f = Proof.uttt Core.OpenRules in
  let proof = Load.obj "certificate" "proof" doc in
  let positions = Load.int_in "proof" "positions" 1 max_int proof and turns = Load.int_in "proof" "turns" 0 max_int proof in
  let moves = Unpack.field "proof" "moves" turns proof in
  let root = f.Proof.initial () in
  let seen = Proof.traverse ~closing:(Hashtbl.create 1) f 1 false root positions turns moves in
  (* the trie Proof.uttt_positions hands to Uttt.closed, rebuilt from the traversal's numbers *)
  let key n = Proof.positive_of_int (n + 2) in
  let lookup s = let n = seen.Proof.number s in if n < 0 then Core.XH else key n in
  let set = ref Core.M.empty and stack = ref [root] in
  while !stack <> [] do
    let s = List.hd !stack in
    stack := List.tl !stack;
    let n = seen.Proof.number s in
    if n >= 0 && Core.M.find (key n) !set = None then begin
      set := Core.M.add (key n) (s, Positional.nat_of_int (seen.Proof.choice n)) !set;
      stack := Core.uttt_children Core.OpenRules s @ !stack
    end
  done;
  let set = !set in
  let verdict ?(rules = Core.OpenRules) ?(player = Core.P1) s = Core.uttt_closed rules lookup (fun _ -> None) player false s root in
  let flag b = print_string (if b then "1" else "0") in
  flag (verdict set);
  flag (verdict ~player:Core.P2 set);
  flag (verdict ~rules:Core.Standard set);
  (* a stored choice moved to another legal move, at the first 20 positions of the set where X
     moves (in the traversal's order) *)
  let changed = ref 0 and refused = ref 0 and walked = Hashtbl.create 1024 in
  let rec walk = function
    | [] -> ()
    | _ when !changed >= 20 -> ()
    | s :: rest when Hashtbl.mem walked (lookup s) || Core.M.find (lookup s) set = None -> walk rest
    | s :: rest ->
      Hashtbl.add walked (lookup s) ();
      let n = List.length (Core.uttt_children Core.OpenRules s) in
      (match Core.M.find (lookup s) set with
       | Some (_, c) when Core.uttt_to_move s = Core.P1 && n > 1 ->
         incr changed;
         let c' = Positional.nat_of_int ((Proof.int_of_nat c + 1) mod n) in
         if not (verdict (Core.M.add (lookup s) (s, c') set)) then incr refused
       | _ -> ());
      walk (Core.uttt_children Core.OpenRules s @ rest) in
  walk [root];
  Printf.printf " %d %d" !changed !refused
"""


def test_the_proved_uttt_closure_check_refuses_a_wrong_set_by_itself(build: Path) -> None:
    (build / "uttt_probe.ml").write_text(UTTT_CLOSED_PROBE)
    modules = ["core.cmx", "load.cmx", "unpack.cmx", "sha256.cmx", "positional.cmx", "packed.cmx", "symmetric.cmx", "uttt.cmx", "pairing.cmx",
               "proof.cmx"]
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", "uttt_probe", "unix.cmxa", *modules, "uttt_probe.ml"],
                              cwd=build, capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run([str(build / "uttt_probe"), str(ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json")],
                          capture_output=True, text=True, timeout=600)
    flags, changed, refused = done.stdout.split()
    assert (done.returncode, flags) == (0, "100")  # the honest set passes; as player 2's, or under the standard rules, not
    assert int(changed) == 20 and int(refused) >= 15, done.stdout  # a changed choice may be another win in the set


# The start of a probe of a positional proof (argv 1): its rules as Core's game, its claim and its
# moves, read as the driver reads them.
READ_POSITIONAL_PROOF = """
let () =
  let doc = Load.parse_json (Load.read_file Sys.argv.(1) max_int) in
  let r = Positional.parse_rules (Load.obj "certificate" "rules" doc) in
  let f = Proof.positional r and game = Positional.game_of r and cells = r.Positional.rows * r.Positional.cols in
  let claim = Load.obj "certificate" "claim" doc and proof = Load.obj "certificate" "proof" doc in
  let player = Load.int_in "claim" "player" 1 2 claim and no_loss = Load.str "claim" "result" claim = "no-loss" in
  let prover = if player = 1 then Core.P1 else Core.P2 and other = if player = 1 then Core.P2 else Core.P1 in
  let positions = Load.int_in "proof" "positions" 1 max_int proof and turns = Load.int_in "proof" "turns" 0 max_int proof in
  let moves = Unpack.field "proof" "moves" turns proof in
"""
DRIVER_MODULES = ["core.cmx", "load.cmx", "unpack.cmx", "sha256.cmx", "positional.cmx", "packed.cmx", "symmetric.cmx", "uttt.cmx",
                  "pairing.cmx", "proof.cmx"]


def driver_probe(build: Path, name: str, source: str) -> Path:
    """An OCaml program linked with the built driver's modules, in the build directory."""
    (build / f"{name}.ml").write_text(source)
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", name, "unix.cmxa", *DRIVER_MODULES, f"{name}.ml"],
                              cwd=build, capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return build / name


# A positional proof without closures, walked by the driver's traversal; its positions packed into
# the search tree the extracted Strategy.closed (no closures, images or blocks) judges, and then
# changed: a position dropped, or a stored choice moved to another legal move. The proved check
# itself must refuse them (the driver's traversal refuses a wrong file first). Prints whether the
# honest set passes, and as the other player's; then the mutants tried and refused.
POSITIONAL_CLOSED_PROBE = READ_POSITIONAL_PROOF + """  let root = match Load.member "claim" "root" claim with Load.Str t -> f.Proof.parse_position t | _ -> f.Proof.initial () in
  let seen = Proof.traverse ~closing:(Hashtbl.create 1) f player no_loss root positions turns moves in
  let boards = Array.make positions [] and stack = ref [root] in
  while !stack <> [] do
    let b = List.hd !stack in
    stack := List.tl !stack;
    let n = seen.Proof.number b in
    if n >= 0 && boards.(n) = [] then (boards.(n) <- b; stack := Core.children game b @ !stack)
  done;
  let set ?(drop = -1) ?(move = -1) () =
    let t = Packed.create cells in
    Array.iteri (fun n b ->
        let c = seen.Proof.choice n in
        let c = if n = move then (c + 1) mod List.length (Core.children game b) else c in
        if n <> drop then ignore (Packed.add t b c)) boards;
    Packed.tree t cells (fun n -> Some Packed.small.(Packed.choice t n)) in
  let verdict ?(player = prover) s = Core.positional_closed game (fun _ -> None) [] player no_loss (s, Core.Tip) root in
  let flag b = print_string (if b then "1" else "0") in
  flag (verdict (set ()));
  flag (verdict ~player:other (set ()));
  let step = max 1 (positions / 80) in
  (* a reply after which the prover completes a line: Blocks.v proves it lost without it in the set *)
  let lost b = Core.to_move b = prover && Symmetric.completions r b (if prover = Core.P1 then Core.Cross else Core.Nought) <> [] in
  let moved = ref 0 and refused_moved = ref 0 and dropped = ref 0 and refused_dropped = ref 0 in
  Array.iteri (fun n b ->
      let k = List.length (Core.children game b) in
      if !moved < 20 && k > 1 && Core.to_move b = prover && n mod 7 = 3 then begin
        incr moved; if not (verdict (set ~move:n ())) then incr refused_moved end;
      if !dropped < 20 && n mod step = 1 && not (lost b) then begin
        incr dropped; if not (verdict (set ~drop:n ())) then incr refused_dropped end) boards;
  Printf.printf " %d %d %d %d" !moved !refused_moved !dropped !refused_dropped
"""


# A proof of player 1's win on the 9x4 board (36 cells: two ints a packed.ml code, past 8 by side),
# from a position of the published proof's strategy: 21,342 positions, proved here in about a second.
WIDE_ROOT = "...O...../....XXO../........./........."


@pytest.fixture(scope="module")
def positional_probe(build: Path) -> Path:
    return driver_probe(build, "positional_probe", POSITIONAL_CLOSED_PROBE)


@pytest.mark.parametrize("source", ["mnk-3-4-3-misere.p2-win", "mnk:4,9,4 p1 win"])
def test_the_proved_positional_closure_check_refuses_a_wrong_set_by_itself(positional_probe: Path, tmp_path: Path,
                                                                           source: str) -> None:
    """The published 3x4 misere proof, and a 9x4 one (non-square, past 8 by side)."""
    if source.startswith("mnk:4,9,4"):
        path = tmp_path / "wide.json"
        path.write_text(json.dumps(document("mnk:4,9,4", 1, "win", WIDE_ROOT)))
    else:
        path = ROOT / "certificates" / "proofs" / f"{source}.json"
    done = subprocess.run([str(positional_probe), str(path)], capture_output=True, text=True, timeout=600)
    flags, moved, refused_moved, dropped, refused_dropped = done.stdout.split()
    assert (done.returncode, flags) == (0, "10")  # the honest set passes; as the other player's, not
    assert int(dropped) >= 10 and int(refused_dropped) == int(dropped), done.stdout  # every position is some parent's child
    assert int(moved) == 20 and int(refused_moved) >= 15, done.stdout  # a changed choice may be another win in the set


# Tic-tac-toe's labels by plain minimax, handed to the extracted labels_closed: it must accept
# them, and refuse each change (the root's label, a child's changed or dropped, an end's, every
# label a draw). (The driver's scans refuse every wrong table before
# labels_closed sees it, so only a program of its own shows the proved check refusing by itself.)
LABELS_CLOSED_PROBE = """
let rec nat n = if n = 0 then Core.O else Core.S (nat (n - 1))
let game = { Core.lines = List.map (List.map nat) [[0;1;2];[3;4;5];[6;7;8];[0;3;6];[1;4;7];[2;5;8];[0;4;8];[2;4;6]];
             Core.marks = Core.Own; Core.goal_of = Core.FirstLineWins }
let memo = Hashtbl.create 8192
let rec value b = match Hashtbl.find_opt memo b with
  | Some v -> v
  | None ->
    let v = match Core.result game b with
      | Some o -> Core.end_value b o
      | None -> List.fold_left (fun a c -> Core.vmax (Core.neg (value c)) a) Core.Loss (Core.children game b) in
    Hashtbl.add memo b v; v
let root = List.init 9 (fun _ -> Core.Empty)
let child = List.hd (Core.children game root)
let ended = [Core.Cross; Core.Cross; Core.Cross; Core.Nought; Core.Nought; Core.Empty; Core.Empty; Core.Empty; Core.Empty]
let honest b = Hashtbl.find_opt memo b
let changed target label b = if b = target then label else honest b
let accepts lookup = Core.labels_closed game { Core.cells = nat 9; Core.lookup = lookup }
let () =
  ignore (value root);
  List.iter (fun ok -> print_string (if ok then "1" else "0"))
    [accepts honest; accepts (changed root (Some Core.Win)); accepts (changed root (Some Core.Loss));
     accepts (changed child (Some Core.Loss)); accepts (changed child None);
     accepts (changed ended (Some Core.Draw)); accepts (fun _ -> Some Core.Draw);
     (* no label at all passes, and proves nothing: value_of has no label to give *)
     accepts (fun b -> if List.length b = 9 then None else Some Core.Win)]
"""


def test_the_proved_minimax_check_refuses_a_wrong_label_by_itself(build: Path) -> None:
    (build / "probe.ml").write_text(LABELS_CLOSED_PROBE)
    compiled = subprocess.run(["ocamlopt", "-w", "-a", "-o", "probe", "core.cmx", "probe.ml"], cwd=build,
                              capture_output=True, text=True, timeout=120)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run([str(build / "probe")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "10000001")


def scale_budget(entry: dict) -> tuple[str, ...]:
    """The budget the record's command gives the stdlib checker for a 4x4 table (`--max-states N --max-work N`)."""
    found = re.search(r"--max-states (\d+) --max-work (\d+)", entry["command"])
    assert found, entry["command"]
    return ("--max-states", found[1], "--max-work", found[2])


@pytest.mark.slow
@pytest.mark.parametrize("entry", SCALE, ids=lambda entry: Path(entry["file"]).stem)
def test_every_published_4x4_table_is_valid(build: Path, entry: dict) -> None:
    """6 to 43 million states each: 25 s to 4 min of CPU (docs/verified-checker.md), hence `slow`.
    The line states the record's counts and root value; on the smallest table it is also the
    stdlib checker's line, word for word (the others take it minutes more)."""
    code, line = run(build, ROOT / entry["file"], *scale_budget(entry), timeout=1800)
    assert code == 0 and line.endswith(SUFFIX["table"]), line
    counts = f": {entry['states']:,} states, {entry['edges']:,} edges, root {entry['root_value']}"
    assert line.startswith("VALID table 4x4 board, ") and counts in line, line
    if entry["states"] == min(other["states"] for other in SCALE):
        budget = scale_budget(entry)
        limits = checker.Limits(max_states=int(budget[1]), max_work=int(budget[3]))
        assert line.removesuffix(SUFFIX["table"]) == checker.check_file(str(ROOT / entry["file"]), limits).message


@pytest.mark.parametrize("case", PROOFS, ids=lambda c: f"{c[0]}-p{c[1]}-{c[2]}")
def test_every_mark_rule_and_goal(build: Path, tmp_path: Path, case: tuple) -> None:
    assert agree(build, tmp_path, document(*case))[0] == 0


# Boards of any shape up to 64 cells, as the stdlib checker reads them: 1x64, 4x16, qubic (the
# 4x4x4 cube laid out on a 4x16 board, its 76 lines listed), 9x4; each proved here from a position.
SHAPES = [("mnk:1,64,3", "OO.....X......................................................X."),
          ("mnk:4,16,4", "O...O.........../....XX........../................/................"),
          ("qubic", "XXX.O.........../O.............../O.............../................"),
          ("mnk:4,9,4", WIDE_ROOT)]


@pytest.mark.parametrize("case", SHAPES, ids=lambda case: case[0])
def test_boards_of_any_shape_up_to_64_cells(build: Path, tmp_path: Path, case: tuple) -> None:
    doc = document(case[0], 1, "win", case[1])
    assert agree(build, tmp_path, doc)[0] == 0
    # a move dropped is refused, and a move changed judged, by both checkers in the same words
    moves = moves_of(doc)
    assert agree(build, tmp_path, with_moves(doc, moves[:-1]), "dropped.json")[0] == 1
    assert agree(build, tmp_path, with_moves(doc, moves[:1] + b"\x00" + moves[2:]), "changed.json")[0] in (0, 1)


def mutants(doc: dict, game: str, replace: bool = True) -> list[dict]:
    """One-change copies of a true proof, each INVALID for the stdlib checker (tests/test_proof_certificates.py);
    without `replace`, no move is replaced by a losing one (found by replaying the moves plainly)."""
    moves = moves_of(doc)
    replaced = [m for m in (losing_replacement(doc, index) for index in range(min(len(moves), 40)) if replace) if m][:3]
    changed = [with_moves(doc, m) for m in replaced]
    changed += [with_moves(doc, moves[:-1]), with_moves(doc, moves[1:]), with_moves(doc, moves + b"\x00"),
                with_moves(doc, moves[:3] + moves[4:]), with_moves(doc, moves[:1] + b"\xff" + moves[2:])]
    changed.append({**doc, "claim": {**doc["claim"], "player": 3 - doc["claim"]["player"]}})
    changed.append({**doc, "claim": {**doc["claim"], "result": "win"}})
    changed.append({**doc, "proof": {**doc["proof"], "positions": doc["proof"]["positions"] + 1}})
    changed.append({**doc, "proof": {**doc["proof"], "positions": doc["proof"]["positions"] - 1}})
    changed.append({**doc, "rules_sha256": "0" * 64})
    for key, swap in (("goal", {"first-line-wins": "first-line-loses", "first-line-loses": "first-line-wins"}),
                      ("marks", {"own": "either", "either": "own"})):
        if doc["rules"][key] in swap:
            flipped = copy.deepcopy(doc)
            flipped["rules"][key] = swap[doc["rules"][key]]
            changed.append(rehashed(flipped))
    shorter = copy.deepcopy(doc)
    shorter["rules"]["lines"] = shorter["rules"]["lines"][1:]
    changed.append(rehashed(shorter))
    return changed


@pytest.mark.parametrize("case", SMALL, ids=lambda c: f"{c[0]}-p{c[1]}-{c[2]}")
def test_the_checkers_agree_on_mutants(build: Path, tmp_path: Path, case: tuple) -> None:
    verdicts = [agree(build, tmp_path, mutant)[0] for mutant in mutants(document(*case), case[0])]
    assert verdicts.count(1) >= len(verdicts) - 3, verdicts  # a mutant may happen to be true (e.g. another goal)


def unreadable(doc: dict) -> list[dict | str]:
    """Copies of a certificate the stdlib checker cannot read (exit 2)."""
    text = json.dumps(doc, sort_keys=True)
    moves = doc["proof"]["moves"]
    bad: list[dict | str] = ["", "{", "[]", text.replace('"kind"', '"kind": "strategy", "kind"', 1), text + "x",
                             "\xff" + text, text.replace('"version": 2', '"version": 1'),
                             text.replace('"version": 2', '"version": 2.0'),
                             text.replace('"version": 2', '"version": true')]
    for part, key, value in (("proof", "moves", moves[:-4]), ("proof", "moves", moves + "!"),
                             ("proof", "moves", base64.b64encode(zlib.compress(b"\x00" * 9999)).decode()),
                             ("proof", "moves", base64.b64encode(base64.b64decode(moves)[:-1]).decode()),
                             ("proof", "turns", doc["proof"]["turns"] + 1), ("proof", "positions", 0),
                             ("proof", "positions", 10**7), ("proof", "traversal", "bfs"),
                             ("claim", "player", 3), ("claim", "player", True), ("claim", "result", "draw"),
                             ("claim", "root", "XXX/..."), ("claim", "root", 5),
                             ("rules", "rows", 300), ("rules", "goal", "x"), ("rules", "extra", 1),
                             ("rules", "lines", []), ("rules", "lines", [[1, 0]]), ("rules", "lines", [[0, 99]]),
                             ("rules", "lines", list(reversed(doc["rules"]["lines"]))), ("rules", "family", "uttt"),
                             ("", "kind", "table"), ("", "format", "other"), ("", "provenance", None)):
        changed = copy.deepcopy(doc)
        (changed[part] if part else changed)[key] = value
        bad.append(changed)
    return bad


@pytest.mark.parametrize("case", PROOFS[:4], ids=lambda c: f"{c[0]}-p{c[1]}-{c[2]}")
def test_the_checkers_agree_on_unreadable_files(build: Path, tmp_path: Path, case: tuple) -> None:
    for index, bad in enumerate(unreadable(document(*case))):
        code, line = agree(build, tmp_path, bad, f"bad{index}.json")
        assert code == 2 and line.startswith("ERROR: "), (index, line)


def test_a_position_as_root_and_the_options(build: Path, tmp_path: Path) -> None:
    doc = document("tictactoe", 1, "win", "XO./.../...")
    assert agree(build, tmp_path, doc)[0] == 0
    assert agree(build, tmp_path, {**doc, "claim": {**doc["claim"], "root": None}}, "moved.json")[0] == 1
    path = tmp_path / "cert.json"
    assert run(build, path, "--rules-sha256", doc["rules_sha256"][:16])[0] == 0
    assert run(build, path, "--rules-sha256", "0" * 16)[0] == 1
    assert run(build, path, "--max-states", "3")[0] == 2
    assert run(build, path, "--max-bytes", "10")[0] == 2
    assert run(build, ROOT / "certificates" / "w3t.json", "--max-work", "10")[0] == 2
    assert run(build, tmp_path / "missing.json")[0] == 2


@settings(max_examples=100)
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 2), st.binary(min_size=1, max_size=1)),
                      min_size=1, max_size=3), table=st.booleans())
def test_the_checkers_agree_on_byte_edits(build: Path, tmp_path_factory: pytest.TempPathFactory, edits: list,
                                          table: bool) -> None:
    data = bytearray(TABLE_BYTES if table else PUBLISHED_BYTES)
    for at, operation, byte in edits:
        at %= len(data)
        if operation == 0:
            data[at:at + 1] = byte
        elif operation == 1:
            del data[at]
        else:
            data[at:at] = byte
    path = tmp_path_factory.mktemp("edit") / "cert.json"
    path.write_bytes(bytes(data))
    code, line = run(build, path)
    expected = checker.check_file(str(path))
    assert code == expected.exit_code, (line, expected.message)
    assert "internal checker failure" not in line


@settings(max_examples=100)
@given(data=st.data())
def test_the_checkers_agree_on_junk_values(build: Path, tmp_path_factory: pytest.TempPathFactory,
                                           data: st.DataObject) -> None:
    doc = copy.deepcopy(json.loads(PUBLISHED_BYTES))
    part, key = data.draw(st.sampled_from([("claim", "player"), ("claim", "result"), ("claim", "root"),
                                           ("proof", "positions"), ("proof", "turns"), ("proof", "moves"),
                                           ("proof", "traversal"), ("rules", "rows"), ("rules", "cols"),
                                           ("rules", "lines"), ("rules", "name")]))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.text(max_size=12),
                     st.binary(max_size=40).map(lambda b: base64.b64encode(zlib.compress(b)).decode()),
                     st.lists(st.integers(-2, 20), max_size=3), st.lists(st.lists(st.integers(-1, 9), max_size=3), max_size=3),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
    doc[part][key] = data.draw(junk)
    agree(build, tmp_path_factory.mktemp("junk"), doc)


def table_mutants(doc: dict) -> list[dict]:
    """One-change copies of a true table (labels, margins, claim, strategies; tests/test_checker_mutations.py)."""
    opened = open_arrays(doc)
    size, cells = len(opened["table"]["values"]), doc["rules"]["rows"] * doc["rules"]["cols"]
    changed: list[dict] = []

    def edit(change) -> None:  # type: ignore[no-untyped-def]
        copied = copy.deepcopy(opened)
        change(copied)
        changed.append(close_arrays(copied))

    def put(key: str, index: int, value: int):  # type: ignore[no-untyped-def]
        return lambda d: d["table"][key].__setitem__(index, value)

    arrays = [key for key in ("values", "distances", "margins") if opened["table"][key] is not None]
    for index in sorted({0, 1, size // 3, size // 2, size - 1}):
        value, distance = opened["table"]["values"][index], opened["table"]["distances"][index]
        changed_value = [put("values", index, v) for v in (-1, 0, 1) if v != value]
        for change in changed_value + [put("distances", index, distance + 1), put("distances", index, max(0, distance - 1) ^ 1)]:
            edit(change)
        if opened["table"]["margins"] is not None:
            edit(put("margins", index, opened["table"]["margins"][index] + 1))
        edit(lambda d, i=index: [d["table"][key].pop(i) for key in arrays])
        edit(lambda d, i=index: [d["table"][key].insert(i, d["table"][key][i]) for key in arrays])
    for word in ("win", "draw", "loss", "lost"):
        if word != doc["claim"]["root_value"]:
            edit(lambda d, w=word: d["claim"].__setitem__("root_value", w))
    if doc["claim"]["root_margin"] is not None:
        edit(lambda d: d["claim"].__setitem__("root_margin", d["claim"]["root_margin"] + 1))
    edit(lambda d: d["claim"]["first_moves"][0].__setitem__("value", "loss" if d["claim"]["first_moves"][0]["value"] != "loss" else "win"))
    edit(lambda d: d["claim"]["first_moves"].pop())
    edit(lambda d: d["strategies"].pop())
    for index in (0, -1) if opened["strategies"][0]["cells"] else ():
        edit(lambda d, i=index: d["strategies"][0]["cells"].__setitem__(i, (d["strategies"][0]["cells"][i] + 1) % cells))
        edit(lambda d, i=index: d["strategies"][0]["marks"].__setitem__(i, 3 - d["strategies"][0]["marks"][i]))
        edit(lambda d, i=index: [d["strategies"][0][key].pop(i) for key in ("cells", "marks")])
    edit(lambda d: [d["strategies"][0][key].append(1) for key in ("cells", "marks")])
    return changed


# The pool less its two largest tables (w3t, cumulative: 18,753 and 6,046 states, the slowest to
# mutate); 2x3-wild-k2 and the two most-lines games cover their mark rule and goal.
TABLE_POOL = sorted(name for name in BUILTINS + tuple(spec[0] for spec in SMALL_SPECS)
                    if name not in ("w3t", "cumulative"))


@pytest.mark.parametrize("name", TABLE_POOL)
def test_the_checkers_agree_on_table_mutants(build: Path, tmp_path: Path, name: str) -> None:
    verdicts = [agree(build, tmp_path, mutant, f"m{index}.json")[0]
                for index, mutant in enumerate(table_mutants(pool()[name]))]
    assert verdicts.count(1) >= len(verdicts) // 2, verdicts


@settings(max_examples=100)
@given(data=st.data())
def test_the_checkers_agree_on_junk_table_values(build: Path, tmp_path_factory: pytest.TempPathFactory,
                                                 data: st.DataObject) -> None:
    doc = copy.deepcopy(json.loads(TABLE_BYTES))
    place = data.draw(st.sampled_from([("claim", "root_value"), ("claim", "root_margin"), ("claim", "first_moves"),
                                       ("table", "states"), ("table", "labels"), ("table", "margins"),
                                       ("strategies",), ("strategies", 0, "player"), ("strategies", 0, "entries"),
                                       ("strategies", 0, "moves"), ("strategies", 0, "guarantees")]))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.text(max_size=12),
                     st.binary(max_size=40).map(lambda b: base64.b64encode(zlib.compress(b)).decode()),
                     st.lists(st.integers(-2, 20), max_size=3),
                     st.lists(st.fixed_dictionaries({"cell": st.integers(-1, 9), "mark": st.integers(0, 3),
                                                     "value": st.sampled_from(["win", "draw", "loss", "x"])}), max_size=3),
                     st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
    target = doc
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = data.draw(junk)
    agree(build, tmp_path_factory.mktemp("junk"), doc)


def bounded_uttt() -> dict:
    """Standard uttt, player 2 not beaten within 19 plies: 1,403 two-byte count closures (the
    Python search with deep records off, as `bounded_proofs`)."""
    import solver.games.uttt.engine as uttt_engine
    from certify.proving.single import prove
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    nest, uttt_engine.NEST = uttt_engine.NEST, 0
    try:
        attempt = prove(resolve_game("uttt"), Claim(2, "no-loss", within=19), None, max_nodes=300_000, core="python")
    finally:
        uttt_engine.NEST = nest
    assert attempt.outcome.status == "proved" and attempt.text is not None
    return json.loads(attempt.text)


def hostile_corpus() -> dict[str, bytes]:
    """Files built to make the two checkers differ (issue 33): each small, each from a published
    certificate with one hostile change."""
    base = (ROOT / "certificates" / "proofs" / "mnk-3-3-3-misere.p1-no-loss.json").read_text()
    doc = json.loads(base)
    uttt_open = json.loads((ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json").read_text())
    closed = json.loads((ROOT / "certificates" / "proofs" / "closed" / "mnk-4-4-4.p1-no-loss.json").read_text())

    def with_provenance(text: str) -> bytes:
        return base.replace('"provenance": {', f'"provenance": {{"hostile": {text}, ', 1).encode()

    packed = base64.b64decode(uttt_open["proof"]["moves"])
    # a window smaller than the stream's matches reach (zlib allocates its own: read alike), bytes after the end
    small_window = bytes([0x08, (31 - (0x08 * 256) % 31) % 31]) + packed[2:]
    empty_named = {**uttt_open, "claim": {**uttt_open["claim"], "root": "/".join(["........."] * 9) + " 4"}}
    bounded = bounded_uttt()
    counts = counts_of(bounded)
    deep = deep_uttt("uttt:open", 17)
    records = records_of(counts_of(deep))
    index = next(i for i, record in enumerate(records) if record[0] == 254)
    deep_changed = {f"deep-record-{name}": json.dumps(with_records(deep, records[:index] + [mutant] + records[index + 1:])).encode()
                    for name, mutant in zip(("move", "k-more", "k-fewer", "cut", "cut-k", "duplicated", "reordered",
                                             "count", "three-levels"), deep_mutants(records[index]))}
    return {
        **deep_changed,
        "deep-records-nested-three": json.dumps(with_records(deep, records[:index] + [bytes([254, 0, 1, 254, 0, 1]) + records[index]]
                                                             + records[index + 1:])).encode(),
        "bounded-count-off-by-one": json.dumps(with_counts(bounded, bytes([counts[0], (counts[1] + 1) % 256]) + counts[2:])).encode(),
        "bounded-count-move-past-the-moves": json.dumps(with_counts(bounded, bytes([200]) + counts[1:])).encode(),
        "bounded-bound-one-lower": json.dumps({**bounded, "claim": {**bounded["claim"], "within": 18}}).encode(),
        "bounded-bound-huge": json.dumps({**bounded, "claim": {**bounded["claim"], "within": 10**30}}).encode(),
        "bounded-bound-float": json.dumps({**bounded, "claim": {**bounded["claim"], "within": 19.0}}).encode(),
        "bounded-as-a-win": json.dumps({**bounded, "claim": {**bounded["claim"], "result": "win"}}).encode(),
        "bounded-counts-short": json.dumps(with_counts(bounded, counts[:-2])).encode(),
        "huge-float": with_provenance("1e400"),
        "negative-huge-float": with_provenance("-1e400"),
        "brackets-in-strings": with_provenance(json.dumps("[" * 700 + "{" * 700)),
        "500-open-at-once": with_provenance("[" * 498 + "]" * 498),  # with the document and provenance
        "501-open-at-once": with_provenance("[" * 499 + "]" * 499),
        "nested-600": with_provenance("[" * 600 + "]" * 600),
        "many-keys": with_provenance(json.dumps({f"k{i}": i for i in range(121_000)})),
        "duplicate-key": with_provenance('{"a": 1, "a": 2}'),
        "lone-surrogate-name": json.dumps({**doc, "rules": {**doc["rules"], "name": "x\ud800y"}}).encode(),
        "surrogate-pair-name": json.dumps({**doc, "rules": {**doc["rules"], "name": "x\U0001F600y"}}).encode(),
        "small-zlib-window": json.dumps({**uttt_open, "proof": {**uttt_open["proof"],
                                         "moves": base64.b64encode(small_window).decode()}}).encode(),
        "zlib-trailing-bytes": json.dumps({**uttt_open, "proof": {**uttt_open["proof"],
                                           "moves": base64.b64encode(packed + b"\0").decode()}}).encode(),
        "uttt-open-empty-grid-board-named": json.dumps(empty_named).encode(),
        "closure-byte-without-closures": json.dumps(with_moves(doc, moves_of(doc)[:1] + b"\xff" + moves_of(doc)[2:])).encode(),
        # issue 33: a small file of very many closures (800,000: the most the default budget takes on
        # 4x4), each read only when the traversal reaches it
        "800000-closures": json.dumps({**closed, "proof": {
            **closed["proof"], "positions": 800_000, "turns": 800_000, "closures": 800_000, "closure_bytes": 1_600_000,
            "moves": base64.b64encode(zlib.compress(b"\xff" * 800_000)).decode(),
            "pairings": base64.b64encode(zlib.compress(b"\xff\x00" * 800_000)).decode()}}).encode(),
        # over the default budget, its work past OCaml's max_int (66 x 10**18): the same ERROR line
        "positions-10-to-the-18": json.dumps({**doc, "proof": {**doc["proof"], "positions": 10**18}}).encode(),
    }


def potential_corpus() -> dict[str, bytes]:
    """Files the verified checker does not read (NOT READ) where the stdlib checker gives a verdict:
    a potential closure (record 254) of the greatest length, cells + 3 bytes (16 cells: 254, a
    first move, 8, and 8 pairs), which both checkers' `closure_bytes` bound allows."""
    closed = json.loads((ROOT / "certificates" / "proofs" / "closed" / "mnk-4-4-4.p1-no-loss.json").read_text())
    longest = bytes([254, 0, 8, *range(16)])
    assert len(longest) == 16 + 3
    return {"potential-record-of-cells-plus-3-bytes": json.dumps(
        {**closed, "proof": {**closed["proof"], "closure_bytes": len(longest),
                             "pairings": base64.b64encode(zlib.compress(longest)).decode()}}).encode()}


# The options both command lines must read alike (argparse's rules: `=`, prefixes, int()'s blanks
# and underscores, the 1e15 ceiling).
HOSTILE_OPTIONS = [("--max-states", str(10**16)), ("--max-states", " 1000 "), ("--max-states", "1_000_000"),
                   ("--max-st", "5"), ("--max-states=5",), ("--max", "5"), ("--max-work", "0x10"),
                   ("--max-bytes", "-1"), ("--rules-sha256", "zz" * 8)]


HOSTILE_MEMORY_KB = 1024 * 1024  # issue 33: every hostile file answered within 1 GB (and 30 s) at the default budget


# Runs the command as its own child and writes that child's peak RSS (KB) and exit code to the file
# argv[2]. A child of the test process itself would not do: Python starts it by vfork, and Linux
# carries the parent's peak into the child's at exec, so a worker that once held a large table made
# a 4 ms check report 2 GB. This launcher is small, so its child's peak is the checker's own.
LAUNCHER = """import resource, subprocess, sys
try:
    code = subprocess.run(sys.argv[3:], timeout=float(sys.argv[1])).returncode
except subprocess.TimeoutExpired:
    code = None
with open(sys.argv[2], "w") as report:
    report.write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} {code}")
"""


def measured(command: list[str], cwd: Path | None = None, timeout: int = 30) -> tuple[int, str]:
    """Run `command`; its exit code and output (stdout, then stderr). Fails the test past `timeout`
    seconds or past HOSTILE_MEMORY_KB of peak resident memory (the command's own, see LAUNCHER)."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report"
        subprocess.run([sys.executable, "-S", "-c", LAUNCHER, str(timeout), str(report), *command],
                       stdout=out, stderr=err, cwd=cwd, check=True)
        peak, code = report.read_text().split()
        assert code != "None", f"{command}: over {timeout} s"
        assert int(peak) <= HOSTILE_MEMORY_KB, f"{command}: {peak} KB peak"
        out.seek(0)
        err.seek(0)
        return int(code), (out.read() + err.read()).decode("utf-8", "replace").strip()


def both(build: Path, path: Path, *options: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """Both checkers' exit codes and lines, each from its own command line, each within 30 s and
    1 GB of peak resident memory."""
    code, line = measured([str(build / "check"), str(path), *options])
    assert len(line.splitlines()) == 1, line
    stdlib = measured([sys.executable, "-m", "checker", str(path), *options], cwd=ROOT)
    return (code, line.removesuffix(SUFFIX.get(line.split()[1] if code in (0, 1) else "", ""))), stdlib


def test_both_checkers_behave_as_one_on_a_hostile_corpus(build: Path, tmp_path: Path) -> None:
    """Same exit code on every file and every option, the same line for VALID and INVALID, and for
    an ERROR over the work budget (numbers grouped alike)."""
    for name, data in hostile_corpus().items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        verified, stdlib = both(build, path)
        assert verified[0] == stdlib[0], (name, verified, stdlib)
        if verified[0] in (0, 1) or "over the work budget" in stdlib[1]:
            assert verified[1] == stdlib[1], name
    for name, data in potential_corpus().items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        verified, stdlib = both(build, path)
        assert verified[0] == 3 and verified[1].startswith("NOT READ: potential closures"), (name, verified)
        assert stdlib[0] in (0, 1), (name, stdlib)
    big = tmp_path / "over-16-mib.json"
    big.write_bytes(hostile_corpus()["huge-float"].replace(b"1e400", b"1" + b" " * (16 * 1024 * 1024)))
    verified, stdlib = both(build, big)
    assert verified[0] == stdlib[0] == 2 and verified[1] == stdlib[1], (verified, stdlib)  # over --max-bytes
    for options in HOSTILE_OPTIONS:
        verified, stdlib = both(build, ROOT / "certificates" / "w3t.json", *options)
        assert verified[0] == stdlib[0], (options, verified, stdlib)
    # over the budget: the same ERROR line from both (a proof, a table, a large proof at the default budget)
    for path, options in [("proofs/mnk-3-3-3-misere.p1-no-loss.json", ("--max-states", "3")),
                          ("w3t.json", ("--max-work", "10")), ("proofs/mnk-4-9-4.p1-win.json", ())]:
        verified, stdlib = both(build, ROOT / "certificates" / path, *options)
        assert verified[0] == stdlib[0] == 2 and "over the work budget" in verified[1], (path, verified, stdlib)
        assert verified[1] == stdlib[1], (path, verified, stdlib)


def test_certify_check_runs_both_checkers(build: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`certify check FILE --verified`: both lines and the worse exit code; one line when it is not built."""
    from typer.testing import CliRunner

    from certify.cli.app import app

    path = ROOT / "certificates" / "proofs" / "mnk-3-3-3-misere.p1-no-loss.json"
    monkeypatch.setenv("CERTIFY_VERIFIED_CHECK", str(build / "check"))
    done = CliRunner().invoke(app, ["check", str(path), "--verified"])
    assert done.exit_code == 0 and "verified checker: VALID" in done.output and SUFFIX["strategy"] in done.output
    closed = ROOT / "certificates" / "proofs" / "closed" / "mnk-4-4-4.p1-no-loss.json"
    done = CliRunner().invoke(app, ["check", str(closed), "--verified"])
    assert done.exit_code == 0 and "verified checker: VALID" in done.output
    monkeypatch.setenv("CERTIFY_VERIFIED_CHECK", str(build / "missing"))
    done = CliRunner().invoke(app, ["check", str(path), "--verified"])
    assert done.exit_code == 0 and "the verified checker is not built" in done.output


def test_potential_closures_are_not_read_rather_than_judged(build: Path, tmp_path: Path) -> None:
    path = tmp_path / "p2.json"  # mnk:6,6,5 player 2 with --potential: every closure is a potential record (254)
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:6,6,5", "--claim", "no-loss", "--player", "2",
                           "--pairings", "--potential", "--max-nodes", "100000", "-o", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    code, line = run(build, path)
    assert code == 3 and line.startswith("NOT READ: potential closures (record 254"), line


# Proofs naming positions as symmetric images (Images.v) and listing only blocks (Blocks.v), as
# `certify prove --images/--blocks` writes them: tictactoe, 4x4 boards, 4x5 with pairings, misère.
SYMMETRIC = [("tictactoe", 2, "no-loss", {"images": True, "blocks": True}),
             ("mnk:4,4,3", 1, "win", {"blocks": True}),
             ("mnk:4,4,3", 1, "win", {"images": True, "blocks": True}),
             ("mnk:4,4,4", 2, "no-loss", {"images": True}),
             ("mnk:4,5,4", 2, "no-loss", {"images": True, "pairings": True}),
             ("misere", 1, "no-loss", {"images": True})]


def symmetric_document(game_text: str, player: int, result: str, search: dict, within: int | None = None) -> dict:
    attempt = prove(resolve_game(game_text), Claim(player, result, within), **search)
    assert attempt.text is not None
    return json.loads(attempt.text)


def symmetric_mutants(doc: dict, game_text: str) -> list[dict]:
    """The plain mutants, moves changed, and changed images, symmetries and replies."""
    changed = mutants(doc, game_text, replace=False)
    proof, moves = doc["proof"], moves_of(doc)
    for at in range(0, len(moves), max(1, len(moves) // 8)):  # another move, or 253 (an image) for a move
        for byte in ((moves[at] + 1) % 256, 253):
            changed.append(with_moves(doc, moves[:at] + bytes([byte]) + moves[at + 1:]))
    if "images" in proof:
        images = bytearray(zlib.decompress(base64.b64decode(proof["images"])))
        for at in range(0, len(images), max(1, len(images) // 12)):  # another symmetry: another image, seen or not
            edited = bytearray(images)
            edited[at] = (edited[at] + 1 + at % 5) % len(proof["symmetries"])
            changed.append({**doc, "proof": {**proof, "images": base64.b64encode(zlib.compress(bytes(edited))).decode()}})
        swapped = copy.deepcopy(doc)  # not a symmetry: two cells swapped
        first = swapped["proof"]["symmetries"][0]
        first[0], first[1] = first[1], first[0]
        changed.append(swapped)
        changed.append({**doc, "proof": {key: value for key, value in proof.items()
                                         if key not in ("symmetries", "images", "image_count")}})
    if proof.get("replies") == "blocks":
        changed.append({**doc, "proof": {key: value for key, value in proof.items() if key != "replies"}})
    else:
        changed.append({**doc, "proof": {**proof, "replies": "blocks"}})
    return changed


@pytest.mark.parametrize("case", SYMMETRIC, ids=lambda c: f"{c[0]}-p{c[1]}-{'-'.join(c[3])}")
def test_images_and_blocks_are_read_and_their_mutants_judged_alike(build: Path, tmp_path: Path, case: tuple) -> None:
    """Both checkers give the same line (VALID) on the proof and on each mutant; most mutants are refused."""
    doc = symmetric_document(*case)
    code, line = agree(build, tmp_path, doc)
    assert code == 0 and line.endswith(SUFFIX["strategy"]), line
    if case[3].get("images"):
        assert "positions as symmetric images of others" in line
    if case[3].get("blocks"):
        assert "only blocks listed" in line
    verdicts = [agree(build, tmp_path, mutant, f"m{index}.json")[0]
                for index, mutant in enumerate(symmetric_mutants(doc, case[0]))]
    assert verdicts.count(0) <= len(verdicts) // 3, verdicts  # another image may also be seen; a mutant may be true


@pytest.mark.parametrize("game_text,player,result", [("w3t", 1, "win"), ("notakto", 1, "win"), ("cumulative", 1, "no-loss")])
def test_images_past_own_marks_and_first_line_goals_are_not_read_rather_than_judged(build: Path, tmp_path: Path, game_text: str,
                                                                                     player: int, result: str) -> None:
    """Images.v proves images under own marks and a first-line goal; either or x-only marks, or
    most-lines, are NOT READ, not refused."""
    path = tmp_path / "images.json"
    path.write_text(json.dumps(symmetric_document(game_text, player, result, {"images": True})))
    assert checker.check_file(str(path)).exit_code == 0
    code, line = run(build, path)
    assert code == 3 and line.startswith("NOT READ: images in games of marks"), line


def test_bounded_proofs_with_images_or_blocks_are_not_read_rather_than_judged(build: Path, tmp_path: Path) -> None:
    """A bound: Bounded.v's check has no images and lists every reply."""
    doc = symmetric_document("mnk:4,4,3", 1, "win", {"images": True, "blocks": True}, within=9)
    path = tmp_path / "bounded.json"
    path.write_text(json.dumps(doc))
    assert checker.check_file(str(path)).exit_code == 0
    code, line = run(build, path)
    assert code == 3 and line.startswith("NOT READ: bounded proofs with images or listing only blocks"), line


# The honest set of a proof with images and blocks passes Strategy.closed; it is refused without
# its images, with a permutation that is not a symmetry in place of every symmetry, and with each
# image's symmetry changed. The
# traversal would refuse most of these files first: only a program of its own shows the proved
# check refusing by itself.
SYMMETRIC_PROBE = READ_POSITIONAL_PROOF + """
  let limits = { Load.max_states = max_int; max_work = max_int; max_bytes = max_int; sha = None } in
  let symmetries = Proof.images_of f proof turns limits and blocks = Proof.blocks_of f proof positions limits in
  let aliases = Hashtbl.create 64 and root = f.Proof.initial () in
  let seen = Proof.traverse ~closing:(Hashtbl.create 1) ~symmetries ~aliases ~blocks f player no_loss root positions turns moves in
  let named = Proof.resolve f (fst symmetries) seen aliases in
  let perms = fst symmetries in
  let verdict ?(perms = perms) ?(named = named) () = seen.Proof.closed (Some (fun _ -> None)) perms named prover no_loss root in
  let flag b = print_string (if b then "1" else "0") in
  flag (verdict ());
  flag (verdict ~named:(Hashtbl.create 1) ());
  let swap p = let q = Array.copy p in let t = q.(0) in q.(0) <- q.(1); q.(1) <- t; q in
  flag (verdict ~perms:(Array.map swap perms) ());
  let shifted = Hashtbl.create 64 in
  Hashtbl.iter (fun n j -> Hashtbl.replace shifted n ((j + 1) mod Array.length perms)) named;
  flag (verdict ~named:shifted ())
"""


def test_the_proved_check_refuses_wrong_images_and_blocks_by_itself(build: Path) -> None:
    probe = driver_probe(build, "symmetric_probe", SYMMETRIC_PROBE)
    path = build / "symmetric.json"
    path.write_text(json.dumps(symmetric_document("mnk:4,4,3", 1, "win", {"images": True, "blocks": True})))
    done = subprocess.run([str(probe), str(path)], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "1000"), done.stdout + done.stderr
