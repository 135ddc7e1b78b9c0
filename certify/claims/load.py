"""Claims files: TOML, one per source, validated with pydantic; errors name file, line and field.

A file has `source`, `title`, `reference` and a `[[claim]]` table per claim; `kind` picks the
model (docs/claims-format.md lists every kind and its fields).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Annotated, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from certify.files import FileProblem, certificate_kind, read_text
from certify.claims.atlas import AtlasNodes
from certify.claims.boards import SequenceFormula, WinTest
from certify.claims.bounds import KINDS as BOUND_KINDS
from certify.claims.learning import TdSelfPlay
from certify.claims.counts import Count, MoveBetween, Ratio, UpperBound
from certify.claims.pairings import PairingStrategy, UniversalPairing
from certify.claims.policies import FastestWin, PolicyCase, PolicyNeverLoses
from certify.claims.scores import EvaluationRange, FinalScores, ScoreBounds
from certify.claims.uttt import KINDS as UTTT_KINDS
from certify.claims.values import AtlasDump, FirstMoves, PositionValue, RootValue

KINDS = (
    RootValue, FirstMoves, PositionValue, AtlasDump, AtlasNodes,
    Count, UpperBound, Ratio, MoveBetween,
    WinTest, SequenceFormula,
    FinalScores, ScoreBounds, EvaluationRange,
    PairingStrategy, UniversalPairing,
    PolicyNeverLoses, PolicyCase, FastestWin,
    TdSelfPlay,
    *UTTT_KINDS,
    *BOUND_KINDS,
)  # fmt: skip
AnyClaim = Annotated[Union[KINDS], Field(discriminator="kind")]  # type: ignore[valid-type]


LISTED_ERRORS = 10  # a wholly wrong file lists its first ten problems on the one error line
_UNION_BRANCH = re.compile(r"^(literal\[|list\[|tuple\[|function-|int$|str$|float$|bool$)")


class ClaimsFileError(ValueError):
    """A claims file that cannot be read or does not validate: `file:line: field: reason`."""


class ClaimsFile(BaseModel):
    """The claims of one source."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str = Field(min_length=1, description="short id, e.g. 000")
    title: str = Field(min_length=1)
    reference: str = ""
    claim: list[AnyClaim] = Field(min_length=1)  # type: ignore[valid-type]

    @model_validator(mode="after")
    def _unique_ids(self) -> ClaimsFile:
        seen: set[str] = set()
        for claim in self.claim:
            if claim.id in seen:
                raise ValueError(f"claim id '{claim.id}' is used twice")
            seen.add(claim.id)
        return self


def load_claims(path: Path) -> ClaimsFile:
    """Read and validate a claims file; raises ClaimsFileError with file, line and field."""
    path = Path(path)
    try:
        text = read_text(path, "claims file")
    except FileProblem as err:
        raise ClaimsFileError(str(err)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        kind = certificate_kind(path)
        if kind is not None:  # the certificate the claims are about, given in their place
            raise ClaimsFileError(f"{path}: a certify certificate (kind {kind}), not a claims file (TOML, docs/claims-format.md); "
                                  f"`certify check {path}` checks it") from None
        raise ClaimsFileError(f"{path}: not valid TOML: {err}") from None
    try:
        return ClaimsFile.model_validate(data)
    except ValidationError as err:
        found = [_describe(error, text, data) for error in err.errors()]
        first_line, first = found[0]
        where = f"{path}:{first_line}" if first_line else str(path)
        also = "; ".join(f"line {line}: {what}" if line else what for line, what in found[1:LISTED_ERRORS])
        more = f" (and {len(found) - LISTED_ERRORS} more)" if len(found) > LISTED_ERRORS else ""
        raise ClaimsFileError(f"{where}: {first}" + (f"; also {also}{more}" if also else "")) from None


def _describe(error: dict, text: str, data: dict) -> tuple[int | None, str]:
    """(line, `field: message`) of one validation error."""
    loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and _UNION_BRANCH.match(p)))
    if error["type"] == "union_tag_invalid":
        loc += ("kind",)
    return _line_of(text, loc), f"{_field_name(loc, data)}: {error['msg'].removeprefix('Value error, ')}"


def _field_name(loc: tuple, data: dict) -> str:
    """`claim[3] (id '000.2b').value`: the path of a bad field, without pydantic's union tags."""
    parts: list[str] = []
    index = None
    for i, part in enumerate(loc):
        if i == 1 and loc[0] == "claim" and isinstance(part, int):
            index = part
            claims = data.get("claim") if isinstance(data.get("claim"), list) else []
            ident = claims[part].get("id") if part < len(claims) and isinstance(claims[part], dict) else None
            parts[-1] += f"[{part + 1}]" + (f" (id '{ident}')" if ident else "")
        elif i == 2 and index is not None and isinstance(part, str) and part.endswith(tuple(_kind_names())):
            continue  # the discriminator's tag, not a field
        elif isinstance(part, int):
            parts[-1] += f"[{part}]"
        else:
            parts.append(str(part))
    return ".".join(parts) or "document"


def _kind_names() -> list[str]:
    return [model.model_fields["kind"].annotation.__args__[0] for model in KINDS]


def _line_of(text: str, loc: tuple) -> int | None:
    """The line of the `[[claim]]` table a location points into, or of the field within it."""
    lines = text.splitlines()
    if not loc or loc[0] != "claim" or len(loc) < 2 or not isinstance(loc[1], int):
        key = loc[0] if loc else None
        return _first_line(lines, 0, len(lines), str(key)) if key else None
    headers = [i for i, line in enumerate(lines) if re.match(r"^\s*\[\[\s*claim\s*\]\]", line)]
    if loc[1] >= len(headers):
        return None
    start = headers[loc[1]]
    end = headers[loc[1] + 1] if loc[1] + 1 < len(headers) else len(lines)
    fields = [p for p in loc[2:] if isinstance(p, str) and p not in _kind_names()]
    found = _first_line(lines, start, end, fields[0]) if fields else None
    return found or start + 1


def _first_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    pattern = re.compile(rf"^\s*(\[\[?\s*claim\.)?{re.escape(key)}\s*(=|\]|\.)")
    for i in range(start, end):
        if pattern.match(lines[i]):
            return i + 1
    return None


def claim_line(path: Path, index: int, field: str = "") -> int | None:
    """The line of `field` in the claim at `index` in the file, or of its `[[claim]]` header."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError:
        return None
    return _line_of(text, ("claim", index) + ((field,) if field else ()))
