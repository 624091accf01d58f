"""Referrals that cannot be farmed: a code per adult account, rewarded only on qualification.

An account registered with a member's code (``/register?ref=CODE``) is recorded as referred
(``User.referred_by`` and a ``Referral`` row) and gains nothing by it: no points, no trust (a
vote's trust reads the account's age only). The daily job ``referrals_qualify`` decides each
waiting referral once the account is ``REFERRAL_QUALIFY_DAYS`` old:

- not rewarded when the account is not an adult's (nobody is paid to bring children in), has
  been named in an integrity flag, or shares a network with the referrer: a /24 (IPv4) or /64
  (IPv6) both were seen on (``network_key``, at registration and on the engagement pages) or
  the voting cluster (``Vote.ip_prefix``) of any of their votes; a referrer never seen on any
  network proves nothing and is treated as the same network;
- waiting until it was active (voted or nominated) on ``REFERRAL_ACTIVE_DAYS`` different days,
  and not rewarded (inactive) when ``REFERRAL_DECIDE_DAYS`` pass first;
- rewarded, with ``REFERRAL_POINTS`` and the ``referral_joined`` notification, at most
  ``REFERRAL_MONTHLY_CAP`` times per referrer in a calendar month; past it, not rewarded
  (monthly_cap)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from project.accounts.models import User
from project.accounts.progress import user_points_add
from project.engagement import gate
from project.engagement.models import ActiveDay, MemberNetwork, Referral, ReferralState
from project.integrity.models import IntegrityFlag
from project.scouting.models import NotificationType, Vote
from project.scouting.services.activity import notification_create

IPV4_NETWORK = 24
IPV6_NETWORK = 64


class NotRewarded(StrEnum):
    NOT_ADULT = "not_adult"
    FLAGGED = "flagged"
    SAME_NETWORK = "same_network"
    INACTIVE = "inactive"
    MONTHLY_CAP = "monthly_cap"
    REFERRER_INELIGIBLE = "referrer_ineligible"


def referral_link(code: str) -> str:
    return f"/register?ref={code}"


def referral_joined_message(referred: User) -> str:
    return (
        f"{referred.name} joined ScoutVote with your link and is now an active member. "
        f"You earned {settings.REFERRAL_POINTS} points."
    )


def network_key(address: str) -> str:
    """A keyed hash of the address's /24 (IPv4) or /64 (IPv6); "" when it is not a client's
    address (not an address, or loopback)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return ""
    bits = IPV4_NETWORK if ip.version == 4 else IPV6_NETWORK
    network = ipaddress.ip_network(f"{ip}/{bits}", strict=False)
    secret = hashlib.sha256(b"scoutvote-referral-network:" + settings.SECRET_KEY.encode())
    return hmac.new(secret.digest(), str(network).encode(), hashlib.sha256).hexdigest()[:16]


def network_seen(*, user: User, address: str, now: datetime | None = None) -> None:
    """Remember that ``user`` acted from ``address``'s network (its keyed hash only)."""
    key = network_key(address)
    if not key:
        return
    MemberNetwork.objects.update_or_create(
        user_id=user.pk, key=key, defaults={"last_seen": now or timezone.now()}
    )


def referral_record(*, user: User, code: str, address: str) -> Referral | None:
    """At registration: record ``user`` as referred by the adult account holding ``code``
    (any case). An unknown code, one's own, or one of an account that is not an adult's is
    ignored: the registration goes on as without it."""
    code = code.strip().upper()
    if not code:
        return None
    referrer = User.objects.filter(referral_code=code, is_active=True).exclude(pk=user.pk).first()
    if referrer is None or not gate.engagement_allowed(referrer):
        return None
    User.objects.filter(pk=user.pk).update(referred_by=referrer)
    user.referred_by = referrer
    network_seen(user=user, address=address)
    return Referral.objects.create(referrer=referrer, referred=user)


def _flagged(user_id: int, since: datetime) -> bool:
    for accounts in IntegrityFlag.objects.filter(updated_at__gte=since).values_list(
        "accounts", flat=True
    ):
        if user_id in (accounts or []):
            return True
    return False


