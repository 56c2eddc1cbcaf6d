"""UCI data sets: a small ARFF reader and loaders for the raw UCI files in the registry.

``load_arff("credit.a")`` reads ``uci/arff/credit.a.arff`` (Weka's ARFF form of the UCI data) into a
DataFrame: numeric attributes as floats, nominal attributes as pandas categoricals with the declared
levels, ``?`` as missing.  Loaders for particular data sets (the preprocessing a work describes) live
with the work that needs them and call these functions.
"""

from __future__ import annotations

import csv
import io
import re

import pandas as pd

from safeguarded.data.registry import DataFileError, fetch, registry

__all__ = ["ARFF_NAMES", "load_arff", "parse_arff", "load_raw_csv"]

_ATTRIBUTE = re.compile(r"^@attribute\s+('(?:[^']|\\')*'|\"[^\"]*\"|\S+)\s+(.*)$", re.I)


def ARFF_NAMES() -> list[str]:  # noqa: N802 - reads like a constant
    """The ARFF data sets in the registry, e.g. ``['abalone', 'anneal', ..., 'credit.a', ...]``."""
    return sorted(
        k.removeprefix("uci/arff/").removesuffix(".arff") for k in registry() if k.startswith("uci/arff/")
    )


def _unquote(token: str) -> str:
    token = token.strip()
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return token[1:-1].replace("\\'", "'")
    return token


def parse_arff(text: str, source: str = "<arff>") -> pd.DataFrame:
    """Parse ARFF text (dense format) into a DataFrame; raises ValueError naming ``source`` if malformed."""
    names: list[str] = []
    kinds: list[list[str] | None] = []  # None = numeric, list = nominal levels, [] = string
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        low = line.lower()
        if low.startswith("@attribute"):
            m = _ATTRIBUTE.match(line)
            if not m:
                raise ValueError(f"{source}: malformed @attribute on line {i + 1}: {raw!r}")
            names.append(_unquote(m.group(1)))
            spec = m.group(2).strip()
            if spec.startswith("{"):
                body = spec[1 : spec.rindex("}")]
                levels = next(csv.reader([body], quotechar="'", skipinitialspace=True))
                kinds.append([_unquote(v).strip() for v in levels])
            elif spec.lower().split()[0] in ("numeric", "real", "integer"):
                kinds.append(None)
            else:
                kinds.append([])
        elif low.startswith("@data"):
            body = "\n".join(ln for ln in lines[i + 1 :] if ln.strip() and not ln.lstrip().startswith("%"))
            break
    else:
        raise ValueError(f"{source}: no @data section")
    if not names:
        raise ValueError(f"{source}: no @attribute declarations")
    frame = pd.read_csv(
        io.StringIO(body),
        header=None,
        names=names,
        quotechar="'",
        skipinitialspace=True,
        na_values=["?"],
        keep_default_na=False,
        dtype=str,
    )
    for name, kind in zip(names, kinds, strict=True):
        col = frame[name].str.strip()
        if kind is None:
            frame[name] = pd.to_numeric(col, errors="raise").astype(float)
        elif kind:
            unknown = set(col.dropna()) - set(kind)
            if unknown:
                raise ValueError(f"{source}: attribute {name!r} has undeclared values {sorted(unknown)[:5]}")
            frame[name] = pd.Categorical(col, categories=kind)
        else:
            frame[name] = col
    return frame


def load_arff(name: str) -> pd.DataFrame:
    """Load the registered ARFF data set ``name`` (e.g. ``"credit.a"``, ``"breast.cancer"``)."""
    key = f"uci/arff/{name}.arff"
    if key not in registry():
        raise DataFileError(f"ARFF data set {name!r} is not in the registry; available: {ARFF_NAMES()}")
    path = fetch(key)
    return parse_arff(path.read_text(encoding="utf-8", errors="replace"), source=str(path))


def load_raw_csv(name: str, **read_csv_kwargs) -> pd.DataFrame:
    """Read a raw registered UCI file (e.g. ``"uci/crx/crx.data"``) with ``pandas.read_csv``."""
    path = fetch(name)
    kwargs = {"na_values": ["?"], **read_csv_kwargs}
    return pd.read_csv(path, **kwargs)
