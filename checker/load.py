"""Reading a certificate: size-limited, strict JSON parsing, shape validation, array unpacking.

Everything that makes a document "not a certificate" (unreadable, too big, not UTF-8, not JSON,
wrong shape or types, bad base64/zlib, wrong array lengths, unknown format or version) raises
NotACertificate here. Whether the contents are *true* is verify.py's business.
"""

import base64
import binascii
import json
import math
import os
import sys
import zlib
from array import array
from dataclasses import dataclass

DEFAULT_MAX_BYTES = 512 * 1024 * 1024
MAX_INT_DIGITS = 20
FORMAT = "certify-certificate"
VERSIONS = (1,)
RULES_KEYS = ("cols", "goal", "lines", "marks", "name", "rows")
MAX_STATES = 3**16  # a 4×4 board has at most 3**16 states


class NotACertificate(Exception):
    """The input is not a certificate this checker can read; the message says why."""


class Invalid(Exception):
    """The certificate states something false; the message names the first failure found."""


@dataclass(frozen=True)
class Rules:
    """The `rules` object, with its raw parsed form kept for hashing."""

    raw: dict
    name: str
    rows: int
    cols: int
    lines: list[list[int]]
    marks: str
    goal: str


@dataclass(frozen=True)
class Claim:
    """The `claim` object; first_moves holds (cell, mark, value word) triples in file order."""

    root_value: str
    root_margin: int | None
    first_moves: list[tuple[int, int, str]]


@dataclass(frozen=True)
class Table:
    """The unpacked label table: parallel arrays of `states` elements."""

    states: int
    codes: array
    values: array
    distances: array
    margins: array | None


@dataclass(frozen=True)
class Strategy:
    """One unpacked strategy: in state codes[i] the player plays marks[i] on cells[i]."""

    player: int
    guarantees: str
    entries: int
    codes: array
    cells: array
    marks: array


@dataclass(frozen=True)
class Certificate:
    """Every field the checker reads (provenance is only required to be an object)."""

    rules: Rules
    rules_sha256: str
    claim: Claim
    table: Table
    strategies: list[Strategy]