def _same_network(referrer_id: int, referred_id: int) -> bool:
    def networks(user_id: int) -> set[str]:
        return set(MemberNetwork.objects.filter(user_id=user_id).values_list("key", flat=True))

    def clusters(user_id: int) -> set[str]:
        return set(
            Vote.objects.filter(user_id=user_id)
            .exclude(ip_prefix="")
            .values_list("ip_prefix", flat=True)
        )

    referrer_networks = networks(referrer_id)
    if not referrer_networks:
        return True
    return bool(referrer_networks & networks(referred_id)) or bool(
        clusters(referrer_id) & clusters(referred_id)
    )


def _month_start(now: datetime) -> datetime:
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def _decide(referral: Referral, now: datetime) -> tuple[str, str] | None:
    """The referral's new (state, reason), or None while it waits."""
    referrer, referred = referral.referrer, referral.referred
    if not gate.engagement_allowed(referred, now=now):
        return ReferralState.NOT_REWARDED, NotRewarded.NOT_ADULT
    if not gate.engagement_allowed(referrer, now=now):
        return ReferralState.NOT_REWARDED, NotRewarded.REFERRER_INELIGIBLE
    if _flagged(referred.pk, referred.date_joined):
        return ReferralState.NOT_REWARDED, NotRewarded.FLAGGED
    if _same_network(referrer.pk, referred.pk):
        return ReferralState.NOT_REWARDED, NotRewarded.SAME_NETWORK
    days = ActiveDay.objects.filter(user_id=referred.pk).count()
    if days < settings.REFERRAL_ACTIVE_DAYS:
        if referred.date_joined <= now - timedelta(days=settings.REFERRAL_DECIDE_DAYS):
            return ReferralState.NOT_REWARDED, NotRewarded.INACTIVE
        return None
    # The referrer's row is locked while the month's rewards are counted: two decisions for
    # one referrer cannot both take the last place under the cap.
    User.objects.select_for_update().filter(pk=referrer.pk).first()
    rewarded = Referral.objects.filter(
        referrer_id=referrer.pk, state=ReferralState.REWARDED, decided_at__gte=_month_start(now)
    ).count()
    if rewarded >= settings.REFERRAL_MONTHLY_CAP:
        return ReferralState.NOT_REWARDED, NotRewarded.MONTHLY_CAP
    return ReferralState.REWARDED, ""


def referral_decide(*, referral_id: int, now: datetime | None = None) -> str:
    """Decide one waiting referral (``_decide``); rewards it once, under its row's lock."""
    now = now or timezone.now()
    with transaction.atomic():
        referral = (
            Referral.objects.select_for_update()
            .select_related("referrer", "referred")
            .filter(pk=referral_id, state=ReferralState.WAITING)
            .first()
        )
        if referral is None:
            return ""
        decision = _decide(referral, now)
        if decision is None:
            return ReferralState.WAITING
        referral.state, referral.reason = decision
        referral.decided_at = now
        referral.save(update_fields=["state", "reason", "decided_at"])
        if referral.state == ReferralState.REWARDED:
            user_points_add(user_id=referral.referrer_id, delta=settings.REFERRAL_POINTS)
            notification_create(
                user=referral.referrer,
                type=NotificationType.REFERRAL_JOINED,
                message=referral_joined_message(referral.referred),
            )
        return referral.state


def referrals_qualify(*, now: datetime | None = None) -> dict[str, int]:
    """The daily job: decide every waiting referral old enough; counts by outcome."""
    now = now or timezone.now()
    old_enough = now - timedelta(days=settings.REFERRAL_QUALIFY_DAYS)
    counts: dict[str, int] = {}
    waiting = Referral.objects.filter(
        state=ReferralState.WAITING, referred__date_joined__lte=old_enough
    ).order_by("created_at", "id")
    for referral_id in waiting.values_list("pk", flat=True):
        outcome = referral_decide(referral_id=referral_id, now=now)
        if outcome:
            counts[outcome] = counts.get(outcome, 0) + 1
    return counts
