"""Thesis Section 2: mixtures of Gaussians in approximate differential privacy.

Modules
-------
quasi_gaussian
    Definition 2 / eq. (25), Theorem 3, Lemmas 20-22, Algorithms 4, 5 (reconstructed) and 8.
multi_gaussian
    Definition 3 / eq. (28), Theorem 5, Lemma 23, Algorithms 6 and 7.
privacy
    Independent privacy checks (hockey-stick divergence by fine-grid quadrature, PLD via dp_accounting).
experiments
    The (eps, delta) grid of Section 2.4: sweep cells and table builders.
"""

from safeguarded.gaussian_mixtures import multi_gaussian, quasi_gaussian

__all__ = ["quasi_gaussian", "multi_gaussian"]
