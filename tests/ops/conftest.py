"""The operations tests' fixtures."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def bench_common() -> ModuleType:
    """A fresh copy of bench/common.py (the benches' shared module, run as a script, not a
    package), for a test to patch."""
    spec = importlib.util.spec_from_file_location("bench_common", ROOT / "bench" / "common.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
