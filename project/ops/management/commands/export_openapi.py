from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Write the API's OpenAPI schema (the source of the SPA's generated types)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--output", default="-", help="file path, or - for stdout")

    def handle(self, *args: Any, output: str, **options: Any) -> None:
        from project.api import api

        schema = api.get_openapi_schema()
        text = json.dumps(schema, indent=2, sort_keys=True) + "\n"
        if output == "-":
            self.stdout.write(text, ending="")
        else:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {output}")
