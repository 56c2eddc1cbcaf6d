"""Chen, Golubchik & Pal, *Achieving Transparency Report Privacy in Linear Time* (JDIQ).

Modules: :mod:`table` (decision tables, QID groups, the paper's scenario), :mod:`fidelity` (boxes
(12)-(13)), :mod:`privacy` (confidence (8), C*, beta_min), :mod:`algorithm` (Algorithm 1 / Theorem 1,
with the Lemma-5 floor the printed theorem omits), :mod:`lfp` (the LP-bisection baseline for (16a-f)),
:mod:`fairness` (App. A, Lemma 2), :mod:`attacks` (the privacy-hacking demonstrations of Section 3
and App. B), :mod:`credit` (the App.-B classifier), :mod:`instances` (synthetic groups),
:mod:`runtime` (the repository's runtime study).
"""
