from __future__ import annotations

from typing import Any

import ninja


class Router(ninja.Router):
    """A ninja router whose responses use the schemas' camelCase aliases."""

    def add_api_operation(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("by_alias") is None:
            kwargs["by_alias"] = True
        super().add_api_operation(*args, **kwargs)
