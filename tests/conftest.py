"""Shared pytest configuration."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles (docs/trusted-base.md). `default`: CI, the whole checker suite in a few
# minutes on 2 cores. `deep`: >= 10,000 examples per property, e.g.
#   pytest --hypothesis-profile=deep tests/test_checker_fuzz.py
# Tests that pin their own max_examples keep it under both profiles.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("deep", max_examples=10_000, deadline=None, suppress_health_check=_SLOW_OK)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[None]:
    """A local Ray instance with 2 CPUs for the Ray engine's tests (slow: starting Ray takes seconds)."""
    ray = pytest.importorskip("ray", reason="ray is not installed: pip install -e '.[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()
