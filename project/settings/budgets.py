"""Budgets, trust and vote integrity (project/common/budgets.py, project/integrity)."""

from __future__ import annotations

from project.settings.env import setting

# Writes allowed per subject (a user, or a client address's keyed hash) per window, counted in
# the cache every process shares. 0 turns one budget off; BUDGETS=off turns them all off.
BUDGETS_ENABLED = setting(
    "BUDGETS",
    "on",
    "`off` turns every budget off (load tests, benches and the test suites do).",
).strip().lower() not in {"off", "0", "false"}

# Each budget's default and what it counts; its variable is BUDGET_<name>.
_BUDGETS_DECLARED = {
    "VOTES_PER_MINUTE": (10, "Votes per user in any minute."),
    "VOTES_PER_DAY": (100, "Votes per user in any 24 hours."),
    "NOMINATIONS_PER_DAY": (20, "Nominations per user per day."),
    "IP_NOMINATIONS_PER_HOUR": (60, "Nominations per client address per hour."),
    "REGISTRATIONS_PER_HOUR": (
        20,
        "Accounts created per client address per hour (while Redis is down registration "
        "answers 503).",
    ),
    "FOLLOWS_PER_MINUTE": (30, "Follows per user per minute."),
    "PLAYER_EDITS_PER_MINUTE": (10, "Player edits per user per minute."),
    "TAKEDOWNS_PER_HOUR": (
        5,
        "Takedown requests, made without an account, per client address per hour.",
    ),
    "TAKEDOWNS_PER_PLAYER_PER_DAY": (
        3,
        "Confirmed takedown requests about one player over 24 hours (counted in the database) "
        "beyond which an address already seen for the player is refused, a new one never.",
    ),
    "TAKEDOWN_EMAILS_PER_DAY": (
        3,
        "Takedown confirmation emails per recipient (a keyed hash of the address) a day.",
    ),
    "TAKEDOWN_DOMAIN_CONFIRMATIONS_PER_DAY": (
        10,
        "Confirmations per email domain a day that hide a player from the public at once; "
        "beyond it a confirmed request waits for an admin.",
    ),
    "REPORTS_PER_HOUR": (20, "Reports per member per hour."),
    "IP_REPORTS_PER_HOUR": (60, "Reports per client address per hour."),
    "CLAIMS_PER_DAY": (5, "Claims of a player's profile per member per day."),
    "PLAYER_UPDATES_PER_DAY": (20, "Updates posted on players' pages per member per day."),
    "COACH_VERIFICATIONS_PER_DAY": (3, "Requests to be verified as a coach per member per day."),
    "ENDORSEMENTS_PER_HOUR": (30, "Endorsements written or edited per coach per hour."),
    "COMMENTS_PER_MINUTE": (5, "Comments per member in any minute."),
    "COMMENTS_PER_DAY": (50, "Comments per member in any 24 hours."),
}
BUDGET_DEFAULTS = {name: default for name, (default, _) in _BUDGETS_DECLARED.items()}
BUDGETS = {
    name: setting(f"BUDGET_{name}", default, f"{description} 0: no limit.")
    for name, (default, description) in _BUDGETS_DECLARED.items()
}
TAKEDOWN_CONFIRM_HOURS = setting(
    "TAKEDOWN_CONFIRM_HOURS",
    24.0,
    "Hours a takedown request's emailed confirmation link stays valid.",
    shown="24",
)
TAKEDOWN_INDEPENDENT_CONFIRMATIONS = setting(
    "TAKEDOWN_INDEPENDENT_CONFIRMATIONS",
    3,
    "Confirmed takedown requests about one player, from different email domains and client "
    "networks, that take it down fully without an admin (one hides it from the public).",
)
TRUST_ACCOUNT_AGE_HOURS = setting(
    "TRUST_ACCOUNT_AGE_HOURS",
    24.0,
    "Votes of accounts younger than this (hours) count in `voteCount` but not on the ranked "
    "boards nor in the nominator's points; 0 trusts every account.",
    shown="24",
)
VOTE_PREFIX_RETENTION_DAYS = setting(
    "VOTE_PREFIX_RETENTION_DAYS",
    30,
    "Days a vote keeps its IP-prefix key (a keyed hash of the /24 or /48, never the address); "
    "the daily `purge_vote_prefixes` clears older ones.",
)
INTEGRITY_PREFIX_ACCOUNTS = setting(
    "INTEGRITY_PREFIX_ACCOUNTS",
    5,
    "Accounts of one IP prefix voting one nomination within an hour that raise a flag.",
)
INTEGRITY_NEW_ACCOUNT_BURST = setting(
    "INTEGRITY_NEW_ACCOUNT_BURST",
    6,
    "Votes from new accounts on one nomination within an hour that raise a flag.",
)
