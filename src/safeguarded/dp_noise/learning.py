"""The §1 noises of the UCI tables (thesis Tables 2 and 3) and their sweep cells.

The learning algorithms, data sets and summaries are shared with §2 and live in
:mod:`safeguarded.dp_learning`; this module builds the noises §1 compares — the classical and analytic
Gaussian, the truncated Laplace, the LP-optimal "OPT" and the data-dependent "(OPT)" — and runs one
(data set, split) with them (:func:`pcd_cell` for Table 3, :func:`nb_cell` for Table 2).
"""

from __future__ import annotations

import functools

import numpy as np

from safeguarded.dp_learning.datasets import LOADINGS
from safeguarded.dp_learning.naive_bayes import UNSEEN_RULES
from safeguarded.dp_learning.tables import nb_split, pcd_split
from safeguarded.dp_noise import mechanisms as mech
from safeguarded.validation import check_choice, check_integer, check_positive, check_type

__all__ = [
    "opt_noise_pcd",
    "dd_noise_pcd",
    "dd_noise_nb",
    "NOISE_SETS",
    "compared_noises",
    "pcd_cell",
    "nb_cell",
    "nb_variant_errors",
    "authors_noise_streams",
    "shared_draw_spread",
    "VARIANT_METHODS",
    "side_summary",
]


def opt_noise_pcd(epsilon=1.0, delta=0.1, sensitivity=2.0, k=50):
    """The OPT noise of Table 3: the DI upper-bound LP P(L, β) for ℓ1 (L990), Δ = 1, scaled to Δ = 2.

    Support ±Λ (supp. rule) and β = 1/k at Δ = 1; scale equivariance (catalog §3.2 item 7).
    """
    epsilon, delta, sensitivity = mech.validate_privacy(epsilon, delta, sensitivity)
    check_integer("k", k, minimum=1)
    edges, masses = _opt_noise_unit(float(epsilon), float(delta), int(k))
    return mech.PiecewiseUniformNoise(edges * sensitivity, masses, name="OPT")


@functools.lru_cache(maxsize=16)
def _opt_noise_unit(epsilon: float, delta: float, k: int, loss: str = "l1"):
    """Edges and masses of the Δ = 1 OPT noise for ``loss``, cached per process (every sweep cell reuses
    the LP)."""
    from safeguarded.dp_noise import bounds as bd

    lam = bd.support_rule(epsilon, delta)
    res = bd.upper_bound(epsilon, delta, bd.uniform_partition(lam * k, k), loss)
    return res.partition.edges, res.masses


def dd_noise_pcd(epsilon=1.0, delta=0.1, sensitivity=2.0, k=4, penalty=1000.0):
    """Table 3's data-dependent (OPT) noise (L990; supp. p.6): 42 distributions for the gradient-sum
    intervals (−∞, −10), 0.5-wide cells of [−10, 10), [10, ∞), under the sign-preserving loss
    (:func:`safeguarded.dp_noise.data_dependent.sign_preserving_noise`).

    [DECIDE] noise cells β = Δ/k (k = 4: β = 0.5, the Φ cell width; the repo's grid is not stated),
    support the supplement's rule, penalty slope 1,000 (the text; the repo's ``obj == 11`` uses 10,000),
    uniform weights.  Cached per process.  The object's ``sample(rng, sums)`` draws given the sums.
    """
    epsilon, delta, sensitivity = mech.validate_privacy(epsilon, delta, sensitivity)
    check_integer("k", k, minimum=1)
    check_positive("penalty", penalty)
    return _dd_noise_pcd(float(epsilon), float(delta), float(sensitivity), int(k), float(penalty))


