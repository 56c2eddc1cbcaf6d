"""Cross-validation and the sweep cells of the Section 3.6 notebooks (Fig. 15, Tables 19-26).

Every cell is a module-level function ``cell(**params, seed) -> list[dict]`` for
:func:`safeguarded.experiments.run_sweep`.  Cross-validation reuses one cut model per
(split, method): cuts do not depend on eps, on alpha or on which samples a fold weights, so the
models of all folds and grid points share them (Algorithm 9 with a warm cut pool).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from safeguarded.experiments import rng_for
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_in_interval,
    check_integer,
    check_positive,
    check_rng,
    check_type,
)
from safeguarded.wasserstein_mixed.data import MixedData
from safeguarded.wasserstein_mixed.instances import UCI_SETS, load_uci, synthetic_binary, synthetic_mixed
from safeguarded.wasserstein_mixed.losses import LOSSES, make_loss, tangent_loss
from safeguarded.wasserstein_mixed.models import (
    ConicCutModel,
    Spec,
    bounded_lp,
    cutting_plane,
    make_model,
    predict,
)

__all__ = [
    "EPS_GRID_TABLES",
    "ALPHA_GRID_TABLES",
    "EPS_GRID_FIG15",
    "metric",
    "mean_loss",
    "kfold",
    "cv_fit",
    "uci_cell",
    "uci_split",
    "uci_cell_params",
    "HALF_TEST",
    "fig15_cell",
    "runtime_cell",
    "METHODS",
]

#: Tables 21-26 (L3506): eps in {0, 1e-5, 1e-3, 1e-1}; alpha in {0} u {c 10^-p : c in {1, 5}, p = 1..6}.
EPS_GRID_TABLES = (0.0, 1e-5, 1e-3, 1e-1)
ALPHA_GRID_TABLES = (0.0,) + tuple(sorted(c * 10.0**-p for c in (1, 5) for p in range(1, 7)))
#: Fig. 15 (L3461): eps in {0.005, 0.01, ..., 0.1}.
EPS_GRID_FIG15 = tuple(round(0.005 * k, 3) for k in range(1, 21))
METHODS = ("Nom", "MixF(1)", "MixF(K)", "r-Nom", "r-MixF(1)", "r-MixF(K)", "ConF(1)", "ConF(K)")


def _check_grid(name: str, values, minimum_size: int = 1) -> tuple[float, ...]:
    """A grid of radii / regularisation weights: a non-empty tuple or list of finite numbers >= 0."""
    if not isinstance(values, tuple | list) or len(values) < minimum_size:
        raise ValueError(f"{name} must be a non-empty tuple of numbers >= 0, got {name}={values!r}")
    return tuple(check_positive(name, v, allow_zero=True) for v in values)


def _check_folds(folds, n: int) -> int:
    folds = check_integer("folds", folds, minimum=2)
    if folds > n:
        raise ValueError(f"folds must be <= the number of points {n}, got folds={folds}")
    return folds


def _margin(beta, data: MixedData):
    score = predict(beta, data)
    return data.y * score if data.task == "classification" else score - data.y


def metric(beta, data: MixedData) -> float:
    """Misclassification rate (a zero score counts as an error) or mean squared error."""
    e = _margin(beta, data)
    return float(np.mean(e <= 0)) if data.task == "classification" else float(np.mean(e**2))


def mean_loss(beta, data: MixedData, loss) -> float:
    """Mean of ``loss`` over the margins (classification) or residuals (regression) of ``beta``."""
    if not callable(loss):
        raise ValueError(f"loss must be a callable loss (make_loss), got {type(loss).__name__}")
    return float(np.mean(loss(_margin(beta, data))))


def kfold(rng, n: int, folds: int) -> list[np.ndarray]:
    """``folds`` disjoint sorted index arrays covering range(n) (a random permutation cut in turn)."""
    check_rng("rng", rng)
    n = check_integer("n", n, minimum=1)
    folds = _check_folds(folds, n)
    perm = rng.permutation(n)
    return [np.sort(perm[f::folds]) for f in range(folds)]


def _weights(n, idx):
    w = np.zeros(n)
    w[idx] = 1.0 / len(idx)
    return w


def cv_fit(spec: Spec, grid: list[dict], folds: list[np.ndarray], *, use_nominal: bool = False,
           working_set: bool = False, stats: dict | None = None):
    """Choose ``grid`` point (dicts with ``eps`` and ``alpha``) by k-fold CV on ``spec.data`` (mean
    validation metric, ties broken by mean validation loss, then grid order), refit on all of it.
    ``working_set``: the Clarabel relaxations on a working set of the cuts (:class:`ConicCutModel`);
    ``stats`` (a dict) receives ``clarabel_solves``, the Clarabel calls (None for the HiGHS model).

    Returns ``(beta, chosen point, number of solves, statuses, rounds, cuts)``.
    """
    check_type("spec", spec, Spec, "a Spec")
    if not isinstance(grid, list | tuple) or not grid or not all(
        isinstance(g, dict) and {"eps", "alpha"} <= set(g) for g in grid
    ):
        raise ValueError(f"grid must be a non-empty list of dicts with keys eps and alpha, got grid={grid!r}")
    for g in grid:
        _check_grid("grid", (g["eps"], g["alpha"]))
    if not isinstance(folds, list | tuple) or not folds:
        raise ValueError(f"folds must be a non-empty list of index arrays, got folds={folds!r}")
    for f in folds:
        idx = check_array("folds", f)
        if np.any(idx != np.round(idx)) or np.any(idx < 0) or np.any(idx >= spec.data.N):
            raise ValueError(f"folds must hold indices in [0, {spec.data.N - 1}], got {f!r}")
    check_bool("use_nominal", use_nominal)
    check_bool("working_set", working_set)
    if stats is not None:
        check_type("stats", stats, dict, "a dict (or None)")
    data = spec.data
    base = dataclasses.replace(spec, alpha=0.0)
    needs_conic = any(g["alpha"] > 0 for g in grid) or not spec.loss.piecewise_affine
    model = ConicCutModel(base, working_set=working_set) if needs_conic else make_model(base)
    solves, statuses, rounds = 0, set(), 0

    def fit(point, w):
        nonlocal solves, rounds
        s = dataclasses.replace(spec, alpha=point["alpha"])
        model.spec = s
        eps = 0.0 if spec.nominal else point["eps"]
        r = cutting_plane(s, eps, w, model)
        solves += 1
        rounds += r.rounds
        statuses.add(r.status)
        return r.beta

    scores = np.zeros((len(grid), 2))
    if len(grid) > 1:
        for val in folds:
            train = np.setdiff1d(np.arange(data.N), val)
            w = _weights(data.N, train)
            vdata = data.subset(val)
            for g, point in enumerate(grid):
                beta = fit(point, w)
                scores[g] += (metric(beta, vdata), mean_loss(beta, vdata, spec.loss))
    best = min(range(len(grid)), key=lambda g: (round(scores[g, 0], 12), round(scores[g, 1], 12), g))
    beta = fit(grid[best], _weights(data.N, np.arange(data.N)))
    if stats is not None:
        stats["clarabel_solves"] = getattr(model, "solves", None)
    return beta, grid[best], solves, sorted(statuses), rounds, model.n_cuts


def _grid(eps_grid, alpha_grid):
    return [{"eps": e, "alpha": a} for a in alpha_grid for e in eps_grid]


def _check_dataset(dataset) -> str:
    if not isinstance(dataset, str) or UCI_SETS.get(dataset, (None, None))[1] is None:
        available = tuple(k for k, v in UCI_SETS.items() if v[1] is not None)
        raise ValueError(f"dataset must be one of the available UCI sets {available}, got {dataset!r}")
    return dataset


#: the half size's test parts of :func:`uci_cell` (``half_test``)
HALF_TEST = ("rest", "fifth")


def uci_split(N: int, size: str, split: int, seed: int = 0, half_test: str = "fifth"):
    """(train, test) row indices, sorted, of :func:`uci_cell`'s split ``split``: a random permutation from
    ``rng_for(seed, split, 0 | 1)`` (full | half); at ``size="half"`` its first ``N // 2`` rows are the
    available data.  The test part is the first ``floor(0.2 n)`` of the ``n`` available rows and the
    training part the rest; at half size ``half_test="rest"`` tests on every row of the ``N`` not trained
    on instead (``N - train``).  Splits are indexed, so the first 20 are those of any larger count."""
    check_integer("N", N, minimum=2)
    check_choice("size", size, ("full", "half"))
    check_integer("split", split, minimum=0)
    check_integer("seed", seed, minimum=0)
    check_choice("half_test", half_test, HALF_TEST)
    return _draw_split(_split_rng(seed, split, size), N, size, half_test)


def _split_rng(seed: int, split: int, size: str):
    """The random stream of split ``split`` at ``size``: its permutation, then (uci_cell) its folds."""
    return rng_for(seed, split, 0 if size == "full" else 1)


def _draw_split(rng, N: int, size: str, half_test: str):
    idx = rng.permutation(N)
    if size == "half":
        idx = idx[: N // 2]
    n_test = int(np.floor(0.2 * idx.size))
    train = np.sort(idx[n_test:])
    if size == "half" and half_test == "rest":
        return train, np.setdiff1d(np.arange(N), train)
    return train, np.sort(idx[:n_test])


def uci_cell_params(dataset: str, loss: str, size: str, split: int, eps_grid, alpha_grid, folds: int,
                    half_test: str = "rest") -> dict:
    """The parameters of one :func:`uci_cell` in the sweep ``wasserstein_mixed/tables21_26`` (the store's
    key is their hash).  ``half_test`` enters only at half size and only where it is not ``uci_cell``'s
    default ``"fifth"``: full-size cells keep the keys of the cells stored before the parameter existed,
    and ``half_test="fifth"`` gives the stored half-size cells' keys."""
    _check_dataset(dataset)
    check_choice("loss", loss, tuple(LOSSES))
    check_choice("size", size, ("full", "half"))
    check_integer("split", split, minimum=0)
    _check_grid("eps_grid", eps_grid)
    _check_grid("alpha_grid", alpha_grid)
    check_integer("folds", folds, minimum=2)
    check_choice("half_test", half_test, HALF_TEST)
    params = dict(dataset=dataset, loss=loss, size=size, split=int(split), eps_grid=tuple(eps_grid),
                  alpha_grid=tuple(alpha_grid), folds=int(folds))
    if size == "half" and half_test != "fifth":
        params["half_test"] = half_test
    return params


