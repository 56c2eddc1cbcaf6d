"""Which array library runs the batched DP-learning kernel: numpy (the default, and what CI runs), or
PyTorch / CuPy on a GPU, through the Python array API (``array-api-compat``).

The setting is the environment variable ``SAFEGUARDED_ARRAY``:

``numpy`` (default)
    The numpy kernel with its in-place BLAS steps (bit for bit the numbers of the CPU runs).
``torch`` / ``torch:DEVICE``
    PyTorch through ``array_api_compat.torch``, on ``cuda`` when a GPU is visible, else ``cpu``
    (or the named device, e.g. ``torch:cpu``, ``torch:cuda:1``).
``cupy``
    CuPy through ``array_api_compat.cupy``, on the current CUDA device.
``array-api-strict``
    The reference namespace of the standard (CPU, slow): used by the tests to show that the kernel
    uses nothing beyond the standard.

Random draws stay on numpy ``Generator``\\ s on the host and are copied to the device, so the same seeds
give the same numbers on every backend (to rounding: float64 everywhere).  :func:`array_backend_label`
is the string that results and claims record (``numpy``, ``torch 2.5.1 cuda:0 (NVIDIA H200)``, ...).

    pip install -e .[gpu]                       # array-api-compat and torch
    SAFEGUARDED_ARRAY=torch make reproduce WORK=dp_noise
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from types import ModuleType

import numpy as np

__all__ = ["BACKENDS", "ENV", "ArrayBackend", "array_backend", "array_backend_label", "parse_backend"]

#: The values of ``SAFEGUARDED_ARRAY`` (``torch`` also as ``torch:DEVICE``).
BACKENDS = ("numpy", "torch", "cupy", "array-api-strict")
#: The environment variable that picks the backend.
ENV = "SAFEGUARDED_ARRAY"

_INSTALL = {
    "torch": "PyTorch (pip install -e .[gpu], or a torch wheel for your CUDA)",
    "cupy": "CuPy and array-api-compat (pip install cupy-cuda12x array-api-compat)",
    "array-api-strict": "array-api-strict (pip install -e .[dev])",
}


@dataclass(frozen=True)
class ArrayBackend:
    """An array namespace, the device its arrays live on and the label results record.

    ``xp`` is numpy itself for ``numpy`` (the kernel's in-place path), else the array-API namespace
    (``array_api_compat.torch``, ``array_api_compat.cupy``, ``array_api_strict``)."""

    name: str
    xp: ModuleType
    device: object = None
    label: str = "numpy"

    @property
    def is_numpy(self) -> bool:
        return self.name == "numpy"

    def asarray(self, a):
        """A host numpy array (float64 or integer) on this backend's device, same dtype."""
        a = np.ascontiguousarray(a)
        if self.is_numpy:
            return a
        if self.name == "array-api-strict":
            return self.xp.asarray(a)
        return self.xp.asarray(a, device=self.device)

    @contextlib.contextmanager
    def one_cpu_thread(self):
        """PyTorch on a CPU limited to one thread while the block runs, as numpy's BLAS is (the sweeps run
        cells in parallel processes; on a loaded machine torch's spinning threads make every small
        operation wait for a descheduled one: 50x slower measured on 2 shared cores)."""
        if self.name != "torch" or self.device.type != "cpu":
            yield
            return
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            yield
        finally:
            torch.set_num_threads(before)

    def to_numpy(self, x) -> np.ndarray:
        """A backend array as a host numpy array (a copy from a GPU)."""
        if self.is_numpy:
            return x
        if self.name == "torch":
            return x.detach().cpu().numpy()
        if self.name == "cupy":
            import cupy

            return cupy.asnumpy(x)
        return np.from_dlpack(x)


def parse_backend(value: str) -> tuple[str, str | None]:
    """(backend name, device or None) of a ``$SAFEGUARDED_ARRAY`` value; ValueError naming the variable."""
    name, _, device = value.strip().partition(":")
    name = name.strip().lower()
    if name not in BACKENDS or (device and name != "torch"):
        raise ValueError(
            f"{ENV} must be one of {', '.join(BACKENDS)} (torch also as torch:DEVICE, e.g. torch:cpu), "
            f"got {ENV}={value!r}"
        )
    return name, device.strip() or None


def _import(name: str):
    """(array-API namespace, the library module whose version the label names)."""
    try:
        if name == "torch":
            import array_api_compat.torch as xp
            import torch as module
        elif name == "cupy":
            import array_api_compat.cupy as xp
            import cupy as module
        else:
            import array_api_strict as xp

            module = xp
    except ImportError as err:
        raise ImportError(f"{ENV}={name} needs {_INSTALL[name]}: {err}") from None
    return xp, module


def array_backend(name: str | None = None) -> ArrayBackend:
    """The backend named by ``name`` or, when None, by ``$SAFEGUARDED_ARRAY`` (default ``numpy``).

    Raises ``ValueError`` for an unknown name and ``ImportError`` (saying what to install) when its
    library is missing."""
    if name is None:
        name = os.environ.get(ENV, "") or "numpy"
    if not isinstance(name, str):
        raise ValueError(f"name must be None or one of {', '.join(BACKENDS)}, got name={name!r}")
    lib, device = parse_backend(name)
    if lib == "numpy":
        return ArrayBackend("numpy", np)
    xp, module = _import(lib)
    if lib == "torch":
        dev = module.device(device or ("cuda" if module.cuda.is_available() else "cpu"))
        if dev.type == "cuda" and dev.index is None:
            dev = module.device("cuda", module.cuda.current_device())
        label = f"torch {module.__version__} {dev}"
        if dev.type == "cuda":
            label += f" ({module.cuda.get_device_name(dev)})"
        return ArrayBackend("torch", xp, dev, label)
    if lib == "cupy":
        dev = module.cuda.Device()
        props = module.cuda.runtime.getDeviceProperties(dev.id)
        gpu = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        return ArrayBackend("cupy", xp, dev, f"cupy {module.__version__} cuda:{dev.id} ({gpu})")
    return ArrayBackend("array-api-strict", xp, None, f"array-api-strict {module.__version__}")


def array_backend_label(name: str | None = None) -> str:
    """The label of :func:`array_backend` (``numpy``, ``torch 2.5.1 cuda:0 (NVIDIA H200)``, ...): the
    string a result's ``solver``/``runs`` records for the device that ran the kernel."""
    return array_backend(name).label
