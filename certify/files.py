"""Safe file output and careful file input: one-line errors, atomic writes, nothing lost (docs/cli.md).

Writes go to a temporary file in the target's folder, then a rename: a reader never sees a
half-written file, and an interrupted or failed write (Ctrl-C, SIGTERM, a full disk) leaves the old
file as it was and no temporary file behind. An existing file keeps its mode, and a symlink keeps
pointing where it did (its target is replaced). A missing folder is an error, never created silently.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

STDOUT = Path("-")
HEAD_BYTES = 65536
CERTIFICATE_MARK = re.compile(rb'"format"\s*:\s*"certify-certificate"')
AUDIT_MARK = re.compile(rb"^# Audit of source ")
CHECKPOINT_MARK = re.compile(rb'^\{[^\n]*"format": "certify-checkpoint"')  # a `certify prove --checkpoint` file
PAGE_MARK = re.compile(rb'id="certify-data"')  # a `certify explore` page (its data block comes early)
PAGE_IDENTITY = re.compile(rb'<meta name="certify-page" content="([^"]*)">')  # what the page shows (certify/explorer)


def certificate_mark(kind: str, rules_sha256: str) -> re.Pattern[bytes]:
    """Recognises a certificate of this kind about this game (the keys are sorted: kind comes before
    rules_sha256 near the top): only such a file is replaced without --force (issue 19)."""
    fields = [rb'"format"\s*:\s*"certify-certificate"', rb'"kind"\s*:\s*"' + re.escape(kind.encode()) + rb'"',
              rb'"rules_sha256"\s*:\s*"' + re.escape(rules_sha256.encode()) + rb'"']
    return re.compile(rb"\A" + b"".join(rb"(?=[\s\S]*" + field + b")" for field in fields))


class FileProblem(ValueError):
    """A file that cannot be read or written as asked; the message is one line naming the file."""


def file_stem(name: str) -> str:
    """A game's name made file-safe, the stem of every default output name: `mnk:4,4,3` → `mnk-4-4-3`."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "game"


def proof_stem(game_name: str, player: int, result: str, within: int | None = None) -> str:
    """`mnk-4-4-3.p1-win`, `uttt-open.p1-win-within-41`: the stem of a proof's default file name."""
    bound = "" if within is None else f"-within-{within}"
    return f"{file_stem(game_name)}.p{player}-{result}{bound}"


def is_stdout(path: Path | str | None) -> bool:
    """Whether an output path is `-`, meaning standard output."""
    return path is not None and str(path) == "-"


def readable_file(path: Path | str, what: str = "file") -> Path:
    """`path` if it is a non-empty regular file; else FileProblem with the same words everywhere."""
    path = Path(path)
    if path.is_dir():
        raise FileProblem(f"{path}: is a directory, not a {what}")
    if not path.exists():
        raise FileProblem(f"{path}: no such file")
    if not path.is_file():  # a FIFO or a device would block a reader or never end
        raise FileProblem(f"{path}: is not a regular file")
    try:
        size = path.stat().st_size
    except OSError as err:
        raise FileProblem(f"{path}: cannot read: {err.strerror or err}") from None
    if size == 0:
        raise FileProblem(f"{path}: is empty")
    if not os.access(path, os.R_OK):
        raise FileProblem(f"{path}: cannot read: permission denied")
    return path


