"""Each 4xx is logged once: daphne's access log has the line, django.request does not repeat it
as a warning; a 5xx is still logged with its traceback."""

from __future__ import annotations

import logging

import pytest

from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db


def test_a_4xx_is_not_logged_again_by_django(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        assert ApiClient().get("/api/auth/me").status_code == 401
        assert ApiClient().get("/api/no-such-route").status_code == 404
    assert [r for r in caplog.records if r.name == "django.request"] == []


def test_django_request_still_logs_errors() -> None:
    logger = logging.getLogger("django.request")
    assert not logger.isEnabledFor(logging.WARNING)
    assert logger.isEnabledFor(logging.ERROR)
