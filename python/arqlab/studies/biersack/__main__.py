"""``python -m arqlab.studies.biersack [...]``: the same as ``arqlab reproduce biersack [...]``."""

from __future__ import annotations

import sys

from .. import main as reproduce_main


def main(argv: list[str] | None = None) -> int:
    return reproduce_main(["biersack", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
