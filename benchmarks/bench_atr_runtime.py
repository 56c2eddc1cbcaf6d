"""Runtime of Algorithm 1 (corrected Theorem 1, vectorised) against the LP-bisection baselines of
Section 6.2, over the number of records |R_X| — a figure of this repository, not of the paper (the
paper argues "linear time" but measures nothing). See :mod:`safeguarded.atr.runtime`.

    SAFEGUARDED_N_JOBS=1 python benchmarks/bench_atr_runtime.py [--max-seconds 150] [--quick]

Writes ``figures/atr/runtime.{png,pdf,csv}`` and prints the log-log slopes and the speed-up of
Algorithm 1 at the largest size each baseline reached (about 8 minutes on one core).
"""

from __future__ import annotations

import argparse

from safeguarded.atr.runtime import plot_runtime, run_runtime_benchmark, runtime_summary
from safeguarded.plotting import save_figure, use_style


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seconds", type=float, default=150.0, help="budget per baseline size")
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e5 only (a smoke run)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    frame = run_runtime_benchmark(
        10**5 if args.quick else 10**7, args.max_seconds, args.seed, log=lambda s: print(s, flush=True)
    )
    summary = runtime_summary(frame)
    for m, s in summary["slopes"].items():
        print(f"log-log slope: {m} {s:.2f}")
    print(f"log-log slope of algorithm1 over its top two decades: {summary['algorithm1_top_slope']:.2f}")
    for m, (n, r) in summary["speedup"].items():
        print(f"speed-up of algorithm1 over {m} at its largest size n={n}: {r:.3g}x")
    use_style()
    frame["slope"] = frame["method"].map(summary["slopes"])
    paths = save_figure(plot_runtime(frame, summary), "atr", "runtime", data=frame)
    print("wrote", ", ".join(str(v) for v in paths.values()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
