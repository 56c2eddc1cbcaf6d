"""The two speed-ups the routing paper claims for working at the mean demand (Sec. 5.3, App. D):

1. evaluating the cost of a policy at the mean demand, F(x, <Lambda_i>), instead of the sample average
   <F(x, Lambda_i)> ("by up to 50X", "30-50X");
2. solving the problem at the mean demand instead of the SAA (10) ("up to 30X").

Both are measured side by side in one run on Sioux Falls (alpha = 1e3 as in App. D), with Clarabel for
both solves.  Evaluation is timed two ways: a loop over the days (one F evaluation per day, as a
straightforward implementation does) and our vectorised batch evaluation (one matrix product).

    OPENBLAS_NUM_THREADS=1 SAFEGUARDED_DATA_MIRROR=../shared/data .venv/bin/python \
        benchmarks/bench_routing_speedups.py

Prints a table and writes ``benchmarks/results/routing_speedups.csv`` (with the commit and date it was
measured at).  Timings depend on the machine, so they are benchmark output, not claims: the fair baseline for
evaluation is the batched sample average (one matrix product over the days, about 6x slower than the mean at
N = 50 here), not the loop over days (about 76x), which only measures Python overhead.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.routing import costs, dp_sgd, problems
from safeguarded.routing import experiments as rexp

RESULTS = Path(__file__).resolve().parent / "results"


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True,
            cwd=Path(__file__).resolve().parent,
        )  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def best_time(func, repeat: int = 5, number: int = 20) -> float:
    """Best-of-``repeat`` mean time of ``number`` calls (seconds per call)."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eval-n", type=int, nargs="+", default=[10, 25, 50])
    parser.add_argument("--solve-n", type=int, nargs="+", default=[5, 10])
    parser.add_argument("--alpha", type=float, default=1e3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    inst = rexp.load_instance("paper")
    net = inst.network
    q = costs.affine_slopes(net.free_flow, net.capacity, 2.0)
    c = net.free_flow
    x_alpha = problems.policy_optimum(net, inst.mean_demand, q, alpha=args.alpha).x
    rows = []
    for n in args.eval_n:
        days = dp_sgd.sample_days(inst.mean_demand, n, rng_for(args.seed, 1, n))

        def loop_avg(days=days):
            return np.mean([costs.objective(x_alpha, d, q, c, args.alpha) for d in days])

        def batch_avg(days=days):
            return float(np.mean(costs.objective(x_alpha, days, q, c, args.alpha)))

        def at_mean(days=days):
            return float(costs.objective(x_alpha, days.mean(axis=0), q, c, args.alpha))

        t_loop, t_batch, t_mean = best_time(loop_avg), best_time(batch_avg), best_time(at_mean)
        rows.append(
            {"task": "evaluate", "N": n, "method": "sample average, loop over days", "seconds": t_loop,
             "speedup_of_mean": t_loop / t_mean}
        )  # fmt: skip
        rows.append(
            {"task": "evaluate", "N": n, "method": "sample average, batched", "seconds": t_batch,
             "speedup_of_mean": t_batch / t_mean}
        )  # fmt: skip
        rows.append(
            {
                "task": "evaluate",
                "N": n,
                "method": "at the mean demand",
                "seconds": t_mean,
                "speedup_of_mean": 1.0,
            }
        )
    for n in args.solve_n:
        days = dp_sgd.sample_days(inst.mean_demand, n, rng_for(args.seed, 1, n))
        start = time.perf_counter()
        mean_sol = problems.policy_optimum(net, days.mean(axis=0), q, alpha=args.alpha)
        t_mean = time.perf_counter() - start
        start = time.perf_counter()
        saa = problems.policy_optimum(net, days, q, alpha=args.alpha)
        t_saa = time.perf_counter() - start
        start = time.perf_counter()
        rexp.saa_optimum(net, days, q, args.alpha)
        t_mm = time.perf_counter() - start
        rows.append(
            {"task": "solve", "N": n, "method": f"SAA (10) QP, {saa.record.solver}", "seconds": t_saa,
             "speedup_of_mean": t_saa / t_mean}
        )  # fmt: skip
        rows.append(
            {"task": "solve", "N": n, "method": "SAA by majorisation-minimisation (3 mean-size QPs)",
             "seconds": t_mm, "speedup_of_mean": t_mm / t_mean}
        )  # fmt: skip
        rows.append(
            {"task": "solve", "N": n, "method": f"mean-demand QP, {mean_sol.record.solver}",
             "seconds": t_mean,
             "speedup_of_mean": 1.0}
        )  # fmt: skip
    table = pd.DataFrame(rows)
    table["machine"] = f"{platform.machine()} {platform.processor() or ''}".strip()
    table["commit"] = _commit()
    table["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    shown = table.drop(columns=["machine", "commit", "date"])
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    ev = table[table["task"] == "evaluate"]
    batched = ev[ev["method"] == "sample average, batched"].set_index("N")["speedup_of_mean"]
    print("evaluation speed-up of the mean demand against the batched sample average (the fair baseline):",
          ", ".join(f"N={n}: {v:.1f}x" for n, v in batched.items()))
    out = RESULTS / "routing_speedups.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False, float_format="%.6g", lineterminator="\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