def read_text(path: Path | str, what: str = "file") -> str:
    """The text of a non-empty regular UTF-8 file; else FileProblem in the words every reader uses."""
    path = readable_file(path, what)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise FileProblem(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FileProblem(f"{path}: not UTF-8 text (bad byte at offset {err.start})") from None


def parse_json(path: Path | str, text: str | bytes) -> object:
    """`text` (read from `path`) as JSON; else FileProblem: `FILE: not valid JSON: why` (a truncated file)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise FileProblem(f"{path}: not valid JSON: nested too deeply") from None
    except ValueError as err:
        raise FileProblem(f"{path}: not valid JSON: {err}") from None


def read_json(path: Path | str, what: str = "file") -> object:
    """The JSON document in a non-empty regular UTF-8 file; else FileProblem in the same words everywhere."""
    return parse_json(path, read_text(path, what))


def certificate_kind(argument: str | Path) -> str | None:
    """The kind (`table`, `strategy`, `pairing`) of the certify certificate that `argument` names, or
    None when it names no such file (a GAME, or a file the spec reader will name the problem of)."""
    path = Path(argument)
    if path.suffix != ".json" or not path.is_file():
        return None
    try:
        document = read_json(path)
    except FileProblem:
        return None
    if not isinstance(document, dict) or document.get("format") != "certify-certificate":
        return None
    return str(document.get("kind") or "table")


def existing_folder(path: Path | str, option: str, purpose: str = "", writing: bool = False) -> Path:
    """`path` if it is a folder; else FileProblem naming the option: `--claims x: no such folder`,
    `--claims x: is not a folder`, and for a folder written to, as every write says it,
    `--out-dir x: cannot write: no such folder` (`purpose`, if given, follows in parentheses)."""
    path = Path(path)
    said = f"{option} {path}: {'cannot write: ' if writing else ''}"
    why = f" ({purpose})" if purpose else ""
    if not path.exists():
        raise FileProblem(f"{said}no such folder{why}")
    if not path.is_dir():
        raise FileProblem(f"{said}is not a folder{why}")
    return path


def target_of(path: Path) -> Path:
    """The file a write to `path` replaces: a symlink's final target, else `path` itself."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_output(path: Path, mark: re.Pattern[bytes] | None = None, force: bool = False) -> None:
    """Refuse, before any work, a write that would fail or clobber a file that is not ours.

    `mark` recognises a certify output of this kind (its first and last 64 KB); an existing file without it
    is replaced only with `force`. Raises FileProblem with one line.
    """
    if is_stdout(path):
        return
    target = target_of(Path(path))
    folder = target.parent
    if target.is_dir():
        raise FileProblem(f"{path}: cannot write: is a directory")
    if not folder.is_dir():
        raise FileProblem(f"{path}: cannot write: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(f"{path}: cannot write: folder {folder} is not writable")
    if target.exists() and not force and mark is not None:
        try:
            with open(target, "rb") as handle:  # its first and last 64 KB: a large proof's hash comes late
                head = handle.read(HEAD_BYTES)
                if len(head) == HEAD_BYTES:
                    handle.seek(max(HEAD_BYTES, os.fstat(handle.fileno()).st_size - HEAD_BYTES))
                    head += b"\n" + handle.read(HEAD_BYTES)
        except OSError as err:
            raise FileProblem(f"{path}: cannot write: {err.strerror or err}") from None
        if not mark.search(head):
            raise FileProblem(f"{path}: exists and is not a certify output of this kind; use --force to overwrite it")


PROOF_ROOT = re.compile(rb'"claim"\s*:\s*\{[^{}]*?"root"\s*:\s*(null|"(?:[^"\\]|\\.)*")')  # a strategy certificate's start


def check_proof_output(path: Path, rules_sha256: str, root: str | None, force: bool = False) -> None:
    """check_output for a strategy certificate about this game from `root` (None: the start): a table,
    another file, or a proof from another position is replaced only with `force` (issue 32)."""
    check_output(path, certificate_mark("strategy", rules_sha256), force)
    if force or is_stdout(path):
        return
    try:
        with open(target_of(Path(path)), "rb") as handle:
            found = PROOF_ROOT.search(handle.read(HEAD_BYTES))
    except OSError:
        return  # no file yet (check_output named any other problem)
    theirs = None if found is None else json.loads(found.group(1))
    if found is not None and theirs != root:
        said = ["the start" if at is None else at for at in (theirs, root)]
        raise FileProblem(f"{path}: exists and is the proof from {said[0]}, not from {said[1]}; give -o FILE or --force to replace it")


def write_atomic(path: Path, text: str | bytes | Callable[[BinaryIO], None], mark: re.Pattern[bytes] | None = None,
                 force: bool = True) -> None:
    """Write `text` (UTF-8; or what a function writes into the open file) to `path` atomically, or
    to stdout when `path` is `-`.

    With `mark` and not `force`, an existing file must be a certify output of the same kind.
    Raises FileProblem (one line) when the file cannot be written.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    if is_stdout(path):
        if callable(data):
            data(sys.stdout.buffer)
        else:
            sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    path = Path(path)
    check_output(path, mark, force)
    target = target_of(path)
    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise FileProblem(f"{path}: cannot write: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if callable(data):
                data(handle)
            else:
                handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise FileProblem(f"{path}: cannot write: {err.strerror or err}") from None
    except BaseException:  # Ctrl-C, SIGTERM (the CLI turns it into SystemExit): leave nothing behind
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
