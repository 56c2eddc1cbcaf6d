"""Shared test configuration: outputs go to a temporary folder, never to the repository's figures/."""

import os
import tempfile
from pathlib import Path

import pytest

# Must be set before safeguarded.paths is imported anywhere.
_TMP = Path(tempfile.mkdtemp(prefix="safeguarded-tests-"))
os.environ.setdefault("SAFEGUARDED_FIGURES", str(_TMP / "figures"))
os.environ.setdefault("SAFEGUARDED_RESULTS", str(_TMP / "results"))
os.environ.setdefault("MPLBACKEND", "Agg")

REPO = Path(__file__).resolve().parents[1]
DEFAULT_MIRROR = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def data_mirror() -> Path:
    """The local data mirror ($SAFEGUARDED_DATA_MIRROR or ../shared/data); skip if absent."""
    path = Path(os.environ.get("SAFEGUARDED_DATA_MIRROR", DEFAULT_MIRROR))
    if not path.is_dir():
        pytest.skip(f"data mirror {path} not available")
    os.environ["SAFEGUARDED_DATA_MIRROR"] = str(path)
    return path
