"""Runtime of Algorithm 1 against the LP-bisection baselines over |R_X| (a study of this repository:
the paper argues "linear time" (Section 7.3) but measures nothing).

Synthetic tables: QID groups of 10 records (one private attribute with 10 values), P(x) ~ Gamma(1)
normalised, decision rules d in {0, 0.5, 1} at random, delta = 0.9. Methods: ``algorithm1``
(:func:`safeguarded.atr.algorithm.algorithm1`), ``lp_per_group`` (one bisection of small feasibility
LPs per group) and ``lp_monolithic`` (one bisection of LPs over all records), both HiGHS, bisection
tolerance 1e-9 (30 LPs). A baseline stops growing once the predicted time of its next size
(time x (size ratio)^1.2) exceeds ``max_seconds``. Every baseline's beta* is checked against
Algorithm 1's (1e-6).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from safeguarded.atr import lfp
from safeguarded.atr.algorithm import algorithm1
from safeguarded.atr.fidelity import fidelity_box
from safeguarded.experiments import rng_for
from safeguarded.validation import check_frame, check_integer, check_positive

__all__ = ["GROUP_SIZE", "DELTA", "instance", "run_runtime_benchmark", "runtime_summary", "plot_runtime"]

GROUP_SIZE = 10
DELTA = 0.9
LABELS = {
    "algorithm1": "Algorithm 1 (corrected, vectorised)",
    "lp_per_group": "LP bisection per QID group",
    "lp_monolithic": "LP bisection, monolithic",
}


def instance(n: int, seed: int = 0):
    """A synthetic table of ``n`` records (a multiple of 10): (p, d, lo, hi, group)."""
    check_integer("seed", seed, minimum=0)
    if not isinstance(n, int | np.integer) or isinstance(n, bool) or n < GROUP_SIZE or n % GROUP_SIZE:
        raise ValueError(f"n must be a positive multiple of {GROUP_SIZE}, got n={n!r}")
    rng = rng_for(seed, int(n))
    group = np.repeat(np.arange(int(n) // GROUP_SIZE), GROUP_SIZE)
    p = rng.gamma(1.0, size=group.size)
    p /= p.sum()
    d = rng.choice([0.0, 0.5, 1.0], group.size)
    lo, hi = fidelity_box(d, delta=DELTA)
    return p, d, lo, hi, group


def run_runtime_benchmark(max_records: int = 10**7, max_seconds: float = 150.0, seed: int = 0, log=print):
    """Time the three methods on sizes 1e2, 3e2, ..., ``max_records``; one row per (method, size)."""
    max_records = check_integer("max_records", max_records, minimum=100)
    max_seconds = check_positive("max_seconds", max_seconds)
    check_integer("seed", seed, minimum=0)
    if not callable(log):
        raise ValueError(f"log must be a callable taking a line of text, got {type(log).__name__}")
    top = int(np.floor(np.log10(max_records)))
    sizes = sorted({v for k in range(2, top + 1) for v in (10**k, 3 * 10**k) if v <= max_records})
    rows, alive, last = [], {"lp_per_group": True, "lp_monolithic": True}, {}
    for n in sizes:
        p, d, lo, hi, group = instance(n, seed)
        best = np.inf
        for _ in range(3 if n <= 10**6 else 1):
            t = time.perf_counter()
            beta = algorithm1(p, lo, hi, group, d=d).beta
            best = min(best, time.perf_counter() - t)
        rows.append(
            dict(method="algorithm1", records=n, groups=n // GROUP_SIZE, seconds=best, beta=beta, n_lps=0)
        )
        log(f"algorithm1     n={n:>9d}  {best:9.4f} s  beta*={beta:.9f}")
        for method, fn in (
            ("lp_per_group", lfp.lp_bisection_per_group),
            ("lp_monolithic", lfp.lp_bisection_monolithic),
        ):
            if not alive[method]:
                continue
            if method in last:
                guess = last[method][1] * (n / last[method][0]) ** 1.2
                if guess > max_seconds:
                    alive[method] = False
                    log(f"{method:14s} stops: predicted {guess:.0f} s > {max_seconds:.0f} s")
                    continue
            t = time.perf_counter()
            out = fn(p, lo, hi, group, tol=1e-9)
            sec = time.perf_counter() - t
            b = float(np.max(out.beta))
            if abs(b - beta) > 1e-6:
                raise AssertionError(f"{method} beta*={b} disagrees with Algorithm 1's {beta} at n={n}")
            last[method] = (n, sec)
            rows.append(
                dict(method=method, records=n, groups=n // GROUP_SIZE, seconds=sec, beta=b, n_lps=out.n_lps)
            )
            log(f"{method:14s} n={n:>9d}  {sec:9.4f} s  beta*={b:.9f}  LPs={out.n_lps}")
    frame = pd.DataFrame(rows)
    frame["solver"] = np.where(frame["method"] == "algorithm1", "closed form (numpy)", lfp.SOLVER)
    return frame


def _slope(frame) -> float:
    f = frame[frame["records"] >= 1000]
    f = f if len(f) >= 2 else frame
    if len(f) < 2:
        return float("nan")
    return float(np.polyfit(np.log10(f["records"]), np.log10(f["seconds"]), 1)[0])


def _check_runtime_frame(frame) -> None:
    check_frame("frame", frame, ("method", "records", "seconds"))
    if "algorithm1" not in set(frame["method"]) or not set(frame["method"]) <= set(LABELS):
        raise ValueError(f"frame must hold algorithm1 rows and only the methods {list(LABELS)}")


def runtime_summary(frame: pd.DataFrame) -> dict:
    """Log-log slopes (sizes >= 1e3 where a method has two of them, else all its sizes), Algorithm 1's
    slope over its top two decades, and the speed-up at each baseline's largest size."""
    _check_runtime_frame(frame)
    slopes = {m: _slope(f) for m, f in frame.groupby("method", sort=False)}
    alg = frame[frame["method"] == "algorithm1"]
    t_alg = alg.set_index("records")["seconds"]
    speedup = {}
    for m, f in frame[frame["method"] != "algorithm1"].groupby("method", sort=False):
        n_max = int(f["records"].max())
        speedup[m] = (n_max, float(f.set_index("records")["seconds"][n_max] / t_alg[n_max]))
    top = _slope(alg[alg["records"] >= alg["records"].max() / 100])
    return {"slopes": slopes, "algorithm1_top_slope": top, "speedup": speedup}


def plot_runtime(frame: pd.DataFrame, summary: dict):
    """Log-log wall time vs records, labelled as the repository's own figure."""
    import matplotlib.pyplot as plt

    _check_runtime_frame(frame)
    if not isinstance(summary, dict) or not set(frame["method"]) <= set(summary.get("slopes", {})):
        raise ValueError("summary must be the dict of runtime_summary(frame) (a slope per method)")

    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    for m, f in frame.groupby("method", sort=False):
        ax.loglog(f["records"], f["seconds"], "o-", label=f"{LABELS[m]} (slope {summary['slopes'][m]:.2f})")
    ax.set_xlabel(r"records $|\mathcal{R}_X|$")
    ax.set_ylabel("wall time (s), one core")
    ax.set_title("Repository benchmark - not a figure of the paper", fontsize=9)
    ax.legend(fontsize=8)
    return fig
