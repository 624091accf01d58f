"""What the test suite and the benchmarks share to run real servers: a server process launcher,
private PostgreSQL and Redis servers, the fault drills and websocket frames written by hand.

bench/ imports these and nothing from tests/. Nothing of the product imports them (an
import-linter contract in pyproject.toml).
"""
