"""A bound on how many threads of a process do one costly thing at once (hashing a password,
decoding an image): the rest wait for a slot instead of all holding their memory together."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

_all: weakref.WeakSet[Slots] = weakref.WeakSet()


class Slots:
    """As many slots as the setting ``setting`` names (at least one), read when first used and
    again after the setting changes (tests)."""

    def __init__(self, setting: str) -> None:
        self.setting = setting
        self._lock = threading.Lock()
        self._semaphore: threading.BoundedSemaphore | None = None
        _all.add(self)

    def _slots(self) -> threading.BoundedSemaphore:
        with self._lock:
            if self._semaphore is None:
                count = max(1, int(getattr(settings, self.setting)))
                self._semaphore = threading.BoundedSemaphore(count)
            return self._semaphore

    def forget(self) -> None:
        with self._lock:
            self._semaphore = None

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold one slot for the duration of the block."""
        with self._slots():
            yield


@receiver(setting_changed)
def _reset(*, setting: str, **kwargs: Any) -> None:
    for slots in list(_all):
        if slots.setting == setting:
            slots.forget()