def uci_cell(
    dataset: str,
    loss: str,
    size: str,
    split: int,
    eps_grid,
    alpha_grid,
    folds: int,
    methods=METHODS,
    seed: int = 0,
    working_set: bool = False,
    half_test: str = "fifth",
) -> list[dict]:
    """One random 80/20 split (of all data, ``size="full"``, or of a random half, ``"half"``) of a UCI
    set: fit every method by CV on the training part, report the test metric (Tables 21-26).

    ``half_test`` is the half size's test part (no effect at full size, where both are the 20 %): ``"rest"``
    every row of the data set not trained on (N - train rows; the protocol the printed half-size errors
    imply, finding ``tables21-23-twenty-splits``: they lie on the grid of that test part, not of 20 % of
    the half), ``"fifth"`` the other 20 % of the random half.  The training part, its folds and the fits are
    the same under both.  The default ``"fifth"`` is the protocol of the half-size cells stored before the
    parameter existed (their parameters do not name it, so ``make verify`` recomputes them with the
    default); the notebook passes ``half_test="rest"`` in its half-size parameters, which gives those cells
    their own store keys and leaves the full-size keys as they were.

    ``working_set=True`` solves the Clarabel relaxations on a working set of the cuts
    (:class:`ConicCutModel`; the same optima to the cutting plane's tolerance, not the same digits as the
    stored cells, which use the default) and adds the column ``clarabel_solves``."""
    _check_dataset(dataset)
    check_choice("loss", loss, tuple(LOSSES))
    check_choice("size", size, ("full", "half"))
    check_integer("split", split, minimum=0)
    check_integer("seed", seed, minimum=0)
    _check_grid("eps_grid", eps_grid)
    _check_grid("alpha_grid", alpha_grid)
    check_integer("folds", folds, minimum=2)
    if not isinstance(methods, tuple | list) or not methods or any(m not in METHODS for m in methods):
        raise ValueError(f"methods must be a non-empty tuple from {METHODS}, got methods={methods!r}")
    check_bool("working_set", working_set)
    check_choice("half_test", half_test, HALF_TEST)
    data = load_uci(dataset)
    lo = make_loss(loss)
    rng = _split_rng(seed, split, size)
    train_idx, test_idx = _draw_split(rng, data.N, size, half_test)  # uci_split's; the folds come next
    test, train = data.subset(test_idx), data.subset(train_idx)
    fold_idx = kfold(rng, train.N, folds)
    rows = []
    for method in methods:
        t0 = time.perf_counter()
        kappa_y = 1.0 if method.endswith("(1)") else float(max(train.K, 1))
        reg = method.startswith("r-")
        if method in ("Nom", "r-Nom"):
            spec = Spec(train, lo, nominal=True)
            grid = _grid((0.0,), alpha_grid if reg else (0.0,))
        elif method.startswith("ConF"):
            spec = Spec(train.as_continuous(None, 1.0), lo, kappa_y=kappa_y)
            grid = _grid(eps_grid, (0.0,))
        else:
            spec = Spec(train, lo, kappa_y=kappa_y)
            grid = _grid(eps_grid, alpha_grid if reg else (0.0,))
        stats: dict = {}
        beta, point, solves, statuses, rounds, cuts = cv_fit(spec, grid, fold_idx, working_set=working_set,
                                                             stats=stats)
        test_data = test.as_continuous(None, 1.0) if method.startswith("ConF") else test
        extra = {"clarabel_solves": stats["clarabel_solves"]} if working_set else {}
        rows.append(
            {
                "method": method,
                "test_metric": metric(beta, test_data),
                "test_loss": mean_loss(beta, test_data, lo),
                "eps": point["eps"],
                "alpha": point["alpha"],
                "solves": solves,
                "rounds": rounds,
                "cuts": cuts,
                "status": ";".join(statuses),
                "seconds": time.perf_counter() - t0,
                "N_train": train.N,
                "N_test": test.N,
                **extra,
            }
        )
    return rows


