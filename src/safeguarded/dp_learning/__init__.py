"""Differentially private learning on the UCI data sets, shared by thesis §1 (``dp_noise``, Tables 2
and 3) and §2 (``gaussian_mixtures``, Tables 9 and 18).

Modules
-------
datasets
    The data sets, their preprocessing and the seeded 80/20 splits.
pcd
    DP proximal coordinate descent for ℓ1-regularised logistic regression (eq. (10)), batched over
    noise simulations.
naive_bayes
    DP naive Bayes (L912–L938), batched over noise simulations.
tables
    One (data set, split) for a dict of noises, and per-data-set summaries of a sweep.

A noise is any object with ``sample(rng, size) -> ndarray`` (or such a callable); a data-dependent
noise has ``data_dependent = True`` and ``sample(rng, values)``.  The works own their noises and sweep
cells; neither imports the other for this code.
"""
