"""Words the /boom view of tests/ops/sentry_app.py raises with, which a Sentry report must not
carry but where the request put them. Put together at run time: a report carries the source
lines around the raising one. A module of their own, so that the test reads them without
importing the served app (which points ROOT_URLCONF at itself)."""

SECRET_WORDS = ("@".join(("mia.member", "example.com")), "-".join(("cookie", "value", "0123")))
