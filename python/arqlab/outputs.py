"""Output destinations a user names (``--out DIR``, ``--plot FILE``, ``--csv FILE``…),
checked *before* any computation, so a typo costs nothing but a one-line message.

The check is a real write: a probe file is created in the directory and removed, which
catches read-only filesystems, a parent that is a file, and missing permissions alike.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from arqlab.errors import ArqlabError

PLOT_FORMATS: tuple[str, ...] = (".png", ".svg", ".pdf")
"""File name extensions a plot can be written as (the extension decides the format)."""


def _probe(directory: Path, option: str, shown: str) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".arqlab-probe-", dir=directory)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise ArqlabError(f"{option} {shown}: cannot write there ({exc.strerror or exc})") from None


def writable_dir(path: str | os.PathLike[str], option: str) -> Path:
    """``path`` as a directory we can write in (created if missing), or an ArqlabError."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise ArqlabError(f"{option} {target}: exists and is not a directory")
    _probe(target, option, str(target))
    return target


def writable_file(path: str | os.PathLike[str], option: str, suffixes: Sequence[str] = ()) -> Path:
    """``path`` as a file we can create or replace, with one of ``suffixes`` (if given)."""
    target = Path(path)
    if suffixes and target.suffix.lower() not in suffixes:
        raise ArqlabError(
            f"{option} {target}: expected a file name ending in {', '.join(suffixes[:-1])} or {suffixes[-1]}"
            if len(suffixes) > 1 else f"{option} {target}: expected a file name ending in {suffixes[0]}"
        )
    if target.is_dir():
        raise ArqlabError(f"{option} {target}: is a directory, expected a file name")
    _probe(target.parent if str(target.parent) else Path("."), option, str(target))
    return target