def fig15_cell(
    loss: str,
    instance: int,
    discrete_counts,
    eps_grid,
    folds: int,
    N: int = 20,
    K: int = 20,
    n_test: int = 1000,
    seed: int = 0,
) -> list[dict]:
    """One synthetic instance of Fig. 15: for each number of the K binary features modelled as discrete
    (the rest unbounded continuous, ConF-style), CV eps and report the mean out-of-sample loss."""
    check_choice("loss", loss, tuple(LOSSES))
    check_integer("instance", instance, minimum=0)
    K = check_integer("K", K, minimum=1)
    if not isinstance(discrete_counts, tuple | list) or not discrete_counts or not all(
        isinstance(k, int | np.integer) and 0 <= k <= K for k in discrete_counts
    ):
        raise ValueError(f"discrete_counts must be a non-empty tuple of integers in [0, K={K}], "
                         f"got discrete_counts={discrete_counts!r}")
    _check_grid("eps_grid", eps_grid)
    N = check_integer("N", N, minimum=1)
    _check_folds(folds, N)
    check_integer("n_test", n_test, minimum=1)
    check_integer("seed", seed, minimum=0)
    lo = make_loss(loss)
    rng = rng_for(seed, instance)
    train, test = synthetic_binary(rng, N, K, lo.task, n_test=n_test)
    fold_idx = kfold(rng, N, folds)
    rows = []
    for k in discrete_counts:
        mask = np.arange(K) >= k  # the first k features stay discrete
        tr, te = train.as_continuous(mask, 1.0), test.as_continuous(mask, 1.0)
        spec = Spec(tr, lo, kappa_z=1.0, kappa_y=1.0, p=1.0)
        t0 = time.perf_counter()
        beta, point, solves, statuses, rounds, cuts = cv_fit(spec, _grid(eps_grid, (0.0,)), fold_idx)
        rows.append(
            {
                "loss": loss,
                "discrete": int(k),
                "test_loss": mean_loss(beta, te, lo),
                "eps": point["eps"],
                "solves": solves,
                "status": ";".join(statuses),
                "seconds": time.perf_counter() - t0,
            }
        )
    return rows


