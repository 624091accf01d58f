"""Environment settings, each declared once: its name, default and one-line description.

``setting()`` reads one variable and records its declaration; ``external()`` records one that
a process reads itself before Django's settings exist (the gunicorn config, the heap tuning,
the Sentry start-up) or that a library reads (boto3's credentials). ``docs/configuration.md``
is written from these declarations (``python -m project.settings.document``, ``make docs``),
grouped by the settings module that declares them.

    EMAIL_DAILY_CAP = setting("EMAIL_DAILY_CAP", 10, "Notification emails a member a day.")

The variable's type is the default's: text as given, ``int``/``float`` parsed, ``bool`` true
for 1/true/yes/on, ``list`` comma-separated; an empty value of a ``bool`` or ``list`` counts as
unset. ``parse`` reads the text itself; ``shown`` is the default as the page shows it, where the
value depends on another setting or on the checkout's path.

This module imports nothing of Django or of the project: settings modules import it first.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, overload

T = TypeVar("T")

TRUE = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True)
class Declaration:
    name: str
    default: str  # as the page shows it
    description: str
    module: str  # the settings module that declares it (its concern)
    reader: str = ""  # for external ones: where the variable is read


DECLARATIONS: dict[str, Declaration] = {}


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, (list, tuple)):
        return ",".join(str(item) for item in default)
    return str(default)


def _declaring_module() -> str:
    frame = inspect.currentframe()
    # _declaring_module <- _record <- setting()/external() <- the settings module
    for _ in range(3):
        assert frame is not None
        frame = frame.f_back
    assert frame is not None
    return str(frame.f_globals.get("__name__", ""))


def _record(name: str, shown: str, description: str, reader: str = "") -> None:
    module = _declaring_module()
    known = DECLARATIONS.get(name)
    if known is not None and known.module != module:
        raise RuntimeError(f"{name} is declared twice: in {known.module} and in {module}")
    if not description.strip():
        raise RuntimeError(f"{name} needs a description")
    DECLARATIONS[name] = Declaration(name, shown, " ".join(description.split()), module, reader)


def parse_bool(text: str) -> bool:
    return text.strip().lower() in TRUE


def parse_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


@overload
def setting(name: str, default: T, description: str, *, shown: str | None = None) -> T: ...
@overload
def setting(
    name: str,
    default: T,
    description: str,
    *,
    parse: Callable[[str], T],
    shown: str | None = None,
) -> T: ...
def setting(
    name: str,
    default: Any,
    description: str,
    *,
    parse: Callable[[str], Any] | None = None,
    shown: str | None = None,
) -> Any:
    """The value of the environment variable ``name`` (``default`` when unset), recorded with
    its description for docs/configuration.md."""
    _record(name, _shown(default) if shown is None else shown, description)
    text = os.environ.get(name)
    if text is None:
        return default
    if parse is not None:
        return parse(text)
    if isinstance(default, bool):
        return parse_bool(text) if text.strip() else default
    if isinstance(default, list):
        return parse_list(text) or default
    if isinstance(default, int):
        return int(text)
    if isinstance(default, float):
        return float(text)
    return text


def external(name: str, default: str, description: str, *, reader: str) -> None:
    """Record a variable that ``reader`` (a module or program) reads from the environment
    itself, with its default as that reader applies it."""
    _record(name, default, description, reader)


def declared() -> list[Declaration]:
    """Every declaration, in the order the settings modules made them."""
    return list(DECLARATIONS.values())


def module_title(module: str) -> str:
    """A settings module's concern: the first line of its docstring."""
    doc = sys.modules[module].__doc__ or module
    return doc.strip().splitlines()[0].rstrip(".")
