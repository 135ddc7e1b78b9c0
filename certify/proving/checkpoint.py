"""The proof-search checkpoint: a df-pn table saved to a file, so a stopped search resumes from it.

Layout: one line of JSON, the header (format, version, what the search is about, nodes spent,
entries), then the table. The Python search's table (solver/search/pns.py) is zlib-compressed
JSON: three lists, the keys, the proof numbers and the disproof numbers. A key is what the game's
table key gives: an int, bytes (written as hex) or a tuple of ints (a NamedTuple such as a uttt
Position, rebuilt as the type of the root's key); the header states the raw size. The compiled
search's table (solver/search/native.py; header `"table": "native"`, and `core` in what the search
is about, so neither search reads the other's) is its used entries, raw, with their checksum in the
header. Reading is bounded: the header line is at most HEADER_BYTES, no more than the raw size the
header states (itself at most MAX_RAW_BYTES) is ever decompressed, and a raw table must hold
exactly the entries stated.
"""

from __future__ import annotations

import json
import pickle
import zlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any, BinaryIO

from certify.files import write_atomic

FORMAT = "certify-checkpoint"
VERSION = 1
HEADER_BYTES = 4096
MAX_RAW_BYTES = 8 << 30  # 8 GiB of table text: far past what fits the machine's memory as a dict


class CheckpointError(ValueError):
    """A checkpoint that cannot be used for this search; the message is one line naming the file."""


def encode_key(key: Hashable) -> Any:
    """A table key as JSON: an int as itself, bytes as hex, a tuple of ints as a list."""
    if isinstance(key, bytes):
        return key.hex()
    if isinstance(key, tuple):
        return list(key)
    return key


def decode_key(value: Any, sample: Hashable) -> Hashable:
    """Inverse of encode_key, for keys of the same type as `sample` (the root's key)."""
    if isinstance(sample, bytes):
        return bytes.fromhex(value)
    if isinstance(sample, tuple):
        return type(sample)(*value) if hasattr(sample, "_fields") else tuple(value)
    return int(value)


def save_checkpoint(path: Path, about: dict[str, Any], search: Any) -> None:
    """Write the search's table atomically (an interrupted save leaves the previous checkpoint whole)."""
    header = {"format": FORMAT, "version": VERSION, "about": about, "nodes": search.nodes}
    if hasattr(search, "dump_table"):  # the compiled search: its entries, raw
        header.update(table="native", entries=search.entries, checksum=search.table_checksum())

        def write(handle: BinaryIO) -> None:
            handle.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            handle.flush()
            search.dump_table(handle.fileno())

        write_atomic(path, write)
        return
    keys, pns, dns = [], [], []
    for key, (pn, dn) in search.table.items():
        keys.append(encode_key(key))
        pns.append(pn)
        dns.append(dn)
    raw = json.dumps({"keys": keys, "pn": pns, "dn": dns}, separators=(",", ":")).encode()
    header.update(entries=len(keys), raw_bytes=len(raw))
    write_atomic(path, json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(raw, 1))


