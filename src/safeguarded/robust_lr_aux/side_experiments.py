"""App. 4.D.1's two side experiments on the UCI data (thesis L4858 and L4860–L4870).

* **Reversed split** (L4860, L4870): "If we reverse these proportions and use 45% of the original dataset
  for training and 15% for generating auxiliary data instead ...".  The test set stays the first 40 % of the
  permutation; the training and generator shares of :func:`safeguarded.robust_lr_aux.data.uci_split_sizes`
  are swapped, so N and N̂ of the original split trade places.  The text does not say how many synthetic rows
  are drawn; we keep the original rule, N̂ = the number of rows that fit the synthesiser [DECIDE].
* **Uniform-marginal synthesiser** (L4858): "modifying the Gaussian copula synthesizer to enforce uniform
  marginals (which results in significant information loss)".  :class:`UniformMarginalCopula` keeps the
  copula's correlation of :class:`~safeguarded.robust_lr_aux.data.GaussianCopula` and replaces each marginal
  by a uniform one: a numerical column uniform on [min, max] of the generator rows, a categorical column
  (the label included) uniform over its observed categories [DECIDE: "uniform marginals" is all the text
  says].

Both reuse the §4.7.1 pipeline unchanged (encoder, methods, cross-validation of
:func:`safeguarded.robust_lr_aux.cv.run_methods`).  They live in this module rather than as options of
``data.uci_simulation`` / ``cv.uci_cell`` so that adding them leaves the code closure, hence the cache keys,
of the Tables 27/30/31 cells unchanged (:mod:`safeguarded.experiments`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from safeguarded.experiments import rng_for
from safeguarded.robust_lr_aux import cv
from safeguarded.robust_lr_aux.data import (
    UCI_DATASETS,
    UCI_UNAVAILABLE,
    Encoder,
    GaussianCopula,
    raw_uci_frame,
    uci_split_sizes,
)
from safeguarded.robust_lr_aux.models import check_beta_bound
from safeguarded.validation import check_choice, check_integer, check_positive, check_rng

__all__ = ["VARIANTS", "UniformMarginalCopula", "variant_simulation", "uci_variant_cell"]

#: The side experiments: the training/generator shares of the split and the synthesiser's marginals.
VARIANTS = ("reversed-split", "uniform-marginals")


class UniformMarginalCopula(GaussianCopula):
    """The Gaussian copula of the UCI experiments with every marginal made uniform (L4858)."""

    def sample(self, rng: np.random.Generator, m: int) -> pd.DataFrame:
        check_rng("rng", rng)
        m = check_integer("m", m, minimum=1)
        U = norm.cdf(rng.multivariate_normal(np.zeros(len(self.columns)), self.corr, size=m, method="eigh"))
        out = {}
        for k, c in enumerate(self.columns):
            u = U[:, k]
            if self.kinds[c] == "numeric":
                lo, hi = self.support[c][0], self.support[c][-1]
                out[c] = lo + u * (hi - lo)
            else:
                cats = self.support[c][0]
                out[c] = np.array(cats, dtype=object)[np.minimum((u * len(cats)).astype(int), len(cats) - 1)]
        frame = pd.DataFrame(out, columns=self.columns)
        frame["__label__"] = frame["__label__"].astype(float)
        return frame


def variant_simulation(name: str, variant: str, rng: np.random.Generator) -> dict:
    """One simulation of a side experiment: the §4.7.1 split and synthesis with ``variant`` applied.

    ``"reversed-split"``: 40 % test, then 45 % training and 15 % for the (Gaussian-copula) synthesiser;
    ``"uniform-marginals"``: the original 40 / 15 / 45 % split with :class:`UniformMarginalCopula`.
    """
    available = [k for k in UCI_DATASETS if k not in UCI_UNAVAILABLE]
    if not isinstance(name, str) or name not in available:
        raise ValueError(f"name must be one of the available sets {available}, got name={name!r}")
    check_choice("variant", variant, VARIANTS)
    check_rng("rng", rng)
    frame = raw_uci_frame(name)
    enc = Encoder.fit(frame, intercept=True)
    n_tr, n_gen, n_te = uci_split_sizes(len(frame))
    if variant == "reversed-split":
        n_tr, n_gen = n_gen, n_tr
    perm = rng.permutation(len(frame))
    test, train, rest = perm[:n_te], perm[n_te : n_te + n_tr], perm[n_te + n_tr :]
    synthesiser = UniformMarginalCopula if variant == "uniform-marginals" else GaussianCopula
    synth = synthesiser(frame.iloc[rest]).sample(rng, n_gen)
    X, y = enc.transform(frame.iloc[train])
    Xa, ya = enc.transform(synth)
    Xt, yt = enc.transform(frame.iloc[test])
    return {"X": X, "y": y, "X_aux": Xa, "y_aux": ya, "X_test": Xt, "y_test": yt, "total": len(frame)}


def uci_variant_cell(dataset, variant, alpha, eps, eps_hat, weights, kappas, folds, eps_inter=None,
                     beta_bound=100.0, cg_threshold=2000, max_aux=None, seed=0):
    """One (data set, variant, α, simulation) of a side experiment: ℓ₂ attacks, ℓ₁ metric; rows per method.

    The same methods, grids and cross-validation as :func:`safeguarded.robust_lr_aux.cv.uci_cell`;
    ``max_aux`` keeps only the first ``max_aux`` synthetic rows (smoke runs).
    """
    available = [k for k in UCI_DATASETS if k not in UCI_UNAVAILABLE]
    if not isinstance(dataset, str) or dataset not in available:
        raise ValueError(f"dataset must be one of the available sets {available}, got dataset={dataset!r}")
    check_choice("variant", variant, VARIANTS)
    check_positive("alpha", alpha, allow_zero=True)
    check_integer("seed", seed, minimum=0)
    for key, value in (("eps", eps), ("eps_hat", eps_hat), ("weights", weights), ("kappas", kappas),
                       ("eps_inter", eps_inter)):
        if (value is not None or key != "eps_inter") and not isinstance(value, tuple | list):
            raise ValueError(f"{key} must be a tuple, got {key}={value!r}")
    folds = check_integer("folds", folds, minimum=2)
    eps_inter = None if eps_inter is None else tuple(eps_inter)
    grids = cv.Grids(tuple(eps), tuple(eps_hat), tuple(weights), tuple(kappas), folds, eps_inter)
    check_beta_bound(beta_bound)
    check_integer("cg_threshold", cg_threshold, minimum=0)
    if max_aux is not None:
        check_integer("max_aux", max_aux, minimum=1)
    data = variant_simulation(dataset, variant, rng_for(seed))
    if max_aux is not None:
        data["X_aux"], data["y_aux"] = data["X_aux"][:max_aux], data["y_aux"][:max_aux]
    rows = cv.run_methods(data, alpha=alpha, p=2, grids=grids, seed=seed, beta_bound=beta_bound,
                          cg_threshold=cg_threshold)
    sizes = {"N": len(data["y"]), "N_hat": len(data["y_aux"]), "N_test": len(data["y_test"]),
             "n": data["X"].shape[1]}
    return [{**r, **sizes} for r in rows]
