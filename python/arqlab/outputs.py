"""Output destinations a user names (``--out DIR``, ``--plot FILE``, ``--csv FILE``…),
checked *before* any computation, so a typo costs nothing but a one-line message.

The check is a real write: a probe file is created in the directory and removed, which
catches read-only filesystems, a parent that is a file, and missing permissions alike.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
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


@contextlib.contextmanager
def replaced_atomically(path: str | os.PathLike[str], option: str) -> Iterator[Path]:
    """Yields a temporary path beside ``path``; when the block finishes, the temporary
    file replaces ``path`` in one step. If writing fails (a full disk, a read-only
    directory, a directory in the way) the temporary file is removed and an
    :class:`ArqlabError` of one line names ``option`` and the path: never a 0-byte or
    half-written file under the real name, never a traceback."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    tmp: Path | None = None
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=directory)
        os.close(fd)
        tmp = Path(name)
        yield tmp
        mask = os.umask(0)  # mkstemp makes 0600; give the file the usual permissions
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise ArqlabError(f"{option} {target}: cannot write: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()


def write_bytes(path: str | os.PathLike[str], data: bytes, option: str) -> Path:
    """``data`` written to ``path`` as a whole or not at all (see :func:`replaced_atomically`)."""
    with replaced_atomically(path, option) as tmp:
        tmp.write_bytes(data)
    return Path(path)
