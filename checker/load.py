"""Reading a certificate: size limit, strict JSON, the envelope every kind shares, packed arrays.

Everything that makes a document "not a certificate this checker can read" (unreadable, too big,
not UTF-8, not strict JSON, wrong shape or types, bad base64/zlib, wrong array length, unknown
format, version, family or kind, a work budget exceeded) raises NotACertificate here or in the
family and kind modules. Whether the contents are *true* is the kind module's business (Invalid).
"""

import base64
import binascii
import hashlib
import json
import math
import os
import re
import stat
import zlib
from dataclasses import dataclass

DEFAULT_MAX_BYTES = 16 * 1024 * 1024  # the largest published certificate has 4.7 MB
MAX_BUDGET = 10**15  # a larger budget is a typing error, not a plan
MAX_CONTAINERS = 1_000_000  # JSON objects and arrays: each costs ~100 bytes once parsed
MAX_DEPTH = 500  # JSON objects and arrays open at once (as verified/load.ml; not Python's recursion limit)
TOKENS = re.compile(rb'\\.|["\[\]{}]')  # what decides nesting: an escape, a quote, a bracket
MAX_INT_DIGITS = 20
HEX = "0123456789abcdef"
FORMAT = "certify-certificate"
VERSION = 2


class NotACertificate(Exception):
    """The input is not a certificate this checker can read; the message says why."""


class Invalid(Exception):
    """The certificate states something false; the message names the first failure found."""


