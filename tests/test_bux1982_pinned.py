"""Pins the Bux 1982 study so that no refactoring changes it silently.

`arqlab reproduce bux1982` (quick and full) must give the same results before and after
any change to the study framework or the study package. The simulation core has its own
golden tests; these pin the Python side, which decides *what* is simulated and *how the
results are read*:

* the plan: every point (figure, curve, variant, x, direction, measure, normalisation)
  and the key of the run feeding it — a hash of the resolved scenario, seed,
  replications and precision — for the quick and the full pass;
* the outputs of a reproduction of Figs. 2, 7, 9 and 10 on closed-form data (jittered by
  a fixed factor per run, so that some claims sit near their tolerances):
  claims.md, claims.json, the figure CSVs and every scenario file, byte for byte.

The digests were recorded with the single-module `bux1982.py` before it became a package
(and checked equal after); re-pinned for issue 14 (model readings as curve overrides, the
per-mode T1 rule, the readings and T1 sensitivity variants, re-encoded claims, claim
origins and the measured column of claims.md); claims.md/claims.json re-pinned for issue 28
(model checks counted apart, claim statements of the word table, the measured column and
``deviations`` computed from the compared data; plan, CSVs and scenarios unchanged); claims.json
re-pinned for issue 29 (non-finite values written as null, not NaN); everything re-pinned for
issue 28 (the reading and T1 variants on each figure's own x grid and scored on the base's
x points, the poll reading on Figs. 8, 10 and 11: more points and runs, new scenario files,
variant verdicts); everything re-pinned again for issue 28 (the ABM/ARM T1 bound counted
from the timer's last restart with the REJ as an S frame: new T1 on ABM/ARM points, so new
run keys, CSV run hashes and scenario files, same points; the poll reading as a co-equal
column of claims.md and claims.json); everything re-pinned for issue 28 once more
(``run.stall_timers = 0`` in every Bux scenario: the stall watch ended NRM modulus-128
runs during the paper's own long recoveries; same points and runs, new run keys, so new
jitter in the closed-form outputs); everything re-pinned for issue 29 (``run.stall_timers = 0``
removed again: the stall watch counts progress end to end with a full send window in its
limit, so the NRM waits no longer trip it; same points and runs, new run keys, so new
jitter in the closed-form outputs). If a change is *meant* to alter the study (a new curve, a
corrected parameter, a new claim), recompute them with the code below, say so in the
commit message, and update docs/studies/bux1982.md where the change shows.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.studies import bux1982 as bux  # noqa: E402
from arqlab.studies import framework as fw  # noqa: E402

PLAN = {
    # quick: (points, distinct runs, sha256 of the point lines)
    True: (2106, 1208, "7993e3e7ce557a3560b82625e936ee5821c35ef231dba9518b4a8c3de836599e"),
    False: (2560, 1459, "9029151c0e734d3a88fbaf4db152689d66ec8058edf2b267da429602ff2feaed"),
}

OUTPUTS = {
    # glob: (files, sha256 over their relative paths and bytes)
    "claims.md": (1, "b13eec05a2cf18039962fb1f2be496af3075d42f5e03def65a0bf45185e59755"),
    "claims.json": (1, "dffed5fb34eadfd5f4aabf0231d67aee114254cc108e0124d99f220058aca08e"),
    "*.csv": (4, "dcf0d4b5cdf04ada70b39115ad203baa0ef3681445b867319e4c8e5f18226ec0"),
    "*_scenarios/*.toml": (216, "f24bb0a60399fea575eeea95a82d5dca0cd37a24db9ad6aa7df4628b2f1b8259"),
}


def _plan_digest(quick: bool) -> tuple[int, int, str]:
    settings = bux.settings_for(quick)
    lines: list[str] = []
    runs: set[str] = set()
    for f in bux.figures():
        points, rmap, _ = fw.plan_figure(f, settings)
        runs |= set(rmap)
        lines += [f"{p.figure}|{p.curve}|{p.variant}|{p.x!r}|{p.direction}|{p.measure}|{p.norm!r}|{p.run}" for p in points]
    return len(lines), len(runs), hashlib.sha256("\n".join(lines).encode()).hexdigest()


@pytest.mark.parametrize("quick", [True, False])
def test_plan_is_pinned(quick: bool) -> None:
    assert _plan_digest(quick) == PLAN[quick]


def _closed_form_runner(req: fw.RunRequest) -> fw.Metrics:
    """Window bound × clean-copy factor (saturated) and M/D/1 (Poisson), jittered, ±1% CIs."""
    s = req.scenario
    v, t_p, p = (fw.get_dotted(s, k) for k in ("link.rate_bps", "link.delay_s", "link.bit_error_rate"))
    out: fw.Metrics = {}
    for side, d in (("a", "a_to_b"), ("b", "b_to_a")):
        kind = fw.get_dotted(s, f"traffic.{side}.kind")
        if kind == "none":
            continue
        l, h = float(fw.get_dotted(s, f"traffic.{side}.length.mean_bits")), bux.overhead_bits(s)
        if kind == "saturated":
            w = int(fw.get_dotted(s, "protocol.modulus")) - 1
            m = {"throughput_efficiency": bux.window_bound(l, h, v, t_p, w) * (1 - p) ** (l + h)}
        else:
            load = float(fw.get_dotted(s, f"traffic.{side}.load"))
            t = bux.md1_transfer_over_ti(load, l, h, v, t_p) * (l + h) / v
            m = {"throughput_efficiency": load, "transfer_time_s": t, "buffer_holding_time_s": t + t_p}
        out[d] = {k: {"mean": x * _jitter(req.key, d), "ci95_half_width": 0.01 * abs(x), "n": 3} for k, x in m.items()}
    return out


def _jitter(key: str, direction: str) -> float:
    """A fixed factor in [0.92, 1.08] per run and direction, so that some claims sit near
    their tolerances and a changed tolerance changes a verdict."""
    u = int(hashlib.sha256(f"{key}/{direction}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return 0.92 + 0.16 * u


def test_outputs_are_pinned(tmp_path: Path) -> None:
    bux.reproduce(figures=[2, 7, 9, 10], quick=True, out_dir=tmp_path, runner=_closed_form_runner, quiet=True)
    for pattern, (count, digest) in OUTPUTS.items():
        files = sorted(tmp_path.glob(pattern))
        h = hashlib.sha256()
        for f in files:
            h.update(f.relative_to(tmp_path).as_posix().encode())
            h.update(f.read_bytes())
        assert (len(files), h.hexdigest()) == (count, digest), pattern
