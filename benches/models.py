"""Events per CPU-second and instructions per event of each study model: the `run` example
on the model's shipped scenario, one replication without warm-up, in a fresh process.

    make bench-models [MODELS_ARGS="--repeat 5 --instructions"]
    python3 benches/models.py ARQLAB_RUN [--repeat N] [--scale X] [--instructions] [--only NAME ...]

CPU time is the child's user + system time (`os.wait4`), the fastest of `--repeat` runs
(a shared machine only adds time). Each model runs at size S and 2S (simulated seconds,
or messages of a finite transfer): the rate is (events₂ − events₁) / (CPU₂ − CPU₁), so
parsing and building the scenario do not count. `--instructions` counts instructions
the same way under cachegrind (valgrind, no cache simulation; sizes divided by 10).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name, scenario, the size key it scales (`duration_s` or a bulk flow's `messages`), size.
MODELS = [
    ("reference (go-back-N)", "scenarios/go_back_n.toml", "duration_s", 10_000),
    ("HDLC NRM (Bux)", "scenarios/hdlc_nrm.toml", "duration_s", 4_000),
    ("HDLC ABM (Bux)", "scenarios/hdlc_abm_poisson.toml", "duration_s", 10_000),
    ("LLC2 (Biersack base)", "scenarios/biersack/base.toml", "duration_s", 60),
    ("TP4 (Colella)", "scenarios/colella/acknowledgement.toml", "messages", 400),
    ("X.25 (Comer & Korb)", "scenarios/comer_korb/fig3.toml", "messages", 45),
    ("HF ARQ (Johnson)", "scenarios/johnson/5066_stable_25.toml", "duration_s", 150_000),
]


def scenario(path: str, key: str, size: float) -> str:
    """The scenario text with one replication, no warm-up, and `key` set to `size`."""
    text = (ROOT / path).read_text()
    text = re.sub(r"(?m)^replications = .*$", "replications = 1", text)
    text = re.sub(r"(?m)^warmup_s = .*$", "warmup_s = 0.0", text)
    if key == "duration_s":
        text = re.sub(r"(?m)^duration_s = .*$", f"duration_s = {size}", text)
    else:
        text, n = re.subn(r"messages = \d+", f"messages = {int(size)}", text)
        if n != 1:
            raise SystemExit(f"models: {path} has {n} bulk flows, expected 1")
        text = re.sub(r"(?m)^duration_s = .*$", "duration_s = 10000000.0", text)
    return text


def run(cmd: list[str]) -> tuple[float, str]:
    """(CPU seconds, stdout+stderr) of one run of `cmd`."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read() if p.stdout else ""
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"models: {' '.join(cmd)} failed:\n{out}")
    return usage.ru_utime + usage.ru_stime, out


def events(out: str) -> int:
    m = re.search(r"events (\d+)", out)
    if not m:
        raise SystemExit(f"models: no 'events N' in output:\n{out}")
    return int(m.group(1))


def measure(arq: str, path: str, key: str, size: float, repeat: int, instructions: bool) -> tuple[int, float, float | None]:
    """(events at 2S, marginal events per CPU-second, instructions per event or None)."""
    files = []
    for s in (size, 2 * size) + ((size / 10, size / 5) if instructions else ()):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(scenario(path, key, s))
        files.append(f.name)
    try:
        ev, cpu = [], []
        for name in files[:2]:
            runs = [run([arq, name]) for _ in range(repeat)]
            ev.append(events(runs[0][1]))
            cpu.append(min(r[0] for r in runs))
        rate = (ev[1] - ev[0]) / (cpu[1] - cpu[0]) if cpu[1] > cpu[0] else float("nan")
        ipe = None
        if instructions:
            counts = []
            for name in files[2:]:
                with tempfile.NamedTemporaryFile(suffix=".cg") as cg:
                    _, out = run(["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={cg.name}", arq, name])
                    refs = re.search(r"I\s+refs:\s+([\d,]+)", out)
                    if not refs:
                        raise SystemExit(f"models: no instruction count from cachegrind:\n{out}")
                    counts.append((events(out), int(refs.group(1).replace(",", ""))))
            (e1, i1), (e2, i2) = counts
            ipe = (i2 - i1) / (e2 - e1)
        return ev[1], rate, ipe
    finally:
        for name in files:
            os.unlink(name)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("arqlab_run", help="the `run` example (target/release/examples/run)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per size; the fastest is kept (>= 1)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every model's size (> 0)")
    ap.add_argument("--instructions", action="store_true", help="also count instructions per event (cachegrind)")
    ap.add_argument("--only", nargs="*", default=None, help="models whose name contains one of these words")
    args = ap.parse_args(argv)
    if args.repeat < 1 or not args.scale > 0:
        print(f"models: --repeat must be >= 1 (got {args.repeat}) and --scale > 0 (got {args.scale})", file=sys.stderr)
        return 2
    print(f"{'model':24} {'events':>11} {'M events/CPU-s':>15} {'instr./event':>13}")
    for name, path, key, size in MODELS:
        if args.only and not any(w.lower() in name.lower() for w in args.only):
            continue
        ev, rate, ipe = measure(args.arqlab_run, path, key, size * args.scale, args.repeat, args.instructions)
        print(f"{name:24} {ev:>11,d} {rate / 1e6:>15.1f} {'' if ipe is None else f'{ipe:,.0f}':>13}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