def load_checkpoint(path: Path, about: dict[str, Any], search: Any, sample: Hashable) -> None:
    """Give `search` the table and node count saved in `path` (`sample`: the root's table key);
    CheckpointError unless it is a checkpoint of this format and version about the same search
    (`about`: rules, claim, position, hooks, core)."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline(HEADER_BYTES)
            body = b"" if hasattr(search, "load_table") else handle.read()
    except OSError as err:
        raise CheckpointError(f"{path}: cannot read: {err.strerror or err}") from None
    header = checked_header(path, head, about, driver=False)
    nodes, entries = header.get("nodes"), header.get("entries")
    if type(nodes) is not int or type(entries) is not int or nodes < 0 or entries < 0:
        raise CheckpointError(f"{path}: checkpoint header states {ascii(nodes)[:20]} nodes and {ascii(entries)[:20]} entries")
    if hasattr(search, "load_table"):
        checksum = header.get("checksum")
        if header.get("table") != "native" or type(checksum) is not int or not 0 <= checksum < 2**64:
            raise CheckpointError(f"{path}: checkpoint header states no compiled table")
        try:
            search.load_table(path, len(head), entries, nodes, checksum)
        except (OSError, ValueError) as err:
            raise CheckpointError(f"{path}: checkpoint table damaged: {err}") from None
        return
    size = header.get("raw_bytes")
    if type(size) is not int or not 0 < size <= MAX_RAW_BYTES:
        raise CheckpointError(f"{path}: checkpoint header states a table of {ascii(size)[:20]} bytes")
    try:
        raw = zlib.decompressobj().decompress(body, size + 1)
        if len(raw) != size:
            raise ValueError(f"{len(raw):,} bytes where the header states {size:,}")
        data = json.loads(raw)
        table = {decode_key(k, sample): (int(pn), int(dn)) for k, pn, dn in zip(data["keys"], data["pn"], data["dn"], strict=True)}
    except (zlib.error, ValueError, TypeError, KeyError) as err:
        raise CheckpointError(f"{path}: checkpoint table damaged: {err}") from None
    if len(table) != entries:
        raise CheckpointError(f"{path}: checkpoint table damaged: {len(table):,} entries where the header states {entries}")
    search.table, search.nodes = table, nodes


def checked_header(path: Path, head: bytes, about: dict[str, Any], driver: bool) -> dict[str, Any]:
    """The header line `head` of `path`; CheckpointError unless it is a checkpoint of this format and
    version, of the parallel driver or of a serial search as `driver` says, about the same search."""
    try:
        header = json.loads(head)
        if not isinstance(header, dict) or header.get("format") != FORMAT or (header.get("table") == "driver") != driver:
            raise ValueError
    except ValueError:
        written = "certify prove --workers N --checkpoint" if driver else "certify prove --checkpoint"
        raise CheckpointError(f"{path}: not a {'parallel-search' if driver else 'certify'} checkpoint (written by `{written}`)") from None
    if header.get("version") != VERSION:
        raise CheckpointError(f"{path}: checkpoint version {ascii(header.get('version'))[:20]}; this certify reads version {VERSION}")
    saved = header.get("about")
    for field in ("closure", "keys"):  # the same search by a certify that closed or keyed positions otherwise
        if isinstance(saved, dict) and saved != about and {**saved, field: None} == {**about, field: None}:
            raise CheckpointError(f"{path}: a checkpoint of this search under {field} {ascii(saved.get(field))[:40]}, "
                                  f"not this certify's {ascii(about.get(field))[:40]}: start it afresh")
    if saved != about:
        raise CheckpointError(f"{path}: a checkpoint of another search ({describe(header.get('about'))}), not of this one ({describe(about)})")
    return header


def describe(about: Any) -> str:
    """`player 1 win in mnk:4,4,3 from the start`: what a checkpoint's search was about."""
    if not isinstance(about, dict):
        return "unknown"
    where = "the start" if about.get("position") is None else f"position {about.get('position')}"
    plain = ", --plain" if about.get("plain") else ""
    return f"player {about.get('player')} {about.get('result')} in {about.get('game')} from {where}{plain}"


def save_driver_checkpoint(path: Path, about: dict[str, Any], state: dict[str, Any]) -> None:
    """Write the parallel driver's state (solver/search/parallel.py `Driver.state`) atomically: the
    header line (`"table": "driver"`), then the state pickled and zlib-compressed.

    Pickle runs code when read: a driver checkpoint is for resuming your own search, never a file
    to take from someone else (unlike a certificate)."""
    header = {"format": FORMAT, "version": VERSION, "about": about, "table": "driver",
              "nodes": state["stats"].worker_nodes, "entries": len(state["known"])}
    body = zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 1)
    write_atomic(path, json.dumps(header, sort_keys=True).encode() + b"\n" + body)


def load_driver_checkpoint(path: Path, about: dict[str, Any]) -> dict[str, Any]:
    """The driver state saved in `path`; CheckpointError unless it is a driver checkpoint of this
    format and version about the same search."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline(HEADER_BYTES)
            body = handle.read()
    except OSError as err:
        raise CheckpointError(f"{path}: cannot read: {err.strerror or err}") from None
    checked_header(path, head, about, driver=True)
    try:
        state = pickle.loads(zlib.decompress(body))
        if not isinstance(state, dict) or not {"root", "known", "proofs", "stats", "budget", "log", "origin"} <= state.keys():
            raise ValueError("not a driver state")
    except (zlib.error, pickle.UnpicklingError, ValueError, EOFError, AttributeError, ImportError, TypeError) as err:
        raise CheckpointError(f"{path}: checkpoint damaged: {err}") from None
    return state
