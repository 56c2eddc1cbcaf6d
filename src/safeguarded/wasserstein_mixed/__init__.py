"""Thesis Section 3: Wasserstein classification and regression with mixed features.

Modules
-------
data
    Mixed-feature data container (numerical block, one-hot discrete blocks), ground metric (55).
losses
    The six losses with Lipschitz moduli and affine pieces; tangent approximations piece[J].
oracle
    Separation oracle Algorithm 10 (Theorem 8) and a brute-force reference.
models
    Cutting plane Algorithm 9 (Prop. 9), the enumerated dual (56)/(57), the bounded LP (56') (Prop. 10),
    nominal and regularised nominal models; ConF via ``MixedData.as_continuous``.
worst_case
    Nature's primal worst-case distributions for a fixed hypothesis (Fig. 14).
instances
    Synthetic generators (Fig. 15, Tables 19-20) and the UCI preprocessing (Tables 21-26).
experiments
    Cross-validation and the sweep cells of the notebooks.
"""

from safeguarded.wasserstein_mixed import data, losses, models, oracle

__all__ = ["data", "losses", "models", "oracle"]
