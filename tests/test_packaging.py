"""What the product's install holds: pyproject's package discovery, as setuptools reads it when
it builds the package, finds project and realtime and leaves out devtools (the servers and
drills the tests and benches share), the tests and the benches."""

from __future__ import annotations

from pathlib import Path

from setuptools import find_packages
from setuptools.config.pyprojecttoml import read_configuration

ROOT = Path(__file__).resolve().parent.parent


def installed_packages() -> list[str]:
    config = read_configuration(ROOT / "pyproject.toml", expand=False)
    find = config["tool"]["setuptools"]["packages"]["find"]
    return find_packages(
        where=str(ROOT), include=find.get("include", ["*"]), exclude=find.get("exclude", ())
    )


def test_the_install_holds_the_product() -> None:
    packages = installed_packages()
    assert {"project", "project.ops", "realtime"} <= set(packages)


def test_the_install_leaves_devtools_tests_and_benches_out() -> None:
    tops = {package.split(".")[0] for package in installed_packages()}
    assert tops == {"project", "realtime"}
    assert not [package for package in installed_packages() if "harness" in package]
