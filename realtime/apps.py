from typing import Any

from django.apps import AppConfig
from django.core.signals import setting_changed


def _reset_on_setting_change(*, setting: str, **kwargs: Any) -> None:
    if setting == "REDIS_URL" or setting.startswith("REALTIME_"):
        from realtime.backend import reset_backend
        from realtime.broadcast import get_publisher
        from realtime.summaries import reset_scheduler

        get_publisher().drain()  # what was queued goes out where it was meant to
        reset_backend()
        reset_scheduler()


class RealtimeConfig(AppConfig):
    name = "realtime"
    label = "realtime"

    def ready(self) -> None:
        setting_changed.connect(_reset_on_setting_change, dispatch_uid="realtime-settings")