def runtime_cell(
    loss: str,
    N: int,
    share: float,
    dataset: int,
    J=(),
    eps: float = 1e-2,
    n_features: int = 30,
    time_limit: float = 300.0,
    seed: int = 0,
) -> list[dict]:
    """Tables 19-20: the same instance solved by the cutting plane (Algorithm 9; HiGHS in place for
    piecewise-affine losses, native Clarabel otherwise) and by the monolithic bounded LP (56') with the
    exact loss (Table 19) or its ``piece[J]`` tangent approximations (Table 20), side by side."""
    check_choice("loss", loss, tuple(LOSSES))
    check_integer("N", N, minimum=1)
    check_in_interval("share", share, 0.0, 1.0, closed="both")
    check_integer("dataset", dataset, minimum=0)
    if not isinstance(J, tuple | list) or not all(
        isinstance(j, int | np.integer) and not isinstance(j, bool) and j >= 2 for j in J
    ):
        raise ValueError(f"J must be a tuple of integers >= 2 (tangent counts), got J={J!r}")
    check_positive("eps", eps, allow_zero=True)
    check_integer("n_features", n_features, minimum=1)
    check_positive("time_limit", time_limit)
    check_integer("seed", seed, minimum=0)
    lo = make_loss(loss, {"pinball": 0.5, "eps_insensitive": 1e-2, "huber": 0.05}.get(loss))
    rng = rng_for(seed, N, int(round(100 * share)), dataset)
    data = synthetic_mixed(rng, N, n_features, share, lo.task)
    spec = Spec(data, lo, kappa_z=1.0, kappa_y=float(data.K), p=1.0)
    rows = []
    cut = cutting_plane(spec, eps, time_limit=time_limit)
    rows.append(
        {
            "method": "cut",
            "J": 0,
            "seconds": cut.seconds,
            "status": cut.status,
            "objective": cut.objective,
            "rounds": cut.rounds,
            "cuts": cut.cuts_added,
            "solver": cut.solver,
        }
    )
    pieces = [(0, lo)] if lo.piecewise_affine else [(j, tangent_loss(lo, int(j))) for j in J]
    # HiGHS's faster method per model (benchmarks/bench_wasserstein_mixed.py, N = 500, 50%): simplex for the
    # exact piecewise-affine losses (hinge 1.6 s vs ipm 8.8 s), interior point for the tangent models
    # (log-loss piece[5]: ipm 84 s, simplex > 300 s)
    lp_solver = "simplex" if lo.piecewise_affine else "ipm"
    for j, pl in pieces:
        r = bounded_lp(dataclasses.replace(spec, loss=pl), eps, time_limit=time_limit, lp_solver=lp_solver)
        rows.append(
            {
                "method": "piece",
                "J": int(j),
                "seconds": r.seconds,
                "status": r.status,
                "objective": r.objective,
                "rounds": 1,
                "cuts": 0,
                "solver": f"{r.solver} {lp_solver}",
            }
        )
    return rows


