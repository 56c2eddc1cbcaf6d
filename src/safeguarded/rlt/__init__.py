"""Thesis §6: RLT relaxations over simplices (Selvi, den Hertog & Wiesemann, Math. Program. 2023).

``instances``   seeded generators (thesis and authors'-code variants), problem containers, eigen-split
``relaxations`` classical RLT (138)/(140), RLT/SDP, the proposed RLT (Theorem 22, lifting (144))
``exact``       global optima for small instances (SCIP, enumeration, grids) used as checks
``experiment``  sweep cells, gaps, median/IQR summaries, log-log slopes
"""
