"""Every metric the Grafana dashboard (deploy/grafana/) and the alerts (deploy/prometheus/)
query is one the product exports: read from the registry the metric modules fill (a typo, or a
metric renamed without its panels, fails here). That the running shape exports them with real
traffic is tests/deploy/test_observability.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from prometheus_client import REGISTRY

import project.common.metrics  # noqa: F401  (fills the registry)
import realtime.metrics  # noqa: F401

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
KEYWORDS = {"and", "or", "unless", "offset", "bool", "inf", "nan"}
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "gauge": ("",),
    "info": ("_info",),
}


def exported() -> set[str]:
    """Every sample name the registry can export (``up`` is Prometheus's own)."""
    names = {"up"}
    for family in REGISTRY.collect():
        names.update(family.name + suffix for suffix in SUFFIXES.get(family.type, ("",)))
    return names


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects: its identifiers but functions, keywords,
    label names and matchers, ranges and strings."""
    expr = re.sub(r'"[^"]*"', "", expr)
    expr = re.sub(r"\{[^}]*\}", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    tokens = set(re.findall(r"\b[A-Za-z_:][A-Za-z0-9_:]*\b(?!\s*\()", expr))
    return tokens - KEYWORDS


def dashboard_queries() -> list[tuple[str, str]]:
    found = []
    for path in sorted((DEPLOY / "grafana").glob("*.json")):
        for panel in json.loads(path.read_text())["panels"]:
            found += [(panel["title"], target["expr"]) for target in panel["targets"]]
    return found


def alert_queries() -> list[tuple[str, str]]:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    return [(rule["alert"], rule["expr"]) for group in rules["groups"] for rule in group["rules"]]


def test_the_parser_finds_metric_names_only() -> None:
    expr = (
        "histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket"
        '{status=~"5..", route!="x"}[5m]))) / on (instance) up and time() - some_gauge > 30'
    )
    assert metric_names(expr) == {"http_request_duration_seconds_bucket", "up", "some_gauge"}


@pytest.mark.parametrize("where", ["grafana", "alerts"])
def test_every_queried_metric_is_exported(where: str) -> None:
    pairs = dashboard_queries() if where == "grafana" else alert_queries()
    assert pairs, f"no {where} queries found"
    names = exported()
    for title, expr in pairs:
        named = metric_names(expr)
        assert named, (title, expr)
        assert named <= names, (title, sorted(named - names))


def test_a_misspelt_metric_is_caught() -> None:
    assert not metric_names("rate(votes_cats_total[5m])") <= exported()
