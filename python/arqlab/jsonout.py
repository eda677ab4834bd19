"""JSON that any reader accepts. Strict JSON has no NaN or infinity, so every non-finite
number — an undefined measure (NaN), the infinite half-width of a single replication —
is written as ``null``. Every JSON the package writes for users goes through here."""

from __future__ import annotations

import json
import math
from typing import Any


def finite_or_none(x: Any) -> Any:
    """``x`` with every non-finite float (also inside dicts, lists and tuples) as None."""
    if isinstance(x, float):  # numpy.float64 is a float too
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: finite_or_none(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_or_none(v) for v in x]
    if hasattr(x, "dtype") and getattr(x, "ndim", None) == 0:  # other numpy scalars
        return finite_or_none(x.item())
    return x


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` with non-finite numbers as null (never a ValueError, never ``NaN``)."""
    return json.dumps(finite_or_none(obj), allow_nan=False, **kwargs)