MIXF_FAMILY = ("MixF(1)", "MixF(K)", "r-MixF(1)", "r-MixF(K)")


def _paired_less(a, b, level: float) -> bool:
    """One-sided paired t-test ``mean(a - b) < 0`` at ``level`` (False with fewer than 2 pairs)."""
    from scipy.stats import ttest_rel

    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.size < 2 or np.allclose(a, b):
        return False
    return bool(ttest_rel(a, b, alternative="less").pvalue < level)


def uci_table(results, task: str, level: float = 0.05):
    """Tables 21-26 from the per-split rows of :func:`uci_cell`: per data set and method
    ``"full / half"`` means (% error, or MSE x 10^3), with the thesis's markers computed by a one-sided
    paired t-test over splits at ``level``: when a mixed-feature variant is best in its row, dagger if it
    beats Nom and r-Nom, double dagger if it beats the better ConF.

    Returns ``(formatted table, numeric means (dataset, size, method) -> mean)``.
    """
    import pandas as pd

    scale = 100.0 if task == "classification" else 1000.0
    df = results.assign(value=results["test_metric"] * scale)
    means = df.groupby(["dataset", "size", "method"])["value"].mean()
    rows = []
    for ds in dict.fromkeys(df["dataset"]):
        row = {"dataset": ds}
        cells = {m: [] for m in METHODS}
        for size in ("full", "half"):
            part = df[(df["dataset"] == ds) & (df["size"] == size)]
            if part.empty:
                for m in METHODS:
                    cells[m].append("-")
                continue
            wide = part.pivot_table(index="split", columns="method", values="value")
            mu = wide.mean()
            best = mu.idxmin()
            marks = {m: "" for m in METHODS}
            if best in MIXF_FAMILY:
                if _paired_less(wide[best], wide["Nom"], level) and _paired_less(
                    wide[best], wide["r-Nom"], level
                ):
                    marks[best] += "†"
                conf = "ConF(1)" if mu["ConF(1)"] <= mu["ConF(K)"] else "ConF(K)"
                if _paired_less(wide[best], wide[conf], level):
                    marks[best] += "‡"
            for m in METHODS:
                cells[m].append(f"{mu[m]:.2f}{marks[m]}" if m in mu else "-")
        for m in METHODS:
            row[m] = " / ".join(cells[m])
        rows.append(row)
    return pd.DataFrame(rows), means
