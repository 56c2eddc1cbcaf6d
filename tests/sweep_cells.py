"""Cell functions for the sweep tests (module-level, so worker processes can import them)."""

import os
import time

from safeguarded.experiments import rng_for


def noisy_mean(mu, n, seed):
    """The mean of n N(mu, 1) draws, generated only from the explicit seed."""
    x = rng_for(seed).normal(mu, 1.0, size=n)
    return {"mean": float(x.mean())}


def logged_slow(k, seed, log=None, delay=0.0):
    """Appends one line per call to the file ``log`` so that tests can count computations."""
    time.sleep(delay)
    with open(log or os.environ["SWEEP_LOG"], "a") as f:
        f.write(f"{k},{seed}\n")
    return [{"value": k * 10 + seed}, {"value": -(k * 10 + seed)}]
