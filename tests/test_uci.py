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
    with pytest.raises(ValueError, match="^tiny: not a readable ARFF file .*r value not in"):
        uci.parse_arff(TINY.replace("z,q", "z,r"), source="tiny")
    with pytest.raises(ValueError, match="^tiny: not a readable ARFF file"):
        uci.parse_arff("@attribute a numeric\n", source="tiny")


@pytest.mark.parametrize(
    ("name", "rows"),
    [("credit.a", 690), ("breast.cancer", 286), ("spambase", 4601), ("tic-tac-toe", 958)],
)
def test_uci_row_counts_match_originals(data_mirror, name, rows):
    assert len(uci.load_arff(name)) == rows


def test_credit_a_arff_equals_the_raw_uci_crx_file(data_mirror):
    """The ARFF copy (read by scipy.io.arff) against UCI's own crx.data (read by pandas), cell by cell."""
    arff = uci.load_arff("credit.a")
    raw = uci.load_raw_csv("uci/crx/crx.data", header=None)
    assert arff.shape == raw.shape == (690, 16)
    assert arff["class"].value_counts().to_dict() == {"-": 383, "+": 307}
    for j, name in enumerate(arff.columns):
        ours = arff[name]
        if isinstance(ours.dtype, pd.CategoricalDtype):
            assert ours.astype(object).where(ours.notna(), None).tolist() == \
                raw[j].astype(object).where(raw[j].notna(), None).tolist(), name
        else:
            pd.testing.assert_series_equal(ours, raw[j].astype(float), check_names=False)
    assert int(arff.isna().any(axis=1).sum()) == 37  # crx.names: "37 cases (5%) have one or more missing"
    assert arff.loc[0, "A2"] == 30.83 and arff.loc[0, "A15"] == 0.0 and arff.loc[1, "A15"] == 560.0


def test_unknown_arff_name(data_mirror):
    with pytest.raises(uci.DataFileError, match="not in the registry"):
        uci.load_arff("iris")
