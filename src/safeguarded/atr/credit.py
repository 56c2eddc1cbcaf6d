"""The Appendix-B classifier on UCI Credit Approval (the "regulation agency's" surrogate model).

The paper's network (36 one-hot inputs, hidden layers 147 and 85, dropout 0.5, 89.5% average test
accuracy) is only partly specified. Substitute (default ``kind="logreg"``): an L2-regularised
logistic regression on one-hot categorical and standardised continuous attributes; ``kind="mlp"``
gives scikit-learn's ``MLPClassifier`` with the paper's hidden layers (L2 instead of dropout), which
was too slow for the notebooks' time budget on the shared machine (minutes per fit). The QII
differencing identity of Appendix B holds for any classifier.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from safeguarded.data.credit_approval import COLUMNS, CONTINUOUS
from safeguarded.validation import check_choice, check_frame, check_integer, check_positive

__all__ = ["FEATURES", "make_classifier", "cv_accuracy", "fit_classifier"]

FEATURES = [c for c in COLUMNS if c != "A16"]


def make_classifier(seed: int, *, kind: str = "logreg", max_iter: int = 500, alpha: float = 1e-2):
    """One-hot + standardisation + logistic regression (``"logreg"``) or MLP(147, 85) (``"mlp"``)."""
    check_integer("seed", seed, minimum=0)
    check_choice("kind", kind, ("logreg", "mlp"))
    max_iter = check_integer("max_iter", max_iter, minimum=1)
    alpha = check_positive("alpha", alpha)
    categorical = [c for c in FEATURES if c not in CONTINUOUS]
    pre = ColumnTransformer(
        [("cat", OneHotEncoder(handle_unknown="ignore"), categorical), ("num", StandardScaler(), CONTINUOUS)]
    )
    if kind == "logreg":
        model = LogisticRegression(C=1.0, max_iter=int(max_iter))
    else:
        model = MLPClassifier(
            hidden_layer_sizes=(147, 85), alpha=alpha, max_iter=int(max_iter), random_state=seed
        )
    return make_pipeline(pre, model)


def _xy(frame: pd.DataFrame):
    check_frame("frame", frame, (*FEATURES, "A16"))
    if frame[FEATURES].isna().any().any():
        raise ValueError("frame must have no missing values (load with dropna=True)")
    return frame[FEATURES], (frame["A16"] == "+").to_numpy(int)


def cv_accuracy(frame: pd.DataFrame, seed: int, *, folds: int = 5, kind: str = "logreg") -> np.ndarray:
    """Test accuracy of each fold of a stratified k-fold split (seeded)."""
    check_integer("seed", seed, minimum=0)
    folds = check_integer("folds", folds, minimum=2)
    check_choice("kind", kind, ("logreg", "mlp"))
    X, y = _xy(frame)
    cv = StratifiedKFold(n_splits=int(folds), shuffle=True, random_state=seed)
    return cross_val_score(make_classifier(seed, kind=kind), X, y, cv=cv)


def fit_classifier(frame: pd.DataFrame, seed: int, *, kind: str = "logreg"):
    """The classifier trained on all rows; returns ``predict(frame) -> 0/1 array``."""
    check_integer("seed", seed, minimum=0)
    check_choice("kind", kind, ("logreg", "mlp"))
    X, y = _xy(frame)
    model = make_classifier(seed, kind=kind).fit(X, y)
    return lambda f: model.predict(f[FEATURES])
