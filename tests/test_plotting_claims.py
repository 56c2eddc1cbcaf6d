import hashlib

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from safeguarded import plotting


def _figure():
    with plotting.style():
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [1, 0, 2], label="a")
        ax.legend()
    return fig


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_figures_are_byte_identical_on_rerun():
    data = pd.DataFrame({"x": [0, 1, 2], "y": [1, 0, 2]})
    first = plotting.save_figure(_figure(), "rldp", "testfig", data)
    digests = {k: _digest(p) for k, p in first.items()}
    second = plotting.save_figure(_figure(), "rldp", "testfig", data)
    assert digests == {k: _digest(p) for k, p in second.items()}
    assert b"CreationDate" not in first["pdf"].read_bytes()
    assert pd.read_csv(first["csv"]).equals(data)
    plt.close("all")


def test_bad_item_and_work_names():
    with pytest.raises(ValueError, match="item must be"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "rldp", "Fig 2")
    with pytest.raises(ValueError, match="work must be one of"):
        plotting.save_table(pd.DataFrame({"a": [1]}), "nope", "table01")
