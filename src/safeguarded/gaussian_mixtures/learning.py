"""The §2 mixtures as noises of DP proximal coordinate descent (thesis Tables 9 and 18, L2187–L2216).

:class:`MixtureNoise` adapts a calibrated quasi-Gaussian (Def. 2, eq. (25)) or multi-Gaussian (Def. 3,
eq. (28)) mechanism to the noise protocol ``sample(rng, size)`` of :mod:`safeguarded.dp_learning`;
:func:`pcd_cell` runs one (data set, split) of Tables 9/18 with A-G, Q-G and M-G through the shared
:func:`safeguarded.dp_learning.tables.pcd_split`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from safeguarded.dp_learning.datasets import DATASETS, LOADINGS
from safeguarded.dp_learning.tables import pcd_split
from safeguarded.dp_noise.mechanisms import AnalyticGaussian
from safeguarded.gaussian_mixtures import multi_gaussian as mg
from safeguarded.gaussian_mixtures import quasi_gaussian as qg
from safeguarded.gaussian_mixtures._validate import check_delta, check_epsilon, check_k, check_sensitivity
from safeguarded.validation import check_choice, check_integer, check_type

__all__ = ["MixtureNoise", "mixture_noise", "table9_noises", "pcd_cell", "METHODS", "side_summary"]

#: The private mechanisms of Tables 9 and 18, in table order.
METHODS = ("A-G", "Q-G", "M-G")


@dataclass(frozen=True)
class MixtureNoise:
    """A calibrated §2 mixture as a noise sampler: quasi-Gaussian ``"Q-G"`` (Def. 2, eq. (25); σ from
    Algorithm 4) or multi-Gaussian ``"M-G"`` (Def. 3, eq. (28), K components per side; σ from
    Algorithm 6), for sensitivity ``sensitivity`` (the calibration is run at that Δ; both mechanisms
    are scale-equivariant, σ(Δ) = Δ·σ(1))."""

    kind: str
    sigma: float
    epsilon: float
    sensitivity: float
    k: int = 1

    def sample(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` noise draws (Algorithm 8 for Q-G, App. 2.B.1 for M-G)."""
        if self.kind == "Q-G":
            return qg.sample(size, self.sigma, self.epsilon, self.sensitivity, rng=rng)
        return mg.sample(size, self.sigma, self.epsilon, self.sensitivity, self.k, rng=rng)

    @property
    def power(self) -> float:
        """E X² in closed form (App. 2.A.4, L2350 / App. 2.B.2, L2781)."""
        if self.kind == "Q-G":
            return qg.power(self.sigma, self.epsilon, self.sensitivity)
        return mg.power(self.sigma, self.epsilon, self.sensitivity, self.k)


@functools.lru_cache(maxsize=32)
def mixture_noise(kind: str, epsilon: float, delta: float, sensitivity: float = 2.0, k: int = 9, eta=0.01):
    """The calibrated :class:`MixtureNoise` ``kind`` ∈ {"Q-G", "M-G"} for (ε, δ, Δ) (cached per process;
    one M-G calibration at (1, 1e-3), K = 9 takes ≈ 2 s).  ``k`` and ``eta`` (η of Theorem 5) are used
    by M-G only."""
    if kind == "Q-G":
        return MixtureNoise("Q-G", qg.calibrate(epsilon, delta, sensitivity).sigma, epsilon, sensitivity)
    if kind == "M-G":
        cal = mg.calibrate(epsilon, delta, sensitivity, k=k, eta=eta)
        return MixtureNoise("M-G", cal.sigma, epsilon, sensitivity, cal.k)
    raise ValueError(f"kind must be 'Q-G' or 'M-G', got kind={kind!r}")


def table9_noises(epsilon, delta, sensitivity=2.0, mg_k: int = 9) -> dict:
    """{"PCD": None, "A-G": analytic Gaussian, "Q-G", "M-G" (K = ``mg_k``)} for (ε, δ, Δ), table order."""
    check_epsilon(epsilon)
    check_delta(delta)
    check_sensitivity(sensitivity)
    check_k(mg_k, "mg_k")
    return {
        "PCD": None,
        "A-G": AnalyticGaussian(epsilon, delta, sensitivity),
        "Q-G": mixture_noise("Q-G", epsilon, delta, sensitivity),
        "M-G": mixture_noise("M-G", epsilon, delta, sensitivity, mg_k),
    }


def pcd_cell(dataset, split, n_sims=1, iterations=100, epsilon=1.0, delta=1e-3, mg_k=9, seed=0):
    """One (data set, split) of Tables 9/18 (thesis: (ε, δ) = (1, 1e-3), Δ = 2): PCD, A-G, Q-G and M-G with
    K = ``mg_k``; mean train/test errors over ``n_sims`` noise simulations of each method and their mean
    squares (:func:`safeguarded.dp_learning.tables.pcd_split`)."""
    check_type("dataset", dataset, str, "a data set name")
    check_choice("dataset", dataset, tuple(DATASETS))
    check_integer("split", split, minimum=0)
    check_integer("n_sims", n_sims, minimum=1)
    check_integer("iterations", iterations, minimum=1)
    check_integer("seed", seed, minimum=0)
    samplers = table9_noises(epsilon, delta, 2.0, mg_k)
    return pcd_split(dataset, split, samplers, n_sims=n_sims, iterations=iterations, seed=seed)


def side_summary(names, loading: str = "matched", *, splits: int = 100, n_sims: int = 1, seed: int = 0,
                 iterations: int = 100, epsilon=1.0, delta=1e-3, mg_k: int = 9):  # fmt: skip
    """Table 9/18 on the data sets ``names`` read as ``loading`` says
    (:data:`safeguarded.dp_learning.datasets.LOADINGS`), at the counts given: the deviation experiment of
    ``notebooks/gaussian_mixtures_pcd_tables09_18`` (a side run beside the table's sweep, the same noises
    and seeds as :func:`pcd_cell`).  One row per data set as
    :func:`safeguarded.dp_learning.tables.summarise_runs` gives it (errors in %, ``_sd`` as Table 18)."""
    from safeguarded.dp_learning.tables import check_names, variant_summary

    check_names(names)
    check_choice("loading", loading, LOADINGS)
    check_integer("splits", splits, minimum=2)
    check_integer("n_sims", n_sims, minimum=1)
    check_integer("seed", seed, minimum=0)
    check_integer("iterations", iterations, minimum=1)
    samplers = table9_noises(epsilon, delta, 2.0, mg_k)
    return variant_summary("pcd", names, samplers, compare=("A-G", "M-G"), baseline="PCD", splits=splits,
                           n_sims=n_sims, seed=seed, iterations=iterations, loading=loading)
