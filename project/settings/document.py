"""Write docs/configuration.md from the settings' declarations.

    python -m project.settings.document           # writes the page
    python -m project.settings.document --check   # exits 1 when the page differs

The page depends on the declarations only, never on the environment it is written in.
"""

from __future__ import annotations

import argparse
import sys
from itertools import groupby
from pathlib import Path

import project.settings  # noqa: F401  (runs every declaration)
from project.settings.base import BASE_DIR
from project.settings.env import declared, module_title

PAGE = BASE_DIR / "docs" / "configuration.md"

HEADER = """\
# Configuration

<!-- Written by `make docs` (python -m project.settings.document) from the declarations in
project/settings/: edit those, not this page. -->

Every deployment knob is an environment variable. With none set the product runs embedded:
SQLite file, in-memory channel layer, local avatar files, DEBUG on, a generated dev secret.
README.md ("Configuration") says what a deployment must set; this page lists every variable,
its default and what it does, by concern (`project/settings/<concern>.py` declares them).
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _default(text: str) -> str:
    if not text:
        return "(none)"
    # A default given as prose or with its own code spans stays as written.
    if "`" in text or " " in text:
        return _cell(text)
    return f"`{_cell(text)}`"


def render() -> str:
    lines = [HEADER]
    for module, group in groupby(declared(), key=lambda d: d.module):
        lines += [f"## {module_title(module)}", ""]
        lines += [f"`{module.replace('.', '/')}.py`", ""]
        lines += ["| variable | default | what it does |", "|---|---|---|"]
        for item in group:
            description = item.description
            if item.reader:
                description += f" Read by {item.reader}."
            lines.append(f"| `{item.name}` | {_default(item.default)} | {_cell(description)} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when the page differs")
    parser.add_argument("--output", type=Path, default=PAGE)
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date: run `make docs`", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
