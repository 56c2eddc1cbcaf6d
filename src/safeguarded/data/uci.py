"""UCI data sets: ARFF files (read with ``scipy.io.arff``) and the raw UCI files in the registry.

``load_arff("credit.a")`` reads ``uci/arff/credit.a.arff`` (Weka's ARFF form of the UCI data) into a
DataFrame: numeric attributes as floats, nominal attributes as pandas categoricals with the declared
levels, ``?`` as missing.  The parsing is scipy's (``scipy.io.arff.loadarff``, dense ARFF with
numeric, nominal and date attributes; it refuses string attributes, which no registered file has);
this module only turns its record array into typed columns.  Loaders for particular data sets (the
preprocessing a work describes) live with the work that needs them and call these functions.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from safeguarded.data.registry import DataFileError, entries, fetch

__all__ = ["ARFF_NAMES", "load_arff", "parse_arff", "load_raw_csv"]

def ARFF_NAMES() -> list[str]:  # noqa: N802 - reads like a constant
    """The ARFF data sets in the registry, e.g. ``['abalone', 'anneal', ..., 'credit.a', ...]``."""
    return sorted(
        k.removeprefix("uci/arff/").removesuffix(".arff") for k in entries() if k.startswith("uci/arff/")
    )


def parse_arff(text: str, source: str = "<arff>") -> pd.DataFrame:
    """Parse ARFF text (dense format) with ``scipy.io.arff`` into a DataFrame; raises ValueError
    naming ``source`` if scipy cannot read it (malformed header, undeclared nominal value, ...)."""
    from scipy.io import arff

    try:
        records, meta = arff.loadarff(io.StringIO(text))
    except Exception as exc:  # scipy raises ValueError, ParseArffError, StopIteration, ...: name the file
        raise ValueError(f"{source}: not a readable ARFF file ({type(exc).__name__}: {exc})") from None
    names = meta.names()
    if not names:
        raise ValueError(f"{source}: no @attribute declarations")
    columns = {}
    for key, kind in zip(names, meta.types(), strict=True):
        values = records[key]
        # scipy 1.x keeps the quotes of a one-character quoted name (``@attribute 'm' ...``)
        name = key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"" else key
        if kind == "nominal":
            text_values = np.char.decode(values, "utf-8") if values.dtype.kind == "S" else values.astype(str)
            levels = list(meta[key][1])
            columns[name] = pd.Categorical(np.where(text_values == "?", None, text_values), categories=levels)
        else:  # numeric (``?`` is NaN already) or date (datetime64)
            columns[name] = values.astype(float) if kind == "numeric" else values
    return pd.DataFrame(columns, columns=list(columns))


def load_arff(name: str) -> pd.DataFrame:
    """Load the registered ARFF data set ``name`` (e.g. ``"credit.a"``, ``"breast.cancer"``)."""
    key = f"uci/arff/{name}.arff"
    if key not in entries():
        raise DataFileError(f"ARFF data set {name!r} is not in the registry; available: {ARFF_NAMES()}")
    path = fetch(key)
    return parse_arff(path.read_text(encoding="utf-8", errors="replace"), source=str(path))


def load_raw_csv(name: str, **read_csv_kwargs) -> pd.DataFrame:
    """Read a raw registered UCI file (e.g. ``"uci/crx/crx.data"``) with ``pandas.read_csv``."""
    path = fetch(name)
    kwargs = {"na_values": ["?"], **read_csv_kwargs}
    return pd.read_csv(path, **kwargs)
