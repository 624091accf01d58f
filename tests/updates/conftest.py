"""The media backends of tests/media, for updates carrying an image."""

from tests.media.conftest import local_backend

__all__ = ["local_backend"]