def dd_noise_nb(epsilon=1.0, delta=0.1, sensitivity=1.0, k=4):
    """Table 2's data-dependent (OPT) noise for naive Bayes (supp. p.9: "the function range into 7
    intervals … non-uniformly"), for a statistic of sensitivity 1; each statistic's value is passed in
    units of its sensitivity and the noise scaled back (scale equivariance).

    [DECIDE] the 7 intervals (−∞, 0), [0, 1), [1, 2), [2, 3), [3, 5), [5, 10), [10, ∞) (in sensitivities;
    the supplement does not give them): fine where the clipping of counts at 0 matters, one interval for
    everything far from it; ℓ1 loss (the text's, L940), noise cells β = 1/k, the support rule, uniform
    weights.  Cached per process.
    """
    epsilon, delta, sensitivity = mech.validate_privacy(epsilon, delta, sensitivity)
    check_integer("k", k, minimum=1)
    return _dd_noise_nb(float(epsilon), float(delta), float(sensitivity), int(k))


@functools.lru_cache(maxsize=4)
def _dd_noise_nb(epsilon, delta, sensitivity, k):
    from safeguarded.dp_noise.data_dependent import interval_noise

    breaks = np.array([0.0, 1.0, 2.0, 3.0, 5.0, 10.0]) * sensitivity
    noise, _ = interval_noise(epsilon, delta, sensitivity, breaks, k=k, loss="l1")
    return noise


@functools.lru_cache(maxsize=4)
def _dd_noise_pcd(epsilon, delta, sensitivity, k, penalty):
    from safeguarded.dp_noise.data_dependent import sign_preserving_noise

    beta = sensitivity / k
    noise, _ = sign_preserving_noise(
        epsilon, delta, sensitivity, k=k, phi_cell=max(0.5, beta), phi_range=10.0, penalty=penalty
    )
    return noise


#: The mechanisms each table compares (besides the non-private baseline), in table order.
NOISE_SETS = {
    "table3": ("GN", "(GN)", "TLN", "OPT"),  # Tables 2 and 3, data-independent noises
    "table3_dd": ("GN", "(GN)", "TLN", "OPT", "(OPT)"),  # with the data-dependent (OPT)
}


def compared_noises(baseline: str, epsilon, delta, sensitivity, *, noises: str = "table3", opt_k: int = 50,
                    dd_k: int = 4) -> dict:  # fmt: skip
    """The noises a table compares, in table order: the non-private ``baseline`` (None), then
    ``NOISE_SETS[noises]``: classical ("GN") and analytic ("(GN)") Gaussian, truncated Laplace ("TLN"),
    the LP-optimal noise ("OPT", :func:`opt_noise_pcd` with ``opt_k``) and the data-dependent "(OPT)"
    (:func:`dd_noise_pcd`, or :func:`dd_noise_nb` for the ``"NB"`` baseline, with ``dd_k``; its
    ``sample(rng, values)`` draws given the released values).  Every noise has ``sample(rng, size)``."""
    mech.validate_privacy(epsilon, delta, sensitivity)
    check_choice("noises", noises, tuple(NOISE_SETS))
    check_integer("opt_k", opt_k, minimum=1)
    check_integer("dd_k", dd_k, minimum=1)
    check_choice("baseline", baseline, ("PCD", "NB"))
    builders = {
        "GN": lambda: mech.ClassicalGaussian(epsilon, delta, sensitivity),
        "(GN)": lambda: mech.AnalyticGaussian(epsilon, delta, sensitivity),
        "TLN": lambda: mech.TruncatedLaplace(epsilon, delta, sensitivity),
        "OPT": lambda: opt_noise_pcd(epsilon, delta, sensitivity, opt_k),
        "(OPT)": lambda: (dd_noise_nb if baseline == "NB" else dd_noise_pcd)(
            epsilon, delta, sensitivity, dd_k
        ),
    }
    return {baseline: None, **{name: builders[name]() for name in NOISE_SETS[noises]}}


def _check_cell(dataset, split, n_sims, seed, iterations=None) -> None:
    """The cell's own arguments, checked before any noise is built or data loaded."""
    from safeguarded.dp_learning.datasets import DATASETS

    check_type("dataset", dataset, str, "a data set name")
    check_choice("dataset", dataset, tuple(DATASETS))
    check_integer("split", split, minimum=0)
    check_integer("n_sims", n_sims, minimum=1)
    if iterations is not None:
        check_integer("iterations", iterations, minimum=1)
    check_integer("seed", seed, minimum=0)


