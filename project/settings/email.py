"""Email, sent by the background worker only (project/jobs, project/notify).

EMAIL_URL picks the backend: smtp://user:password@host:587 (plain, or STARTTLS with ?tls=1),
smtp+tls://user:password@host:587 (STARTTLS), smtps://user:password@host:465 (implicit TLS) or
console:// (printed on the worker's console). Without it, EMAIL_HOST / EMAIL_PORT /
EMAIL_HOST_USER / EMAIL_HOST_PASSWORD / EMAIL_USE_TLS / EMAIL_USE_SSL (or EMAIL_BACKEND) pick
one; with none of them set, emails are printed on the worker's console.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from project.settings.env import setting

EMAIL_URL = setting(
    "EMAIL_URL",
    "",
    "The SMTP server the worker sends through: `smtp://user:password@host:587?tls=1` or "
    "`smtp+tls://...:587` (STARTTLS), `smtps://...:465` (implicit TLS), `smtp://host:25`, or "
    "`console://` (printed on the worker's console).",
)
_BACKEND = setting(
    "EMAIL_BACKEND",
    "",
    "Django's email backend, overriding the one `EMAIL_URL` or `EMAIL_HOST` picks.",
    shown="SMTP with `EMAIL_URL` or `EMAIL_HOST`, else the console",
)
_HOST = setting("EMAIL_HOST", "", "Without `EMAIL_URL`: the SMTP host.", shown="localhost")
_PORT = setting(
    "EMAIL_PORT",
    "",
    "Without `EMAIL_URL`, or to override its default: the SMTP port.",
    shown="25 (465 with `smtps://`, 587 with `smtp+tls://`)",
)
_USER = setting("EMAIL_HOST_USER", "", "Without `EMAIL_URL`: the SMTP user.")
_PASSWORD = setting("EMAIL_HOST_PASSWORD", "", "Without `EMAIL_URL`: the SMTP password.")
_USE_TLS = setting("EMAIL_USE_TLS", False, "STARTTLS (as `?tls=1` or `smtp+tls://`).")
_USE_SSL = setting("EMAIL_USE_SSL", False, "Implicit TLS (as `smtps://`).")

_email = urlsplit(EMAIL_URL) if EMAIL_URL else None
if _email is not None and _email.scheme not in {"smtp", "smtps", "smtp+tls", "console"}:
    raise ImproperlyConfigured(
        "EMAIL_URL must start with smtp://, smtp+tls://, smtps:// or console://"
    )
_email_query = dict(parse_qsl(_email.query)) if _email is not None else {}
_email_console = _email is not None and _email.scheme == "console"
if _email_console:
    _email = None
_smtp_configured = _email is not None or bool(_HOST)
EMAIL_BACKEND = (
    "django.core.mail.backends.console.EmailBackend"
    if _email_console
    else _BACKEND
    or (
        "django.core.mail.backends.smtp.EmailBackend"
        if _smtp_configured
        else "django.core.mail.backends.console.EmailBackend"
    )
)
EMAIL_HOST = (_email.hostname if _email else None) or _HOST or "localhost"
EMAIL_PORT = (_email.port if _email else None) or int(
    _PORT
    or (
        "465"
        if _email and _email.scheme == "smtps"
        else "587"
        if _email and _email.scheme == "smtp+tls"
        else "25"
    )
)
EMAIL_HOST_USER = unquote(_email.username or "") if _email else _USER
EMAIL_HOST_PASSWORD = unquote(_email.password or "") if _email else _PASSWORD
EMAIL_USE_TLS = (
    _USE_TLS
    or _email_query.get("tls", "") in {"1", "true"}
    or bool(_email and _email.scheme == "smtp+tls")
)
EMAIL_USE_SSL = _USE_SSL or bool(_email and _email.scheme == "smtps")
EMAIL_TIMEOUT = setting(
    "EMAIL_TIMEOUT",
    10.0,
    "Seconds an SMTP connection may block the worker before the attempt counts as failed.",
    shown="10",
)
DEFAULT_FROM_EMAIL = setting(
    "DEFAULT_FROM_EMAIL", "ScoutVote <noreply@scoutvote.example>", "The sender of every email."
)
# Notification emails (project/notify): the first of a kind about one nomination goes at the
# next minute's dispatch, the others of the following EMAIL_FOLD_SECONDS fold into one; at
# most EMAIL_DAILY_CAP notification emails a member a day (UTC), the weekly digest apart.
EMAIL_FOLD_SECONDS = setting(
    "EMAIL_FOLD_SECONDS",
    3600,
    "Seconds after a notification email in which the others of its kind about one nomination "
    "fold into one.",
)
EMAIL_DAILY_CAP = setting(
    "EMAIL_DAILY_CAP",
    10,
    "Notification emails a member a day at most (UTC; the weekly digest apart).",
)
OUTBOUND_RETENTION_DAYS = setting(
    "OUTBOUND_RETENTION_DAYS",
    30,
    "Days sent emails' and pushes' once-only rows are kept before the daily `prune_outbound` "
    "deletes them (parked ones stay).",
)
EMAIL_UNSUBSCRIBE_MAX_AGE = setting(
    "EMAIL_UNSUBSCRIBE_MAX_AGE",
    90 * 86400,
    "Seconds an email's signed one-click unsubscribe link works (90 days).",
)
EMAIL_UNSUBSCRIBE_MAILTO = setting(
    "EMAIL_UNSUBSCRIBE_MAILTO",
    "",
    "An address for the `mailto:` form of List-Unsubscribe beside the https one (empty: "
    "https only).",
)
