"""The DP-PCD kernel on every array library that imports (safeguarded.arrays, SAFEGUARDED_ARRAY): the
array-API form of the kernel under the strict reference namespace (array-api-strict), PyTorch on the CPU
and, where a GPU is present, PyTorch/CuPy on it, each against the numpy kernel (itself checked against a
plain-loop reference in tests/test_dp_learning.py).  None of these libraries is needed for `make test`:
each test skips when its library is missing."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from safeguarded import arrays
from safeguarded.dp_learning import pcd
from safeguarded.dp_learning.pcd import _ArrayAPIOps, _NumpyOps, _pcd_block
from safeguarded.dp_noise.mechanisms import TruncatedLaplace
from safeguarded.experiments import rng_for


def _toy(n=60, d=7, seed=0):
    rng = rng_for(seed)
    X = np.hstack([np.ones((n, 1)), rng.uniform(-1, 1, size=(n, d - 1))])
    y = np.where(rng.random(n) < expit(3 * X @ rng.normal(size=d)), 1.0, -1.0)
    return X, y


class _Normal:
    def sample(self, rng, size):
        return 0.7 * rng.standard_normal(size)


class _ValueDependent:
    """A data-dependent noise: its scale depends on the sign of the released sum, so a backend that got
    the sums wrong draws differently."""

    data_dependent = True

    def sample(self, rng, values):
        values = np.asarray(values, dtype=float)
        return rng.standard_normal(values.shape) * np.where(values > 0, 2.0, 0.5)


def _gpu_backends() -> list[str]:
    out = []
    try:
        import torch

        if torch.cuda.is_available():
            out.append("torch:cuda")
    except ImportError:
        pass
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            out.append("cupy")
    except Exception:  # no cupy, or no CUDA driver
        pass
    return out


def _need(name: str) -> None:
    """Skip unless the libraries of backend ``name`` import."""
    if name == "array-api-strict":
        pytest.importorskip("array_api_strict")
    elif name.startswith("torch"):
        pytest.importorskip("torch")
        pytest.importorskip("array_api_compat")


CPU_BACKENDS = ["array-api-strict", "torch:cpu"]
NOISES = {"none": None, "normal": _Normal(), "tln": TruncatedLaplace(1.0, 0.1, 2.0), "dd": _ValueDependent()}


def _methods(monkeypatch, backend, X, y, Xt=None, yt=None, block=None):
    monkeypatch.setenv(arrays.ENV, backend)
    sims = {m: 1 if noise is None else 5 for m, noise in NOISES.items()}
    rngs = {m: rng_for(7, i) for i, m in enumerate(NOISES)}
    return pcd.dp_pcd_methods(X, y, rng_for(6), NOISES, n_sims=sims, noise_rngs=rngs, iterations=8,
                              coords_per_iter=3, lam=1e-3, X_test=Xt, y_test=yt, block=block)  # fmt: skip


@pytest.mark.parametrize("backend", CPU_BACKENDS + _gpu_backends())
def test_backend_equals_numpy_kernel(monkeypatch, backend):
    """Every noise (none, two data-independent, one data-dependent) in one batch, default and explicit
    blocks: the same iterates to 1e-12 and the same misclassification rates as the numpy kernel, with
    the same seeds (draws on the host)."""
    _need(backend)
    X, y = _toy(seed=1)
    Xt, yt = _toy(n=25, seed=2)
    for block in (None, 2):
        ref = _methods(monkeypatch, "numpy", X, y, Xt, yt, block=block)
        got = _methods(monkeypatch, backend, X, y, Xt, yt, block=block)
        for m in NOISES:
            assert isinstance(got[m].H, np.ndarray)
            np.testing.assert_allclose(got[m].H, ref[m].H, rtol=0, atol=1e-12, err_msg=f"{m}, block {block}")
            np.testing.assert_array_equal(got[m].train_error, ref[m].train_error)
            np.testing.assert_array_equal(got[m].test_error, ref[m].test_error)


def test_the_noise_moves_the_iterates_on_every_backend(monkeypatch):
    """A guard on the comparison above: the noisy iterates differ from the non-private ones by far more
    than the tolerance, so a backend that dropped the noise would fail."""
    X, y = _toy(seed=1)
    res = _methods(monkeypatch, "numpy", X, y)
    for m in ("normal", "tln", "dd"):
        assert np.abs(res[m].H - res["none"].H).max() > 1e-3


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_array_api_block_uses_the_backends_arrays(monkeypatch, backend):
    """_pcd_block with the array-API steps holds its data in the backend's own array type (so the strict
    namespace really checks the kernel), and returns what the numpy steps return."""
    _need(backend)
    be = arrays.array_backend(backend)
    X, y = _toy(n=30, d=5, seed=3)
    yX = np.asfortranarray(y[:, None] * X)
    rng = rng_for(4)
    h0 = rng.uniform(-1, 1, size=5)
    perms = np.stack([rng.permutation(5)[:2] for _ in range(4)])
    draws = rng.standard_normal((4, 2, 3))
    ops = _ArrayAPIOps(yX, be)
    assert type(ops.yXT).__module__.split(".")[0] == type(be.asarray(np.zeros(1))).__module__.split(".")[0]
    assert not isinstance(ops.yXT, np.ndarray)
    got = _pcd_block(ops, h0, perms, draws, None, None, 3, 1e-3)
    ref = _pcd_block(_NumpyOps(yX), h0, perms, draws, None, None, 3, 1e-3)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


def test_setting_is_checked_and_labelled(monkeypatch):
    monkeypatch.delenv(arrays.ENV, raising=False)
    assert arrays.array_backend().name == "numpy"
    assert arrays.array_backend_label() == "numpy"
    monkeypatch.setenv(arrays.ENV, "numpy")
    assert arrays.array_backend_label() == "numpy"
    for bad in ("bogus", "numpy:cuda", "jax"):
        monkeypatch.setenv(arrays.ENV, bad)
        with pytest.raises(ValueError, match="SAFEGUARDED_ARRAY must be one of numpy, torch, cupy"):
            arrays.array_backend()
    X, y = _toy(n=10, d=3)
    monkeypatch.setenv(arrays.ENV, "bogus")
    with pytest.raises(ValueError, match="SAFEGUARDED_ARRAY"):
        pcd.dp_pcd(X, y, rng_for(0), n_sims=1, iterations=1)
    with pytest.raises(ValueError, match="name must be None or one of"):
        arrays.array_backend(5)


def test_missing_library_says_what_to_install():
    try:
        import cupy  # noqa: F401

        pytest.skip("cupy is installed")
    except ImportError:
        pass
    with pytest.raises(ImportError, match=r"SAFEGUARDED_ARRAY=cupy needs CuPy"):
        arrays.array_backend("cupy")


@pytest.mark.parametrize("backend", CPU_BACKENDS + _gpu_backends())
def test_labels_name_library_and_device(backend):
    _need(backend)
    label = arrays.array_backend_label(backend)
    lib = backend.split(":")[0]
    assert label.startswith(f"{lib} ")
    if backend == "torch:cpu":
        assert label.endswith(" cpu")
    if backend in ("torch:cuda", "cupy"):
        assert "cuda:" in label and "(" in label  # the GPU's name


@pytest.mark.parametrize("backend", ["array-api-strict", "torch:cpu"])
def test_table_rows_name_the_backend_and_agree(data_mirror, monkeypatch, backend):
    """pcd_split (the cell of Tables 3/9) on a real data set: every row names the backend that ran it, and
    its errors equal the numpy rows' (the labels aside)."""
    from safeguarded.dp_learning.tables import pcd_split

    _need(backend)
    samplers = {"PCD": None, "TLN": TruncatedLaplace(1.0, 0.1, 2.0), "dd": _ValueDependent()}
    rows = {}
    for name in ("numpy", backend):
        monkeypatch.setenv(arrays.ENV, name)
        rows[name] = pcd_split("post-operative", 1, samplers, n_sims=3, iterations=4, seed=0)
        assert {r["array_backend"] for r in rows[name]} == {arrays.array_backend_label(name)}
    for a, b in zip(rows["numpy"], rows[backend], strict=True):
        assert a.pop("array_backend") == "numpy" and b.pop("array_backend") != "numpy"
        for key in ("train_error", "test_error", "train_error_sq", "test_error_sq"):
            assert a[key] == pytest.approx(b[key], abs=1e-12)
        assert a == pytest.approx(b, abs=1e-12)