def pcd_cell(dataset, split, n_sims=100, iterations=100, epsilon=1.0, delta=0.1, opt_k=50, seed=0,
             noises="table3", dd_k=4):  # fmt: skip
    """One (data set, split) of Table 3: PCD, GN, (GN), TLN, OPT (``noises="table3"``) and the
    data-dependent (OPT) with noise cells Δ/``dd_k`` (``"table3_dd"``), Δ = 2: mean train/test errors
    over ``n_sims`` noise simulations of each method and their mean squares
    (:func:`safeguarded.dp_learning.tables.pcd_split`)."""
    _check_cell(dataset, split, n_sims, seed, iterations)
    samplers = compared_noises("PCD", epsilon, delta, 2.0, noises=noises, opt_k=opt_k, dd_k=dd_k)
    return pcd_split(dataset, split, samplers, n_sims=n_sims, iterations=iterations, seed=seed)


def nb_cell(dataset, split, n_sims=100, epsilon=1.0, delta=0.1, opt_k=50, seed=0, noises="table3", dd_k=4):
    """One (data set, split) of Table 2: mean in/out-of-sample errors of NB, GN, (GN), TLN and OPT
    (``noises="table3"``) and the data-dependent (OPT) (``"table3_dd"``, :func:`dd_noise_nb`)
    (:func:`safeguarded.dp_learning.tables.nb_split`).

    OPT: the DI upper-bound LP P(L, β) for ℓ1 (the thesis' text, L940; [DECIDE] vs the supplement's ℓ2)
    at Δ = 1, scaled by each statistic's sensitivity.
    """
    _check_cell(dataset, split, n_sims, seed)
    samplers = compared_noises("NB", epsilon, delta, 1.0, noises=noises, opt_k=opt_k, dd_k=dd_k)
    return nb_split(dataset, split, samplers, n_sims=n_sims, seed=seed)


#: Methods :func:`nb_variant_errors` can run (the noises of Table 2 without the data-dependent (OPT)).
VARIANT_METHODS = ("NB", "GN", "(GN)", "TLN", "OPT")


def _check_methods(methods, valid: tuple) -> None:
    if isinstance(methods, str) or not methods:
        raise ValueError(f"methods must be a non-empty sequence of {valid}, got methods={methods!r}")
    for m in methods:
        check_choice("methods", m, valid)


def _scaled_noises(noise_factor: float) -> dict:
    """Table 2's GN, (GN) and TLN at (1, 0.1) with their noise scales multiplied by ``noise_factor``."""
    return {
        "GN": mech.ClassicalGaussian(1.0, 0.1, noise_factor),
        "(GN)": mech.AnalyticGaussian(1.0, 0.1, noise_factor),
        "TLN": mech.TruncatedLaplace(1.0, 0.1, noise_factor),
    }


