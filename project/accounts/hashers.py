"""Argon2id with OWASP's parameters, and a bound on hashes computed at once per process.

Django's Argon2 defaults take 100 MiB per hash (memory_cost=102400 KiB, parallelism=8), so a
burst of registrations grows a process by gigabytes. OWASP's Password Storage Cheat Sheet
recommends Argon2id with 19 MiB, t=2, p=1. Hashes made with other parameters still verify
(same algorithm name) and ``must_update`` makes Django rehash them at the next successful
sign-in. A per-process semaphore caps the hashes running at once (``PASSWORD_HASH_CONCURRENCY``),
so N parallel sign-ins cost at most that many times 19 MiB; the others wait their turn
(docs/decisions.md#argon2-parameters).
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth.hashers import Argon2PasswordHasher

from project.common.slots import Slots


def _return_large_blocks_to_the_system() -> None:
    """glibc raises its mmap threshold (up to 32 MiB) each time an mmapped block is freed, so
    after the first hash every thread's 19 MiB would come from a malloc arena that keeps it
    after the hash. A fixed threshold (1 MiB; M_MMAP_THRESHOLD, as MALLOC_MMAP_THRESHOLD_
    would set) keeps such blocks mmapped and unmapped at free, so the memory goes back to the
    system (docs/decisions.md#mallopt-for-argon2)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        m_mmap_threshold = -3
        ctypes.CDLL("libc.so.6").mallopt(m_mmap_threshold, 1 << 20)


_return_large_blocks_to_the_system()

_slots = Slots("PASSWORD_HASH_CONCURRENCY")


@contextmanager
def hashing_slot() -> Iterator[None]:
    """Hold one of the process's hashing slots while a hash is computed."""
    with _slots.held():
        yield


class Argon2idPasswordHasher(Argon2PasswordHasher):
    """Django's Argon2 hasher (argon2id since Django 3.2) with OWASP's cost and the bound."""

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1

    def encode(self, password: str, salt: str) -> str:
        with hashing_slot():
            return super().encode(password, salt)

    def verify(self, password: str, encoded: str) -> bool:
        with hashing_slot():
            return super().verify(password, encoded)
