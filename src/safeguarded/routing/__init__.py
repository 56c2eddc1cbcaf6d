"""Differentially private routing on Sioux Falls (Tsao, Gopalakrishnan, Yang & Pavone, DP-SCO for
network routing): the reformulated problem, non-private optima, and Algorithm 1."""