def nb_variant_errors(dataset, *, scale=1.0, noise_factor=1.0, opt_loss="l1", methods=VARIANT_METHODS,
                      splits=5, n_sims=100, seed=0, opt_k=50, loading="mirror",
                      unseen="floor") -> dict:  # fmt: skip
    """Table 2's errors (%) of ``methods`` on ``dataset`` under one change of the setting, for the
    deviation experiments of ``notebooks/dp_noise_table02.ipynb``: every numeric feature multiplied by
    ``scale`` (the thesis's cleaned files are not public; with the repo's sd floor of 1 and its rounded-up
    sensitivities the errors depend on the features' scale), the GN/(GN)/TLN noise scales multiplied by
    ``noise_factor``, OPT optimised for ``opt_loss`` (``"l1"``, the text L940, or ``"l2"``, the
    supplement's "noise power"), the data read as ``loading`` says (``"matched"``: the thesis's data
    table, :data:`safeguarded.dp_learning.datasets.MATCHED`) and unseen category levels scored as
    ``unseen`` says (:data:`safeguarded.dp_learning.naive_bayes.UNSEEN_RULES`).  Splits and noise seeds as
    :func:`nb_cell` (``rng_for(seed, split)``).

    Returns {method: (in-sample mean, out-of-sample mean, in-sample standard error over the splits,
    in-sample and out-of-sample standard deviations of single noise draws within a split, pooled,
    out-of-sample standard error over the splits)}.
    """
    import dataclasses

    from safeguarded.dp_learning.datasets import load_nb_data, train_test_split_indices
    from safeguarded.dp_learning.naive_bayes import dp_naive_bayes_errors
    from safeguarded.experiments import rng_for

    _check_cell(dataset, 0, n_sims, seed)
    check_positive("scale", scale)
    check_positive("noise_factor", noise_factor)
    check_choice("opt_loss", opt_loss, ("l1", "l2"))
    check_choice("loading", loading, LOADINGS)
    check_choice("unseen", unseen, UNSEEN_RULES)
    check_integer("splits", splits, minimum=2)
    check_integer("opt_k", opt_k, minimum=1)
    _check_methods(methods, VARIANT_METHODS)
    noises = {"NB": None, **_scaled_noises(noise_factor)}
    if "OPT" in methods:
        noises["OPT"] = mech.PiecewiseUniformNoise(*_opt_noise_unit(1.0, 0.1, opt_k, opt_loss), name="OPT")
    samplers = {m: noises[m] for m in methods}
    data = load_nb_data(dataset, loading)
    data = dataclasses.replace(data, num=data.num * float(scale))
    errors = {m: [] for m in samplers}
    for split in range(splits):
        tr, te = train_test_split_indices(len(data.y), rng_for(seed, split))
        for i, (m, noise) in enumerate(samplers.items()):
            err = dp_naive_bayes_errors(
                data, tr, [tr, te], rng_for(seed, split, 2 + i), noise=noise, n_sims=n_sims, unseen=unseen
            )
            errors[m].append(err)
    out = {}
    for m, rows in errors.items():
        arr = 100 * np.array(rows)  # splits x 2 x n_sims
        means = arr.mean(axis=2)
        within = np.sqrt(arr.var(axis=2, ddof=1).mean(axis=0)) if arr.shape[2] > 1 else np.zeros(2)
        out[m] = (
            float(means[:, 0].mean()),
            float(means[:, 1].mean()),
            float(means[:, 0].std(ddof=1) / np.sqrt(splits)),
            float(within[0]),
            float(within[1]),
            float(means[:, 1].std(ddof=1) / np.sqrt(splits)),
        )
    return out


def authors_noise_streams(dataset, splits=100, seed=0) -> float:
    """How many independent noise draws per simulation the authors' Table 2 means average, per 1,000 seeds.

    ``main.jl`` reseeds ``Random.seed!(sim)``, sim = 1 … 1,000, in every split, and ``sensitivities.jl``
    draws one noise per (feature, class, category) key seen in training, then per class count, then per
    mean and sd: two splits with the same number K of such keys give every statistic the same noise.  The
    1,000 × 100 draws are therefore 1,000 × m independent ones, m = 1/Σ_K p_K² (p_K the share of splits with
    K keys, here over our ``splits`` seeded splits as a stand-in for the authors').  Returns m.
    """
    from safeguarded.dp_learning.datasets import load_nb_data, train_test_split_indices
    from safeguarded.experiments import rng_for

    _check_cell(dataset, 0, 1, seed)
    check_integer("splits", splits, minimum=1)
    data = load_nb_data(dataset)
    keys = []
    for split in range(splits):
        tr, _ = train_test_split_indices(len(data.y), rng_for(seed, split))
        y = data.y[tr]
        keys.append(
            sum(
                len(np.unique(data.cat[tr, v][y == c]))
                for v in range(len(data.levels))
                for c in range(data.n_classes)
            )
        )
    _, counts = np.unique(keys, return_counts=True)
    shares = counts / counts.sum()
    return float(1.0 / np.sum(shares**2))


