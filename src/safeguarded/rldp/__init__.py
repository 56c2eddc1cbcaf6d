"""Robust Optimization for Local Differential Privacy (Goseling & Lopuhaä-Zwakenberg, ISIT 2022).

Modules: :mod:`~safeguarded.rldp.uncertainty` (the χ² set (2)–(3), Theorems 2–4),
:mod:`~safeguarded.rldp.problems` (NUNP, NURP, RUNP, RURP (7)–(10) as DPP models),
:mod:`~safeguarded.rldp.measures` (D* (31), ε* (32), the 1.5·IQR rule),
:mod:`~safeguarded.rldp.experiment` (the Fig. 2 instances as sweep cells).
"""
