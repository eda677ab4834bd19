"""Same results from two builds: runs every scenario of the list with both `run` examples
(two replications, durations cut to at most `--max-s` simulated seconds) and compares
what they print (measures at six decimals, event counts; the wall-clock rates are left
out). A speed-only change must leave every line as it was.

    python3 benches/same_results.py RUN_BEFORE RUN_AFTER [--max-s 600] [FILE ...]

Without files: every scenario under `scenarios/` (the composed stacks of `compose/`, the
five studies' files, the shipped single-link ones). Exit status 1 if any differs.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cut(text: str, max_s: float) -> str:
    """Two replications, and `duration_s` at most `max_s`."""
    text = re.sub(r"(?m)^replications = .*$", "replications = 2", text)

    def shorter(m: re.Match) -> str:
        return f"duration_s = {min(float(m.group(1)), max_s)}"

    return re.sub(r"(?m)^duration_s = ([0-9.eE+]+)\s*$", shorter, text)


def printed(run: str, path: Path) -> list[str]:
    """The lines `run` prints, without the wall-clock part of the last."""
    out = subprocess.run([run, str(path)], capture_output=True, text=True)
    lines = (out.stdout + out.stderr).splitlines()
    return [re.sub(r", wall .*$", "", line) for line in lines] + [f"exit {out.returncode}"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--max-s", type=float, default=600.0)
    ap.add_argument("files", nargs="*", type=Path)
    a = ap.parse_args()
    files = a.files or sorted((ROOT / "scenarios").rglob("*.toml"))
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            path = Path(tmp) / f.name
            path.write_text(cut(f.read_text(), a.max_s))
            before, after = printed(a.before, path), printed(a.after, path)
            same = before == after
            differ += not same
            events = next((line.split(",")[0] for line in before if line.startswith("events")), before[-1])
            print(f"{'same' if same else 'DIFFERS'}  {f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}  ({events})")
            if not same:
                for x, y in zip(before, after):
                    if x != y:
                        print(f"    before: {x}\n    after:  {y}")
    print(f"{len(files) - differ} of {len(files)} scenarios print the same results")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
