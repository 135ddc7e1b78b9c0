"""The certificate format's constants and its packed arrays (docs/certificate-format.md).

Kept apart from the pydantic schema (certify/record/schema.py) so that writing a certificate does not
import pydantic: `certify solve` starts in a fraction of a second (docs/benchmarks.md, startup).
"""

from __future__ import annotations

import base64
import zlib
from typing import Literal

import numpy as np

FORMAT = "certify-certificate"
VERSION = 2
ZLIB_LEVEL = 6  # docs/certificate-format.md, Sizes: level 9 costs time for no gain on these arrays

ValueWord = Literal["win", "draw", "loss"]
VALUE_WORDS: dict[int, ValueWord] = {1: "win", 0: "draw", -1: "loss"}


def pack(array: np.ndarray, dtype: str) -> str:
    """Little-endian bytes of `array` as `dtype`, zlib (ZLIB_LEVEL), base64."""
    raw = np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    return base64.b64encode(zlib.compress(raw, ZLIB_LEVEL)).decode("ascii")


def unpack(text: str, dtype: str, count: int) -> np.ndarray:
    """Inverse of `pack`; raises ValueError unless exactly `count` elements decode."""
    item = np.dtype(dtype).newbyteorder("<")
    try:
        raw = zlib.decompressobj().decompress(base64.b64decode(text, validate=True), count * item.itemsize + 1)
    except (ValueError, zlib.error) as err:
        raise ValueError(f"bad packed array: {err}") from None
    if len(raw) != count * item.itemsize:
        raise ValueError(f"packed array holds {len(raw) // item.itemsize} elements, expected {count}")
    return np.frombuffer(raw, dtype=item).astype(dtype)
