"""docker-compose.yml's observability profile (compose itself cannot run here): Prometheus and
Grafana are behind the ``observability`` profile and nothing a plain ``up`` starts needs them;
every file they mount exists; Prometheus's compose config keeps prometheus.yml's jobs, labels
and rules, scrapes the services that serve metrics on their METRICS_PORT, and passes
``promtool check config``; Grafana is provisioned with that Prometheus and the dashboard."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import unless_available

ROOT = Path(__file__).resolve().parents[2]
PROFILED = {"prometheus", "grafana"}
SHARDED = {"redis-groups-a", "redis-groups-b"}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "docker-compose.yml").read_text()))


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Bind mounts of a service: host path (relative to the repository) -> container path."""
    found = {}
    for volume in service.get("volumes", []):
        source, target, *_ = volume.split(":")
        if source.startswith("./"):
            found[source[2:]] = target
    return found


def test_prometheus_and_grafana_only_with_the_profile() -> None:
    services = compose()["services"]
    for name in PROFILED:
        assert services[name]["profiles"] == ["observability"], name
    for name, service in services.items():
        if name in SHARDED:
            assert service["profiles"] == ["sharded"], name
        elif name not in PROFILED:
            assert "profiles" not in service, name
            assert not (PROFILED | SHARDED) & set(service.get("depends_on") or {}), name
    assert {"promdata", "grafanadata"} <= set(compose()["volumes"])
    for name in PROFILED:
        for port in services[name]["ports"]:
            assert port.startswith("127.0.0.1:"), (name, port)


def test_the_live_layers_group_instances_only_with_their_profile_and_named_by_the_setting() -> None:
    """`docker compose up` runs one Redis; with the "sharded" profile two more hold the live
    layer's groups once REALTIME_REDIS_SHARDS names them (unset: the groups on REDIS_URL)."""
    document = compose()
    services = document["services"]
    assert set(services) >= SHARDED
    assert document["x-env"]["REALTIME_REDIS_SHARDS"] == "${REALTIME_REDIS_SHARDS:-}"
    for name in SHARDED:
        assert services[name]["image"] == services["redis"]["image"], name


def test_every_mounted_file_exists() -> None:
    for name in PROFILED:
        for source in mounts(compose()["services"][name]):
            assert (ROOT / source).exists(), (name, source)


def test_the_compose_scrape_config_matches_the_shapes() -> None:
    deploy = ROOT / "deploy" / "prometheus"
    shape = yaml.safe_load((deploy / "prometheus.yml").read_text())
    composed = yaml.safe_load((deploy / "prometheus.compose.yml").read_text())
    assert composed["global"] == shape["global"]
    assert composed["rule_files"] == shape["rule_files"]

    def jobs(config: dict[str, Any]) -> dict[str, Any]:
        return {
            job["job_name"]: [c["labels"] for c in job["static_configs"]]
            for job in config["scrape_configs"]
        }

    assert jobs(composed) == jobs(shape)
    services = compose()["services"]
    targets = {
        target
        for job in composed["scrape_configs"]
        for static in job["static_configs"]
        for target in static["targets"]
    }
    serving = {
        f"{name}:{service['environment']['METRICS_PORT']}"
        for name, service in services.items()
        if isinstance(service.get("environment"), dict) and "METRICS_PORT" in service["environment"]
    }
    assert targets == serving
    for name in ("http", "ws1", "ws2"):
        assert services[name]["environment"]["METRICS_ADDR"] == "0.0.0.0"
    prometheus = mounts(services["prometheus"])
    assert (
        prometheus["deploy/prometheus/prometheus.compose.yml"] == "/etc/prometheus/prometheus.yml"
    )
    assert prometheus["deploy/prometheus/alerts.yml"] == "/etc/prometheus/alerts.yml"


@unless_available(shutil.which("promtool") is None, reason="needs promtool")
def test_the_compose_scrape_config_passes_promtool(tmp_path: Path) -> None:
    deploy = ROOT / "deploy" / "prometheus"
    shutil.copy(deploy / "prometheus.compose.yml", tmp_path / "prometheus.yml")
    shutil.copy(deploy / "alerts.yml", tmp_path / "alerts.yml")
    done = subprocess.run(
        ["promtool", "check", "config", "prometheus.yml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_grafana_is_provisioned_with_prometheus_and_the_dashboard() -> None:
    grafana = mounts(compose()["services"]["grafana"])
    assert grafana["deploy/grafana/provisioning"] == "/etc/grafana/provisioning"
    provisioning = ROOT / "deploy" / "grafana" / "provisioning"
    (source,) = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())[
        "datasources"
    ]
    assert (source["type"], source["url"], source["isDefault"]) == (
        "prometheus",
        "http://prometheus:9090",
        True,
    )
    (provider,) = yaml.safe_load((provisioning / "dashboards" / "scoutvote.yml").read_text())[
        "providers"
    ]
    folder = provider["options"]["path"]
    dashboards = [target for source, target in grafana.items() if source.endswith(".json")]
    assert dashboards == [f"{folder}/scoutvote.json"]
    assert grafana["deploy/grafana/scoutvote.json"] == f"{folder}/scoutvote.json"


@pytest.mark.parametrize("name", ["prometheus", "grafana"])
def test_images_are_pinned(name: str) -> None:
    image = compose()["services"][name]["image"]
    assert ":" in image and not image.endswith(":latest"), image
