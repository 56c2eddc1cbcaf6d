"""Synthetic instances: random QID groups (tests, Fig. 5 checks, the erratum count) and the Fig. 4
illustration group."""

from __future__ import annotations

import numpy as np

from safeguarded.atr._checks import check_unit
from safeguarded.atr.algorithm import algorithm1
from safeguarded.atr.fidelity import fidelity_box
from safeguarded.experiments import rng_for
from safeguarded.validation import check_integer

__all__ = ["random_groups", "fig4_group"]


def random_groups(seed: int, n_groups: int, *, max_size: int = 7, alpha_share: float = 1 / 3):
    """Random groups: sizes U{1..max_size}, P ~ Dirichlet(1) over all records, d on the grid
    {0, .25, .5, .75, 1}, per group delta-fidelity (delta ~ U(0,1)) or, with probability
    ``alpha_share``, alpha-fidelity (alpha ~ U(0,1)). Returns (p, d, lo, hi, group)."""
    check_integer("seed", seed, minimum=0)
    n_groups = check_integer("n_groups", n_groups, minimum=1)
    max_size = check_integer("max_size", max_size, minimum=1)
    alpha_share = check_unit("alpha_share", alpha_share)
    rng = rng_for(seed)
    m = rng.integers(1, int(max_size) + 1, int(n_groups))
    group = np.repeat(np.arange(int(n_groups)), m)
    p = rng.dirichlet(np.ones(group.size))
    d = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], group.size)
    lo, hi = np.empty(group.size), np.empty(group.size)
    starts = np.concatenate(([0], np.cumsum(m)[:-1]))
    for i, k in zip(starts, m, strict=True):
        sl = slice(i, i + k)
        if rng.uniform() < alpha_share:
            lo[sl], hi[sl] = fidelity_box(d[sl], alpha=float(rng.uniform()))
        else:
            lo[sl], hi[sl] = fidelity_box(d[sl], delta=float(rng.uniform()))
    return p, d, lo, hi, group


def fig4_group(seed: int = 0, delta: float = 0.8, m: int = 6, max_tries: int = 10_000):
    """A group of m = 6 records in the beta_1 case of Theorem 1 with x^1 = x_6, as in Fig. 4.

    Draws P ~ Dirichlet(1) and d ~ U(0, 1) until Algorithm 1 reports case beta_1 with x^1 the last
    record. Returns (p, d, lo, hi, result)."""
    check_integer("seed", seed, minimum=0)
    delta = check_unit("delta", delta)
    m = check_integer("m", m, minimum=1)
    max_tries = check_integer("max_tries", max_tries, minimum=1)
    rng = rng_for(seed)
    for _ in range(max_tries):
        p = rng.dirichlet(np.ones(m))
        d = rng.uniform(size=m)
        lo, hi = fidelity_box(d, delta=delta)
        res = algorithm1(p, lo, hi, np.zeros(m, dtype=int), d=d)
        g = res.groups.iloc[0]
        if g["case"] == "beta1" and g["x1"] == m - 1:
            return p, d, lo, hi, res
    raise RuntimeError(f"no beta_1 group with x^1 = x_{m} found in {max_tries} draws")
