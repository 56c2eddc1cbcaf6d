"""Thesis §1: optimal differential-privacy noise via distributionally robust optimization (``dp_noise``).

Modules: :mod:`.mechanisms` (benchmark mechanisms, costs, samplers), :mod:`.bounds` (the bounding LPs
P(L, β), D(L, β) and their cutting-plane solution, Algorithms 1–2).
"""
