"""Thesis §4: distributionally and adversarially robust logistic regression with auxiliary data.

Modules: :mod:`.losses` (Observation 7, attacked errors), :mod:`.models` (ERM, ARO, ARO+Aux (67),
DR-ARO (Corollary 8), Inter-ARO* (Theorem 11) literal / reduced / constraint generation),
:mod:`.transport` (W(P_N, P̂_N̂) as a transport LP), :mod:`.data` (Algorithm 11, UCI preprocessing,
Gaussian copula, MNIST substitutes), :mod:`.cv` (5-fold cross-validation, DRO++, the experiment cells).
"""