@dataclass(frozen=True)
class Limits:
    """The work budget: the largest file, state count and states × lines a check may take on."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_states: int = 1_000_000
    max_work: int = 100_000_000

    def problem(self) -> str | None:
        """Why this budget is not one to check with (negative, or absurdly large), or None."""
        for name, value in (("--max-bytes", self.max_bytes), ("--max-states", self.max_states),
                            ("--max-work", self.max_work)):
            if type(value) is not int or not 0 <= value <= MAX_BUDGET:
                return f"{name} must be an integer in 0..{MAX_BUDGET:.0e}, found {ascii(value)[:40]}"
        return None


def sha_problem(sha: str | None) -> str | None:
    """Why `sha` is not a rules hash prefix to check against (16 to 64 hex digits), or None."""
    if sha is not None and (type(sha) is not str or not 16 <= len(sha) <= 64 or sha.strip(HEX + HEX.upper())):
        return f"--rules-sha256 must be 16 to 64 hex digits, found {ascii(sha)[:80]}"
    return None


@dataclass(frozen=True)
class Envelope:
    """The fields every certificate has, whatever its kind."""

    document: dict
    kind: str
    family: str
    rules: dict
    name: str
    rules_sha256: str


def read_bytes(path: str, max_bytes: int) -> bytes:
    """The file's bytes, refusing anything but a regular file of at most max_bytes (a FIFO or a
    device would block open() or never end)."""
    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise NotACertificate(f"{path}: is a directory")
        if not stat.S_ISREG(status.st_mode):
            raise NotACertificate(f"{path}: is not a regular file")
        if status.st_size > max_bytes:
            raise NotACertificate(f"{path} has {status.st_size:,} bytes, more than the limit {max_bytes:,}; "
                                  f"to check it, raise it: --max-bytes {status.st_size}")
        with open(path, "rb") as handle:
            data = handle.read(min(status.st_size, max_bytes) + 1)
    except FileNotFoundError:
        raise NotACertificate(f"{path}: no such file") from None
    except OSError as err:
        raise NotACertificate(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > max_bytes:
        raise NotACertificate(f"{path} is larger than the limit {max_bytes:,} bytes (--max-bytes)")
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
        raise NotACertificate(f"not UTF-8 text (bad byte at offset {err.start})") from None
    if not text.strip():
        raise NotACertificate("is empty" if not text else "not valid JSON: only white space")
    if data.count(b"{") + data.count(b"[") > MAX_CONTAINERS:
        raise NotACertificate(f"more than {MAX_CONTAINERS:,} JSON objects and arrays")
    if data.count(b"{") + data.count(b"[") > MAX_DEPTH and _depth(data) > MAX_DEPTH:
        raise NotACertificate("not valid JSON: nested too deeply")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant,
                          parse_int=_bounded_int, parse_float=_finite_float)
    except json.JSONDecodeError as err:
        raise NotACertificate(f"not valid JSON: {err}") from None
    except RecursionError:
        raise NotACertificate("not valid JSON: nested too deeply") from None


def _depth(data: bytes) -> int:
    """The most JSON objects and arrays open at once (brackets outside strings)."""
    depth = deepest = 0
    inside = False
    for token in TOKENS.findall(data):
        if token == b'"':
            inside = not inside
        elif not inside and token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif not inside and token in (b"]", b"}"):
            depth -= 1
    return deepest


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


def count_field(obj: dict, key: str, where: str, low: int, high: int) -> int:
    """An integer in low..high."""
    value = field(obj, key, int, where)
    if not low <= value <= high:
        raise NotACertificate(f"{where}.{key} = {value:,} is outside {low:,}..{high:,}")
    return value


def word_field(obj: dict, key: str, where: str, words: tuple[str, ...]) -> str:
    """A string that is one of `words`."""
    value = field(obj, key, str, where)
    if value not in words:
        raise NotACertificate(f"{where}.{key} {ascii(value)[:40]} is not one of {', '.join(words)}")
    return value


def unpack_bytes(obj: dict, key: str, where: str, count: int) -> bytes:
    """Decode base64 → zlib (output capped at count + 1 bytes) → exactly `count` bytes."""
    text = field(obj, key, str, where)
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error, ValueError):
        raise NotACertificate(f"{where}.{key} is not valid base64") from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, count + 1)  # max_length 0 would mean unlimited
    except zlib.error as err:
        raise NotACertificate(f"{where}.{key} is not valid zlib data ({err})") from None
    if len(raw) > count or inflater.unconsumed_tail:
        raise NotACertificate(f"{where}.{key} holds more than {count:,} bytes")
    if not inflater.eof or inflater.unused_data:
        raise NotACertificate(f"{where}.{key} is a truncated or over-long zlib stream")
    if len(raw) != count:
        raise NotACertificate(f"{where}.{key} holds {len(raw):,} bytes, expected {count:,}")
    return raw


def rules_hash(rules: dict) -> str:
    """sha256 of the canonical JSON of the rules without their name (the name is a label)."""
    unnamed = {key: value for key, value in rules.items() if key != "name"}
    text = json.dumps(unnamed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    try:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        raise NotACertificate("rules hold a string that cannot be encoded as UTF-8") from None


def load_envelope(document: object, kinds: tuple[str, ...], families: tuple[str, ...]) -> Envelope:
    """format, version, kind, rules (family and name), rules_sha256 and provenance; raises NotACertificate."""
    if type(document) is not dict:
        raise NotACertificate(f"a certificate is a JSON object, found {_type_name(document)}")
    if document.get("format") != FORMAT:
        found = f"its format is {ascii(document['format'])[:60]}" if "format" in document else "it has no format"
        raise NotACertificate(f'not a certify certificate ({found}, not "{FORMAT}")')
    version = field(document, "version", int, "certificate")
    if version != VERSION:
        raise NotACertificate(f"certificate version {version} is not readable: this checker reads version "
                              f"{VERSION} (regenerate the file with `certify solve`)")
    kind = word_field(document, "kind", "certificate", kinds)
    rules = field(document, "rules", dict, "certificate")
    family = word_field(rules, "family", "rules", families)
    name = field(rules, "name", str, "rules")
    sha = field(document, "rules_sha256", str, "certificate")
    field(document, "provenance", dict, "certificate")
    return Envelope(document, kind, family, rules, name, sha)


def counted(number: int, one: str, many: str) -> str:
    """A count for a verdict line: `1 strategy`, `18,753 states`."""
    return f"{number:,} {one if number == 1 else many}"
