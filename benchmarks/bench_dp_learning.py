"""Simulations per second of the DP learning kernels (thesis Tables 2, 3, 9, 18) before and after, and
the FLOP bound.

    python benchmarks/bench_dp_learning.py              # PCD and NB, interleaved old/new (≈ 4 min)
    python benchmarks/bench_dp_learning.py --blocks     # PCD simulations per block
    python benchmarks/bench_dp_learning.py --backend torch [--datasets adult bank] [--seconds 3]
                                                        # PCD sims/s on one array backend (SAFEGUARDED_ARRAY)

``--backend numpy|array-api-strict|torch|torch:cpu|cupy`` runs the PCD kernel of every data set of
Tables 3/9 (split 0, truncated Laplace noise, T = 100, P = ⌈d/4⌉) on that backend: numpy for about
``--seconds`` per data set (one BLAS thread, the batch size the notebooks use; the same for the other
backends on a CPU), a GPU with ``--sims`` (default 1,000, one split's simulations of one method) after a
warm-up; it also runs the first
few simulations on numpy and records the largest difference of the iterates (same seeds).  From the
measured rate it gives each data set's share of the wall time of dp_noise Table 3 (100 splits × 1,000
simulations × 5 noisy methods, the data-dependent (OPT) counted at the same rate) and gaussian_mixtures
Tables 9/18 (500 splits × 1,000 × 3 noisy methods; the thesis states 500 splits, its simulation count for
these tables is not stated, 1,000 as Table 3).  It also gives a GPU projection from issue 33's H200
measurement (1,420 sims/s float64, torch, on an adult-shaped problem n = 30,148, d = 57, T = 100,
P = 15), scaled to each data set by :func:`safeguarded.dp_learning.pcd.flops_per_simulation`: optimistic
for the small data sets, where a GPU is bound by kernel launches, not FLOPs (they are minutes anyway).
Rows are merged into ``benchmarks/results/dp_learning_backends.csv`` (one set per backend label and
machine; ``machine`` names the CPU, the label the GPU).

"Before" is the kernel of commit 1cf7f66 (``safeguarded/dp_noise/ml.py``: per coordinate ``expit(−M)``
with a temporary, ``np.outer`` rank-1 update, ``acc += H``; naive Bayes by per-feature gathers), copied
below as ``_reference_*`` so that both run in the same process, interleaved (old, new, old, new, ...)
under the same load.  "After" is :mod:`safeguarded.dp_learning`.  Both run one (data set, split) with
the truncated Laplace noise of Table 3 (Δ = 2, (1, 0.1)) / Table 2 (Δ = 1), T = 100, P = ⌈d/4⌉.

The FLOP bound counts the operations of one simulation (:func:`safeguarded.dp_learning.pcd.
flops_per_simulation`: per iteration the margins GEMM 2nd, per coordinate 3n elementwise + 4n BLAS-2;
naive Bayes: the score GEMM 2·N·K·C over train and test rows) and divides the machine's measured peak
(a 2000 × 2000 float64 ``numpy.matmul`` on one thread) by it: ratio = measured / bound.  Times are
wall-clock on a machine shared with other jobs (stated in the CSV as the load average).  The CSV also
gives the core-hours one data set needs at the thesis' counts (100 splits × 1,000 simulations × 5 noisy
methods for Table 3, × 6 methods for Table 2) at the measured rate.
Results: ``benchmarks/results/dp_learning.csv``.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit
from threadpoolctl import threadpool_limits

from safeguarded import arrays
from safeguarded.dp_learning import datasets, naive_bayes, pcd
from safeguarded.dp_noise.mechanisms import TruncatedLaplace
from safeguarded.experiments import rng_for

OUT = Path(__file__).resolve().parent / "results"


# ------------------------------------------------------------------------------------------------
# the kernels before (commit 1cf7f66, safeguarded/dp_noise/ml.py), verbatim but for names
# ------------------------------------------------------------------------------------------------
def _reference_pcd(X, y, rng, noise, S, iterations=100, lam=1e-8):
    n, d = X.shape
    P = math.ceil(d / 4)
    h0 = rng.uniform(-1.0, 1.0, size=d)
    H = np.tile(h0, (S, 1))
    yX = np.asfortranarray(y[:, None] * X)
    for _ in range(iterations):
        order = rng.permutation(d)[:P]
        M = yX @ H.T
        acc = np.zeros_like(H)
        for j in order:
            grad_sum = -(yX[:, j] @ expit(-M))
            grad_sum = grad_sum + np.asarray(noise(rng, S), dtype=float)
            z = H[:, j] - grad_sum / n
            new = np.sign(z) * np.maximum(np.abs(z) - lam, 0.0)
            M += np.outer(yX[:, j], new - H[:, j])
            H[:, j] = new
            acc += H
        H = acc / P
    return H


def _reference_nb(data, train, tests, rng, noise, n_sims):
    S = int(n_sims)
    sens = naive_bayes.nb_sensitivities(data)
    counts, cond, means, sds = naive_bayes._nb_statistics(data, train)

    def noisy(x, scale=1.0):
        x = np.broadcast_to(x, (S, *np.shape(x))).copy()
        return x + np.asarray(noise(rng, x.size), dtype=float).reshape(x.shape) * scale

    counts_s = np.maximum(noisy(counts), 1e-6)
    cond_s = [np.maximum(noisy(t), 1e-6) for t in cond]
    means_s = noisy(means, sens["mean"])
    sds_s = np.maximum(noisy(sds, sens["sd"]), 1.0)
    log_prior = np.log(counts_s / counts_s.sum(axis=1, keepdims=True))
    out = []
    for idx in tests:
        score = np.broadcast_to(log_prior[:, None, :], (S, len(idx), data.n_classes)).copy()
        for v, t in enumerate(cond_s):
            logp = np.log(t / t.sum(axis=2, keepdims=True))
            score += np.transpose(logp[:, :, data.cat[idx, v]], (0, 2, 1))
        if data.num.shape[1]:
            x = data.num[idx]
            z = (x[None, :, None, :] - means_s[:, None, :, :]) / sds_s[:, None, :, :]
            score += (-0.5 * z * z - np.log(sds_s[:, None, :, :])).sum(axis=3)
        pred = score.argmax(axis=2)
        out.append((pred != data.y[idx][None, :]).mean(axis=1))
    return np.array(out)


# ------------------------------------------------------------------------------------------------
def peak_gemm_flops(size: int = 2000, reps: int = 3) -> float:
    """Best-of-``reps`` float64 flop rate of one ``size``² matmul on one BLAS thread."""
    a = np.random.default_rng(0).standard_normal((size, size))
    best = math.inf
    with threadpool_limits(limits=1, user_api="blas"):
        for _ in range(reps):
            start = time.perf_counter()
            a @ a
            best = min(best, time.perf_counter() - start)
    return 2.0 * size**3 / best


def _timed(f, *args, **kwargs) -> float:
    start = time.perf_counter()
    f(*args, **kwargs)
    return time.perf_counter() - start


PCD_CASES = {"spect": 400, "dermatology": 200, "abalone": 40, "spambase": 40, "adult": 2}
NB_CASES = {"dermatology": 1000, "spambase": 200, "adult": 20}


def bench_pcd(rounds: int, peak: float) -> list[dict]:
    rows = []
    noise = TruncatedLaplace(1.0, 0.1, 2.0)
    for name, S in PCD_CASES.items():
        X, y = datasets.load_pcd_data(name)
        tr, _ = datasets.train_test_split_indices(len(y), rng_for(0, 0))
        Xt, yt = X[tr], y[tr]
        times = {"before": [], "after": []}
        with threadpool_limits(limits=1, user_api="blas"), np.errstate(over="ignore"):
            for _ in range(rounds):  # interleaved: the same load for both
                times["before"].append(_timed(_reference_pcd, Xt, yt, rng_for(1), noise.sample, S))
                times["after"].append(_timed(pcd.dp_pcd, Xt, yt, rng_for(1), noise=noise, n_sims=S))
        flops = pcd.flops_per_simulation(*Xt.shape)["total"]
        for kind, ts in times.items():
            rate = S / min(ts)
            rows.append({"kernel": "PCD", "dataset": name, "n_train": Xt.shape[0], "d": Xt.shape[1],
                         "n_sims": S, "version": kind, "sims_per_s": rate, "flops_per_sim": flops,
                         "bound_sims_per_s": peak / flops,
                         "ratio_to_bound": rate * flops / peak})  # fmt: skip
    return rows


def bench_nb(rounds: int, peak: float) -> list[dict]:
    rows = []
    noise = TruncatedLaplace(1.0, 0.1, 1.0)
    for name, S in NB_CASES.items():
        data = datasets.load_nb_data(name)
        tr, te = datasets.train_test_split_indices(len(data.y), rng_for(0, 0))
        times = {"before": [], "after": []}
        for _ in range(rounds):
            times["before"].append(_timed(_reference_nb, data, tr, [tr, te], rng_for(1), noise.sample, S))
            new = naive_bayes.dp_naive_bayes_errors
            times["after"].append(_timed(new, data, tr, [tr, te], rng_for(1), noise=noise, n_sims=S))
        K = sum(data.levels) + 2 * data.num.shape[1] + 1
        flops = 2.0 * len(data.y) * K * data.n_classes
        for kind, ts in times.items():
            rate = S / min(ts)
            rows.append({"kernel": "NB", "dataset": name, "n_train": len(tr), "d": K, "n_sims": S,
                         "version": kind, "sims_per_s": rate, "flops_per_sim": flops,
                         "bound_sims_per_s": peak / flops,
                         "ratio_to_bound": rate * flops / peak})  # fmt: skip
    return rows


def bench_blocks(peak: float) -> list[dict]:
    rows = []
    noise = TruncatedLaplace(1.0, 0.1, 2.0)
    for name, S in (("dermatology", 448), ("spambase", 32)):
        X, y = datasets.load_pcd_data(name)
        tr, _ = datasets.train_test_split_indices(len(y), rng_for(0, 0))
        for block in (1, 8, 32, 64, 128, 256, 448):
            if block > S:
                continue
            t = _timed(pcd.dp_pcd, X[tr], y[tr], rng_for(1), noise=noise, n_sims=S, block=block)
            rows.append({"dataset": name, "block": block, "n_sims": S, "sims_per_s": S / t})
    return rows


#: (splits, simulations per split, noisy methods) of the thesis' tables, for the wall-time estimates
TABLE_COUNTS = {"table3_hours": (100, 1000, 5), "tables9_18_hours": (500, 1000, 3)}
#: issue 33: torch float64 on one NVIDIA H200, adult-shaped problem (n, d, T, P) -> simulations per second
ISSUE_H200 = {"sims_per_s": 1420.0, "n": 30148, "d": 57, "iterations": 100, "coords_per_iter": 15}


def _machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model} ({os.cpu_count()} CPUs, {platform.node()})"


def bench_backend(backend: str, names, seconds: float, sims: int | None) -> list[dict]:
    os.environ[arrays.ENV] = backend
    be = arrays.array_backend()
    noise = TruncatedLaplace(1.0, 0.1, 2.0)
    shape = (ISSUE_H200["n"], ISSUE_H200["d"], ISSUE_H200["iterations"], ISSUE_H200["coords_per_iter"])
    h200 = ISSUE_H200["sims_per_s"] * pcd.flops_per_simulation(*shape)["total"]  # FLOP/s of that run
    rows = []
    for name in names:
        X, y = datasets.load_pcd_data(name)
        tr, _ = datasets.train_test_split_indices(len(y), rng_for(0, 0))
        Xt, yt = X[tr], y[tr]

        def run(S, Xt=Xt, yt=yt):
            return pcd.dp_pcd(Xt, yt, rng_for(1), noise=noise, n_sims=S)

        t1 = _timed(run, 1)  # warm-up (a device's first kernels), and the numpy calibration
        if sims is not None:
            S = int(sims)
        else:  # about `seconds` of numpy, at least one batch
            S = int(min(1000, max(1, seconds / t1)))
            if _timed(run, S) < seconds / 3:
                S = int(min(1000, max(S, 3 * S * seconds / max(_timed(run, S), 1e-9))))
        elapsed = _timed(run, S)
        rate = S / elapsed
        diff = math.nan
        if not be.is_numpy:
            k = min(S, 4)
            got = run(k).H
            os.environ[arrays.ENV] = "numpy"
            diff = float(np.abs(got - run(k).H).max())
            os.environ[arrays.ENV] = backend
        flops = pcd.flops_per_simulation(*Xt.shape)["total"]
        row = {"backend": backend, "label": be.label, "machine": _machine(), "dataset": name,
               "n_train": Xt.shape[0], "d": Xt.shape[1], "n_sims": S, "seconds": elapsed, "sims_per_s": rate,
               "max_abs_diff_vs_numpy": diff, "load_average": os.getloadavg()[0],
               "measured": time.strftime("%Y-%m-%d")}  # fmt: skip
        gpu = h200 / flops
        for col, (splits, per_split, methods) in TABLE_COUNTS.items():
            row[col] = splits * per_split * methods / rate / 3600
            row[f"{col}_issue_h200_projection"] = splits * per_split * methods / gpu / 3600
        rows.append(row)
        print(f"{name:15s} n={Xt.shape[0]:6d} d={Xt.shape[1]:3d} S={S:5d} {rate:10.2f} sims/s  "
              f"Table 3 {row['table3_hours']:8.2f} h  Tables 9/18 {row['tables9_18_hours']:8.2f} h  "
              f"diff {diff:.1e}", flush=True)  # fmt: skip
    return rows


def main(argv=None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backend", help="numpy, array-api-strict, torch, torch:cpu or cupy")
    parser.add_argument("--datasets", nargs="+", default=None, help="default: every data set of Tables 3/9")
    parser.add_argument("--seconds", type=float, default=3.0, help="numpy: seconds per data set")
    parser.add_argument("--sims", type=int, default=None, help="sims per data set (device: 1000)")
    args = parser.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    if args.backend is not None:
        names = args.datasets or list(datasets.TABLE_DATASETS)
        on_gpu = "cuda" in arrays.array_backend(args.backend).label
        sims = 1000 if args.sims is None and on_gpu else args.sims  # CPUs: about --seconds per data set
        table = pd.DataFrame(bench_backend(args.backend, names, args.seconds, sims))
        path = OUT / "dp_learning_backends.csv"
        if path.exists():  # keep the other backends' and machines' rows
            old = pd.read_csv(path)
            keep = ~(old.label.isin(table.label) & old.machine.isin(table.machine) & old.dataset.isin(names))
            table = pd.concat([old[keep], table], ignore_index=True)
        table.to_csv(path, index=False, float_format="%.4g")
        cols = [*TABLE_COUNTS, *[f"{c}_issue_h200_projection" for c in TABLE_COUNTS]]
        print(table[table.label == table.label.iloc[-1]].groupby(["label", "machine"])[cols].sum().T)
        return table
    peak = peak_gemm_flops()
    load = os.getloadavg()[0]
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}, "
          f"peak GEMM {peak / 1e9:.1f} GFLOP/s (one thread), load average {load:.1f}")  # fmt: skip
    if args.blocks:
        table = pd.DataFrame(bench_blocks(peak))
        table.to_csv(OUT / "dp_learning_blocks.csv", index=False, float_format="%.4g")
    else:
        table = pd.DataFrame(bench_pcd(args.rounds, peak) + bench_nb(args.rounds, peak))
        table["peak_gflops"] = peak / 1e9
        table["load_average"] = load
        # thesis counts per data set: Table 3 100 splits x 1,000 sims x 5 noisy methods, Table 2 x 6 methods
        table["thesis_sims"] = np.where(table.kernel == "PCD", 100 * 1000 * 5, 100 * 1000 * 6)
        table["core_hours_at_thesis_counts"] = table.thesis_sims / table.sims_per_s / 3600
        table.to_csv(OUT / "dp_learning.csv", index=False, float_format="%.4g")
        wide = table.pivot_table(index=["kernel", "dataset"], columns="version", values="sims_per_s",
                                 sort=False)  # fmt: skip
        wide["speed-up"] = wide["after"] / wide["before"]
        print(wide.round(1).to_string())
    print(table.round(4).to_string(index=False))
    return table


if __name__ == "__main__":
    main()
