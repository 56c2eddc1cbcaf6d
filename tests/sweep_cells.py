"""Cell functions for the sweep tests (module-level, so worker processes can import them)."""

import os
import time

from safeguarded.experiments import rng_for


def noisy_mean(mu, n, seed):
    """The mean of n N(mu, 1) draws, generated only from the explicit seed."""
    x = rng_for(seed).normal(mu, 1.0, size=n)
    return {"mean": float(x.mean())}


def logged_slow(k, seed, log=None, delay=0.0):
    """Appends one line per call to the file ``log`` so that tests can count computations."""
    time.sleep(delay)
    with open(log or os.environ["SWEEP_LOG"], "a") as f:
        f.write(f"{k},{seed}\n")
    return [{"value": k * 10 + seed}, {"value": -(k * 10 + seed)}]


# --- fault injection (tests/test_faults.py) -------------------------------------------------------


def fault_cell(k, seed, log=None):
    """Two rows per cell; passes the ``"cell"`` fault point (a hook may SIGKILL the process there)."""
    from pathlib import Path

    from safeguarded import experiments

    experiments._fault("cell", Path(f"cell-{k}-{seed}"))
    if log:
        with open(log, "a") as f:
            f.write(f"{k},{seed}\n")
    x = rng_for(seed, k).normal(size=3)
    return [{"row": 0, "value": float(x.sum())}, {"row": 1, "value": float(x.max())}]


FAULT_PARAMS = [{"k": k} for k in range(3)]
FAULT_SEEDS = [0, 1]


def kill_driver(root, scenarios):
    """For each (point, occurrence): fork a child that runs the fault sweep in ``root/<i>`` and SIGKILLs
    itself at that occurrence of the fault point; record how it ended and the files it left.

    Runs in a fresh single-threaded interpreter (so fork is safe); writes ``root/report.json``.
    """
    import json
    import signal
    from pathlib import Path

    from safeguarded import experiments, results

    root = Path(root)
    report = []
    for i, (point, occurrence) in enumerate(scenarios):
        folder = root / str(i)
        log = root / f"log-{i}.txt"
        pid = os.fork()
        if pid == 0:  # the child: run the sweep until the hook kills it
            seen = 0

            def hook(p, path, point=point, occurrence=occurrence):
                nonlocal seen
                if p == point:
                    seen += 1
                    if seen == occurrence:
                        os.kill(os.getpid(), signal.SIGKILL)

            experiments._fault_hook = hook
            results._fault_hook = hook
            try:
                experiments.run_sweep(
                    fault_cell,
                    [{**p, "log": str(log)} for p in FAULT_PARAMS],
                    FAULT_SEEDS,
                    name="f",
                    cache_dir=folder,
                    backend="sequential",
                )
            finally:
                os._exit(3)  # not killed: the scenario is wrong
        _, status = os.waitpid(pid, 0)  # reaped: the killed process is gone before the resume
        version = folder / "f" / "v1"
        files = sorted(p.name for p in version.iterdir()) if version.is_dir() else []
        report.append(
            {
                "point": point,
                "occurrence": occurrence,
                "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
                "files": files,
                "computed_before": log.read_text().splitlines() if log.exists() else [],
            }
        )
    (root / "report.json").write_text(json.dumps(report))


def rendezvous_cell(k, seed, sync):
    """Waits (on files, at most 180 s) until two processes compute this cell, so that two concurrent
    sweeps write every cell at the same time."""
    from pathlib import Path

    sync = Path(sync)
    sync.mkdir(exist_ok=True)
    (sync / f"{k}-{seed}-{os.getpid()}").touch()
    deadline = time.monotonic() + 180
    while len(list(sync.glob(f"{k}-{seed}-*"))) < 2:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the other sweep never reached cell k={k} seed={seed}")
        time.sleep(0.005)
    x = rng_for(seed, k).normal(size=1000)
    return {"value": float(x.mean()), "payload": x.tolist()}


def dying_cell(k, seed, die_at, flag, parent_pid):
    """SIGKILLs its (worker) process at cell ``die_at`` while the file ``flag`` exists."""
    import signal

    if k == die_at and os.path.exists(flag):
        if os.getpid() == parent_pid:
            raise RuntimeError("dying_cell must run in a worker process, not in the test process")
        os.kill(os.getpid(), signal.SIGKILL)
    return {"value": float(rng_for(seed, k).normal())}


def solver_cell(bound, seed, solver="HIGHS"):
    """min x s.t. x >= bound, x <= 1 (infeasible for bound > 1); SCS with 3 iterations is inaccurate."""
    import cvxpy as cp

    from safeguarded.solvers import solve

    x = cp.Variable()
    if solver == "SCS":
        y = cp.Variable(3)
        a = rng_for(seed).normal(size=(5, 3))
        problem = cp.Problem(cp.Minimize(cp.norm(a @ y - 1) + cp.sum_squares(y)), [cp.norm(y) <= 1])
        record = solve(problem, name="sweep_cells.scs", solver="SCS", max_iters=3)
    else:
        problem = cp.Problem(cp.Minimize(x), [x >= bound, x <= 1])
        record = solve(problem, name="sweep_cells.lp", solver=solver, problem_class="LP")
    return {"objective": record.objective, "solver": record.solver}


def memory_cell(mb, seed, k=0):
    """Holds an ``mb`` MiB array (touched, so resident) and reports the worker's pid."""
    import numpy as np

    x = np.ones(int(mb * 2**20 / 8))
    return {"pid": os.getpid(), "total": float(x.sum())}


def unstorable_cell(k, seed):
    """Returns a set, which the results store cannot hold (a cell must return plain values)."""
    return {"members": {k, seed}}