def read_bytes(path: str, max_bytes: int) -> bytes:
    """The file's bytes, refusing anything larger than max_bytes."""
    try:
        size = os.stat(path).st_size
        if size > max_bytes:
            raise NotACertificate(f"{path} has {size} bytes, more than the limit {max_bytes} (--max-bytes)")
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as err:
        raise NotACertificate(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > max_bytes:
        raise NotACertificate(f"{path} is larger than the limit {max_bytes} bytes (--max-bytes)")
    return data


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise NotACertificate(f"duplicate JSON key {ascii(duplicate)[:60]}")
    return result


def _reject_constant(name: str) -> object:
    raise NotACertificate(f"JSON constant {name} is not allowed")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise NotACertificate(f"JSON integer with more than {MAX_INT_DIGITS} digits")
    return int(text)


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotACertificate(f"JSON number {text[:40]} is not finite")
    return number


def parse_json(data: bytes) -> object:
    """Strict JSON: UTF-8, no duplicate keys, no NaN/Infinity, bounded integers and nesting."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise NotACertificate(f"not UTF-8 (bad byte at offset {err.start})") from None
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_constant=_reject_constant,
            parse_int=_bounded_int,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as err:
        raise NotACertificate(f"not JSON: {err}") from None
    except RecursionError:
        raise NotACertificate("JSON nested too deeply") from None


def _type_name(value: object) -> str:
    return {dict: "object", list: "array", str: "string", int: "integer", bool: "boolean",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def field(obj: dict, key: str, kind: type, where: str, nullable: bool = False) -> object:
    """obj[key], which must exist and have exactly type `kind` (bool is not int), or null if allowed."""
    if key not in obj:
        raise NotACertificate(f"{where}.{key} is missing")
    value = obj[key]
    if value is None and nullable:
        return None
    if type(value) is not kind:
        wanted = _type_name(kind()) + (" or null" if nullable else "")
        raise NotACertificate(f"{where}.{key} must be {wanted}, found {_type_name(value)}")
    return value


def count_field(obj: dict, key: str, where: str, limit: int) -> int:
    """A non-negative integer count no larger than limit."""
    value = field(obj, key, int, where)
    if not 0 <= value <= limit:
        raise NotACertificate(f"{where}.{key} = {value} is outside 0..{limit}")
    return value


def _uint32_code() -> str:
    return next(code for code in "IL" if array(code).itemsize == 4)


def unpack(obj: dict, key: str, where: str, kind: str, count: int) -> array:
    """Decode base64 → zlib (output capped at the expected size) → little-endian array of count items."""
    text = field(obj, key, str, where)
    typecode = {"uint32": _uint32_code(), "uint8": "B", "int8": "b"}[kind]
    expected = count * array(typecode).itemsize
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        raise NotACertificate(f"{where}.{key} is not valid base64") from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, expected + 1)  # max_length 0 would mean unlimited
    except zlib.error as err:
        raise NotACertificate(f"{where}.{key} is not valid zlib data ({err})") from None
    if len(raw) > expected or inflater.unconsumed_tail:
        raise NotACertificate(f"{where}.{key} holds more than {count} {kind} elements")
    if not inflater.eof or inflater.unused_data:
        raise NotACertificate(f"{where}.{key} is a truncated or over-long zlib stream")
    if len(raw) != expected:
        raise NotACertificate(f"{where}.{key} holds {len(raw)} bytes, expected {count} {kind} elements")
    result = array(typecode, raw)
    if sys.byteorder == "big":
        result.byteswap()
    return result


def load_rules(obj: dict) -> Rules:
    """The rules object: exactly the six keys, with the right JSON types."""
    rules = field(obj, "rules", dict, "certificate")
    if sorted(rules) != list(RULES_KEYS):
        raise NotACertificate(f"rules must have exactly the keys {', '.join(RULES_KEYS)}")
    lines = field(rules, "lines", list, "rules")
    for index, line in enumerate(lines):
        if type(line) is not list or any(type(cell) is not int for cell in line):
            raise NotACertificate(f"rules.lines[{index}] must be an array of integers")
    return Rules(
        raw=rules,
        name=field(rules, "name", str, "rules"),
        rows=field(rules, "rows", int, "rules"),
        cols=field(rules, "cols", int, "rules"),
        lines=lines,
        marks=field(rules, "marks", str, "rules"),
        goal=field(rules, "goal", str, "rules"),
    )


def load_claim(obj: dict) -> Claim:
    """The claim object; each first move must be an object with integer cell, mark and string value."""
    claim = field(obj, "claim", dict, "certificate")
    moves = []
    for index, move in enumerate(field(claim, "first_moves", list, "claim")):
        where = f"claim.first_moves[{index}]"
        if type(move) is not dict:
            raise NotACertificate(f"{where} must be an object")
        moves.append((field(move, "cell", int, where), field(move, "mark", int, where),
                      field(move, "value", str, where)))
    return Claim(field(claim, "root_value", str, "claim"),
                 field(claim, "root_margin", int, "claim", nullable=True), moves)


def at_most(count: int, limit: int, what: str) -> int:
    """count, unless it exceeds the number of codes a board has: then no table can be right."""
    if count > limit:
        raise Invalid(f"{what} = {count} exceeds {limit}, the number of codes on the board")
    return count


def load_table(obj: dict, limit: int) -> Table:
    """The table object with its arrays unpacked (margins may be null)."""
    table = field(obj, "table", dict, "certificate")
    states = at_most(count_field(table, "states", "table", MAX_STATES), limit, "table.states")
    margins = None
    if field(table, "margins", str, "table", nullable=True) is not None:
        margins = unpack(table, "margins", "table", "int8", states)
    return Table(states, unpack(table, "codes", "table", "uint32", states),
                 unpack(table, "values", "table", "int8", states),
                 unpack(table, "distances", "table", "uint8", states), margins)


def load_strategies(obj: dict, limit: int) -> list[Strategy]:
    """The strategies list: one or two strategy objects, arrays unpacked."""
    strategies = field(obj, "strategies", list, "certificate")
    if not 1 <= len(strategies) <= 2:
        raise NotACertificate(f"certificate.strategies must hold 1 or 2 strategies, found {len(strategies)}")
    result = []
    for index, strategy in enumerate(strategies):
        where = f"strategies[{index}]"
        if type(strategy) is not dict:
            raise NotACertificate(f"{where} must be an object")
        entries = at_most(count_field(strategy, "entries", where, MAX_STATES), limit, f"{where}.entries")
        result.append(Strategy(
            field(strategy, "player", int, where), field(strategy, "guarantees", str, where), entries,
            unpack(strategy, "codes", where, "uint32", entries),
            unpack(strategy, "cells", where, "uint8", entries),
            unpack(strategy, "marks", where, "uint8", entries)))
    return result


def load_certificate(document: object) -> Certificate:
    """Validate the shape of a parsed document and unpack it; raises NotACertificate."""
    if type(document) is not dict:
        raise NotACertificate(f"a certificate is a JSON object, found {_type_name(document)}")
    if document.get("format") != FORMAT:
        raise NotACertificate(f"format must be {FORMAT!r}, found {ascii(document.get('format'))[:60]}")
    version = field(document, "version", int, "certificate")
    if version not in VERSIONS:
        raise NotACertificate(f"unknown version {version} (this checker knows version 1)")
    rules = load_rules(document)
    sha = field(document, "rules_sha256", str, "certificate")
    field(document, "provenance", dict, "certificate")
    claim = load_claim(document)
    small = 1 <= rules.rows <= 4 and 1 <= rules.cols <= 4
    limit = 3 ** (rules.rows * rules.cols) if small else MAX_STATES
    return Certificate(rules, sha, claim, load_table(document, limit), load_strategies(document, limit))
