import pandas as pd
import pytest

from safeguarded.data import uci

TINY = """% comment
@relation tiny
@attribute 'a b' numeric
@attribute c {'x y','z'}
@attribute d {p, q}
@data
1.5,'x y',p
?,z,q
"""


def test_parse_arff_types_and_missing():
    df = uci.parse_arff(TINY)
    assert list(df.columns) == ["a b", "c", "d"]
    assert df["a b"].isna().tolist() == [False, True]
    assert isinstance(df["c"].dtype, pd.CategoricalDtype)
    assert list(df["c"].cat.categories) == ["x y", "z"]


def test_parse_arff_rejects_undeclared_levels():
    with pytest.raises(ValueError, match="attribute 'd' has undeclared values"):
        uci.parse_arff(TINY.replace("z,q", "z,r"), source="tiny")
    with pytest.raises(ValueError, match="no @data"):
        uci.parse_arff("@attribute a numeric\n", source="tiny")


@pytest.mark.parametrize(
    ("name", "rows"),
    [("credit.a", 690), ("breast.cancer", 286), ("spambase", 4601), ("tic-tac-toe", 958)],
)
def test_uci_row_counts_match_originals(data_mirror, name, rows):
    assert len(uci.load_arff(name)) == rows


def test_unknown_arff_name(data_mirror):
    with pytest.raises(uci.DataFileError, match="not in the registry"):
        uci.load_arff("iris")
