"""The proof-search checkpoint: a df-pn table saved to a file, so a stopped search resumes from it.

Layout: one line of JSON, the header (format, version, what the search is about, nodes spent,
entries, the table's raw size), then the table as zlib-compressed JSON: three lists, the keys,
the proof numbers and the disproof numbers. A key is what the game's table key gives: an int, bytes
(written as hex) or a tuple of ints (a NamedTuple such as a uttt Position, rebuilt as the type of
the root's key). Reading is bounded: the header line is at most HEADER_BYTES, and no more than the
raw size the header states (itself at most MAX_RAW_BYTES) is ever decompressed.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any

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


def save_checkpoint(path: Path, about: dict[str, Any], table: dict[Hashable, tuple[int, int]], nodes: int) -> None:
    """Write the table atomically (an interrupted save leaves the previous checkpoint whole)."""
    keys, pns, dns = [], [], []
    for key, (pn, dn) in table.items():
        keys.append(encode_key(key))
        pns.append(pn)
        dns.append(dn)
    raw = json.dumps({"keys": keys, "pn": pns, "dn": dns}, separators=(",", ":")).encode()
    header = {"format": FORMAT, "version": VERSION, "about": about, "nodes": nodes, "entries": len(keys), "raw_bytes": len(raw)}
    write_atomic(path, json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(raw, 1))


def load_checkpoint(path: Path, about: dict[str, Any], sample: Hashable) -> tuple[dict[Hashable, tuple[int, int]], int]:
    """The table and node count saved in `path`; CheckpointError unless it is a checkpoint of
    this format and version about the same search (`about`: rules, claim, position, hooks)."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline(HEADER_BYTES)
            body = handle.read()
    except OSError as err:
        raise CheckpointError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        header = json.loads(head)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError
    except ValueError:
        raise CheckpointError(f"{path}: not a certify checkpoint (written by `certify prove --checkpoint`)") from None
    if header.get("version") != VERSION:
        raise CheckpointError(f"{path}: checkpoint version {ascii(header.get('version'))[:20]}; this certify reads version {VERSION}")
    if header.get("about") != about:
        raise CheckpointError(f"{path}: a checkpoint of another search ({describe(header.get('about'))}), not of this one ({describe(about)})")
    size = header.get("raw_bytes")
    if type(size) is not int or not 0 < size <= MAX_RAW_BYTES:
        raise CheckpointError(f"{path}: checkpoint header states a table of {ascii(size)[:20]} bytes")
    try:
        raw = zlib.decompressobj().decompress(body, size + 1)
        if len(raw) != size:
            raise ValueError(f"{len(raw):,} bytes where the header states {size:,}")
        data = json.loads(raw)
        table = {decode_key(k, sample): (int(pn), int(dn)) for k, pn, dn in zip(data["keys"], data["pn"], data["dn"], strict=True)}
        nodes = int(header["nodes"])
    except (zlib.error, ValueError, TypeError, KeyError) as err:
        raise CheckpointError(f"{path}: checkpoint table damaged: {err}") from None
    if len(table) != header.get("entries"):
        raise CheckpointError(f"{path}: checkpoint table damaged: {len(table):,} entries where the header states {header.get('entries')}")
    return table, nodes


def describe(about: Any) -> str:
    """`player 1 win in mnk:4,4,3 from the start`: what a checkpoint's search was about."""
    if not isinstance(about, dict):
        return "unknown"
    where = "the start" if about.get("position") is None else f"position {about.get('position')}"
    plain = ", --plain" if about.get("plain") else ""
    return f"player {about.get('player')} {about.get('result')} in {about.get('game')} from {where}{plain}"