def shared_draw_spread(dataset, *, methods=("GN", "(GN)", "TLN", "OPT"), splits=10, n_sims=1000, seed=0,
                       opt_k=50, noise_factor=1.0) -> dict:  # fmt: skip
    """The spread of one noise draw's error averaged over splits, when every split uses the same draws.

    ``main.jl`` reseeds ``Random.seed!(sim)`` in every split, so (where the splits draw the same number of
    noises, :func:`authors_noise_streams`) simulation ``sim`` perturbs every split's statistics with the same
    noise.  Here every split draws from ``rng_for(seed, 0, 2 + i)`` as well; the standard deviation over the
    ``n_sims`` simulations of the split-averaged error, divided by √(1,000·m), is the Monte-Carlo standard
    error of the thesis's 100 × 1,000 mean (for ``splits`` → 100; with fewer splits it errs on the large
    side by the split-specific part / ``splits``).  ``noise_factor`` multiplies the GN/(GN)/TLN noise scales
    as in :func:`nb_variant_errors`.

    Returns {method: (in-sample sd, out-of-sample sd)} in percentage points.
    """
    from safeguarded.dp_learning.datasets import load_nb_data, train_test_split_indices
    from safeguarded.dp_learning.naive_bayes import dp_naive_bayes_errors
    from safeguarded.experiments import rng_for

    _check_cell(dataset, 0, n_sims, seed)
    check_integer("splits", splits, minimum=1)
    check_integer("n_sims", n_sims, minimum=2)
    check_positive("noise_factor", noise_factor)
    _check_methods(methods, VARIANT_METHODS[1:])
    noises = compared_noises("NB", 1.0, 0.1, 1.0, opt_k=opt_k)
    if noise_factor != 1.0:
        noises.update(_scaled_noises(noise_factor))
    data = load_nb_data(dataset)
    total = {m: np.zeros((2, n_sims)) for m in methods}
    for split in range(splits):
        tr, te = train_test_split_indices(len(data.y), rng_for(seed, split))
        for i, m in enumerate(methods):
            total[m] += dp_naive_bayes_errors(data, tr, [tr, te], rng_for(seed, 0, 2 + i), noise=noises[m],
                                              n_sims=n_sims)  # fmt: skip
    return {m: tuple(float(x) for x in 100 * (t / splits).std(axis=1, ddof=1)) for m, t in total.items()}


def side_summary(kind: str, names, loading: str = "matched", *, splits: int = 20, n_sims: int = 100,
                 seed: int = 0, iterations: int = 100, unseen: str = "floor", opt_k: int = 50,
                 dd_k: int = 4, epsilon: float = 1.0, delta: float = 0.1):  # fmt: skip
    """Table 2 (``kind="nb"``) or Table 3 (``"pcd"``) on the data sets ``names`` under one variant of the
    data (``loading``, :data:`safeguarded.dp_learning.datasets.LOADINGS`) and, for NB, of the unseen-level
    rule (``unseen``), at the counts given: the deviation experiments of ``notebooks/dp_noise_table02`` and
    ``dp_noise_table03`` (a side run beside the table's sweep, the same noises, at (``epsilon``, ``delta``)
    = (1, 0.1) as the tables unless given, and the same seeds).
    One row per data set as :func:`safeguarded.dp_learning.tables.summarise_runs` gives it (errors in %)."""
    from safeguarded.dp_learning.tables import check_names, variant_summary

    check_choice("kind", kind, ("nb", "pcd"))
    check_names(names)
    check_choice("loading", loading, LOADINGS)
    check_choice("unseen", unseen, UNSEEN_RULES)
    check_integer("splits", splits, minimum=2)
    check_integer("n_sims", n_sims, minimum=1)
    check_integer("seed", seed, minimum=0)
    check_integer("iterations", iterations, minimum=1)
    baseline = "NB" if kind == "nb" else "PCD"
    samplers = compared_noises(baseline, epsilon, delta, 1.0 if kind == "nb" else 2.0, noises="table3_dd",
                               opt_k=opt_k, dd_k=dd_k)  # fmt: skip
    return variant_summary(kind, names, samplers, compare=("TLN", "OPT"), baseline=baseline, splits=splits,
                           n_sims=n_sims, seed=seed, iterations=iterations, loading=loading, unseen=unseen)
