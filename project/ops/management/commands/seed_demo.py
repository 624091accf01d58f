"""Demo data for `make run`: users, players over the five sports, nominations in every status,
votes, follows, activity, notifications and a verified coach's endorsement. Idempotent: a
second run changes nothing.

Everything goes through the domain services, so counters, points, streaks, activity and
notifications are exactly what real use would have produced.
"""

from __future__ import annotations

import contextlib
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from project.accounts.models import Role, User
from project.accounts.services import user_create
from project.coaches.models import CoachVerification
from project.coaches.services import (
    endorsement_write,
    verification_approve,
    verification_create,
)
from project.common.addresses import prefix_key
from project.common.choices import SELECTABLE_SPORTS
from project.common.errors import ApplicationError
from project.integrity.services.detection import vote_inspect
from project.moderation.services.decisions import nomination_approve, nomination_reject
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    Nomination,
    NominationStatus,
    Player,
)
from project.scouting.services.follows import follow_player_create, follow_user_create
from project.scouting.services.nominations import nomination_create, player_identity
from project.scouting.services.votes import vote_cast

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "scoutvote-admin"
SCOUT_PASSWORD = "scoutvote-demo"
SCOUT_COUNT = 29
# Fresh accounts of one network voting one nomination: the Integrity tab's demo ring.
RING_SIZE = 8
DEMO_VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
PLAYERS_PER_SPORT = 12
# Names as long, accented and right-to-left as people's are, after the generated football
# players (so every status shows them): the lists, boards and wall must hold each one.
WORLD_NAMES = [
    "Sebastian Wolfenberg",
    "Maria de los Ángeles Fernández-Castellanos",
    "Johann Maximilian Alexander Friedrich Wilhelm von Hohenzollern-Sigmaringen "
    "und Wolfenbüttel-Braunschweig-Lüneburg",
    "عبد الرحمن بن محمد الهاشمي",
    "יהונתן בן־אברהם רוזנצווייג",
    "Nguyễn Thị Phương Thảo",
]

FIRST_NAMES = [
    "Liam",
    "Noah",
    "Mateo",
    "Ethan",
    "Lucas",
    "Mason",
    "Leo",
    "Kai",
    "Elijah",
    "Aiden",
    "Sofia",
    "Amara",
    "Zara",
    "Maya",
    "Ava",
    "Chloe",
    "Isla",
    "Nia",
    "Layla",
    "Emma",
    "Jonas",
    "Tariq",
    "Diego",
    "Kenji",
    "Ravi",
    "Oskar",
    "Andre",
    "Malik",
    "Theo",
    "Yusuf",
]
LAST_NAMES = [
    "Okafor",
    "Silva",
    "Nakamura",
    "Johnson",
    "Martinez",
    "Kowalski",
    "Haddad",
    "Andersen",
    "O'Brien",
    "Mensah",
    "Rossi",
    "Dubois",
    "Fernandes",
    "Kim",
    "Novak",
    "Abara",
    "Lindqvist",
    "Patel",
    "Moreau",
    "Walker",
    "Costa",
    "Ibrahim",
    "Schmidt",
    "Tanaka",
    "Reyes",
]
SCOUT_FIRST = [
    "Marcus",
    "Helen",
    "Dev",
    "Grace",
    "Tom",
    "Aisha",
    "Pablo",
    "Ingrid",
    "Sam",
    "Rosa",
    "Victor",
    "Mei",
    "Owen",
    "Fatima",
    "Jake",
    "Lena",
    "Carlos",
    "Nadia",
    "Ben",
    "Priya",
    "Hugo",
    "Chidi",
    "Erin",
    "Luis",
    "Hana",
    "Felix",
    "Tara",
    "Omar",
    "Julia",
]
POSITIONS = {
    "football": ["Quarterback", "Wide Receiver", "Running Back", "Linebacker", "Cornerback"],
    "basketball": ["Point Guard", "Shooting Guard", "Small Forward", "Power Forward", "Center"],
    "baseball": ["Pitcher", "Catcher", "Shortstop", "Center Field", "First Base"],
    "soccer": ["Striker", "Winger", "Central Midfielder", "Centre Back", "Goalkeeper"],
    "hockey": ["Center", "Left Wing", "Right Wing", "Defenseman", "Goaltender"],
}
CLUBS = {
    "football": ["Lincoln High Lions", "Westview Academy", "Oak Ridge Eagles", "Bayside Prep"],
    "basketball": ["Riverside Hawks", "Metro Elite AAU", "St. Mary's Academy", "Northgate High"],
    "baseball": ["Sun Valley Sluggers", "Cedar Park High", "Harbor City Pirates", "Elm Grove"],
    "soccer": ["FC Riverside U17", "Ajax Youth Academy", "Porto Juniors", "Lakeside United"],
    "hockey": ["Northern Lights U16", "Maple Leafs Minor", "Ice Hawks Academy", "Bay Blades"],
}
NATIONALITIES = [
    "United States",
    "Canada",
    "Brazil",
    "Nigeria",
    "Japan",
    "Spain",
    "France",
    "Ghana",
    "Sweden",
    "Ireland",
    "Mexico",
    "Portugal",
    "Germany",
    "South Korea",
    "Italy",
]
SKILLS = [
    "Explosive first step and reads the game two moves ahead.",
    "Calm under pressure, leads by example, elite work rate in training.",
    "Exceptional vision and passing range; makes teammates better.",
    "Strong, balanced and fearless in contact; improving every season.",
    "Quick release, high football IQ, coachable and competitive.",
    "Tireless engine with a knack for decisive plays in big moments.",
]
LOCATIONS = [
    "Austin, USA",
    "Toronto, Canada",
    "Lagos, Nigeria",
    "Lisbon, Portugal",
    "Osaka, Japan",
    "Dublin, Ireland",
    "Madrid, Spain",
    "Accra, Ghana",
]


def demo_sign_in() -> str:
    """How to sign in to the demo, as ``make run`` announces it. With ``ADMIN_2FA_REQUIRED``
    the admin's password alone opens a member's session: the admin tools wait until the admin
    turns on two-factor sign-in, so the announcement says so and how."""
    admin = f"{ADMIN_USERNAME} / {ADMIN_PASSWORD} (admin)"
    scout = f"scout1 / {SCOUT_PASSWORD} (scout)"
    if not settings.ADMIN_2FA_REQUIRED:
        return f"Sign in with {admin}, {scout}."
    return (
        f"Sign in with {scout}. The admin, {admin}, must turn on two-factor sign-in before "
        "using the admin tools (ADMIN_2FA_REQUIRED is on): sign in, open Settings, "
        "Two-Factor Sign-In, scan the QR code with an authenticator app and enter its first "
        "code."
    )


class Command(BaseCommand):
    help = "Seed demo data (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        # The demo people have no inboxes: keep their notification email off the console.
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
            self._seed()

    def _seed(self) -> None:
        rng = random.Random(2026)
        admin = self._user(ADMIN_USERNAME, "Alex Admin", ADMIN_PASSWORD, Role.ADMIN, "soccer", rng)
        scouts = [
            self._user(
                f"scout{i}",
                f"{SCOUT_FIRST[i - 1]} {LAST_NAMES[(i * 7) % len(LAST_NAMES)]}",
                SCOUT_PASSWORD,
                Role.SCOUT,
                SELECTABLE_SPORTS[i % len(SELECTABLE_SPORTS)],
                rng,
            )
            for i in range(1, SCOUT_COUNT + 1)
        ]
        created = 0
        for sport in SELECTABLE_SPORTS:
            for index in range(PLAYERS_PER_SPORT):
                created += self._nomination(sport, index, scouts, admin, rng)
        for offset, name in enumerate(WORLD_NAMES):
            index = PLAYERS_PER_SPORT + offset
            created += self._nomination(SELECTABLE_SPORTS[0], index, scouts, admin, rng, name)
        self._follows(scouts, rng)
        self._ring()
        self._coaches(admin, scouts)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {User.objects.count()} users, {Player.objects.count()} players, "
                f"{Nomination.objects.count()} nominations ({created} new). "
                f"Scouts scout1..scout{SCOUT_COUNT} share one password. {demo_sign_in()}"
            )
        )

    def _user(
        self, username: str, name: str, password: str, role: str, sport: str, rng: random.Random
    ) -> User:
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            return existing
        user = user_create(
            username=username,
            email=f"{username}@scoutvote.example",
            password=password,
            name=name,
            favorite_sport=sport,
            role=role,
            # Adults: the demo's scouts show on the public previews and boards.
            birth_year=rng.randint(1965, 2000),
        )
        user.bio = (
            f"Scouting {sport} talent for {rng.randint(3, 20)} years. Always at the touchline."
        )
        user.location = rng.choice(LOCATIONS)
        # Old enough to be trusted (TRUST_ACCOUNT_AGE_HOURS), so their votes fill the boards.
        user.date_joined = timezone.now() - timedelta(days=90)
        user.save(update_fields=["bio", "location", "date_joined"])
        return user

    def _coaches(self, admin: User, scouts: list[User]) -> None:
        """scout1 a verified coach who endorsed a player of their sport; scout2 waiting on the
        Coaches tab."""
        coach, asking = scouts[0], scouts[1]
        if CoachVerification.objects.filter(user__in=[coach, asking]).exists():
            return
        request = verification_create(
            user=coach,
            organization="Riverside Academy",
            role_title="Head coach, U16",
            evidence_url="https://riverside-academy.example/staff",
            work_email="",
        )
        verification_approve(admin=admin, verification_id=request.pk)
        endorsed = (
            Nomination.objects.filter(status=NominationStatus.APPROVED, sport=coach.favorite_sport)
            .order_by("id")
            .first()
        )
        if endorsed is not None:
            endorsement_write(
                coach=coach,
                player_id=endorsed.player_id,
                content="Coached against this player twice: composed under pressure, reads the "
                "game early and lifts the players around them.",
                rating=5,
            )
        verification_create(
            user=asking,
            organization="Lakeside High School",
            role_title="Assistant coach",
            evidence_url="",
            work_email="coach@lakeside.example",
        )

    def _ring(self) -> None:
        """A vote ring for the Integrity tab: RING_SIZE accounts made today, all on one
        network, voting for one nomination (flagged live: shared network, new accounts)."""
        if User.objects.filter(username="ring1").exists():
            return
        target = (
            Nomination.objects.filter(status=NominationStatus.APPROVED, sport=SELECTABLE_SPORTS[0])
            .order_by("id")
            .first()
        )
        if target is None:
            return
        for number in range(1, RING_SIZE + 1):
            member = user_create(
                username=f"ring{number}",
                email=f"ring{number}@scoutvote.example",
                password=SCOUT_PASSWORD,
                name=f"Fan Account {number}",
                favorite_sport=target.sport,
                role=Role.SCOUT,
                birth_year=1995,
            )
            cast = vote_cast(
                user=member, nomination_id=target.pk, ip_prefix=prefix_key(f"203.0.113.{number}")
            )
            vote_inspect(voter_id=member.pk, nomination_id=target.pk, cast=cast)

    def _nomination(
        self,
        sport: str,
        index: int,
        scouts: list[User],
        admin: User,
        rng: random.Random,
        name: str | None = None,
    ) -> int:
        """The sport's index-th demo nomination (a generated name unless one is given)."""
        seed = SELECTABLE_SPORTS.index(sport) * 100 + index
        local = random.Random(seed)
        generated = f"{local.choice(FIRST_NAMES)} {local.choice(LAST_NAMES)}"
        name = name or generated
        club = local.choice(CLUBS[sport])
        use_grad_year = local.random() < 0.4
        age = None if use_grad_year else local.randint(13, 19)
        graduation_year = local.randint(2026, 2031) if use_grad_year else None
        identity = player_identity(
            name=name, sport=sport, club=club, age=age, graduation_year=graduation_year
        )
        if Player.objects.filter(normalized_identity=identity).exists():
            return 0
        nominator = scouts[seed % len(scouts)]
        with transaction.atomic():
            nomination = nomination_create(
                user=nominator,
                name=name,
                age=age,
                graduation_year=graduation_year,
                position=local.choice(POSITIONS[sport]),
                nationality=local.choice(NATIONALITIES),
                club=club,
                sport=sport,
                skills=local.choice(SKILLS),
                video_link="https://www.youtube.com/watch?v=dQw4w9WgXcQ"
                if index % 3 == 0
                else None,
            )
            # Spread creation over the last two weeks so lists and the feed look lived in.
            created_at = timezone.now() - timedelta(hours=local.randint(1, 14 * 24))
            Nomination.objects.filter(pk=nomination.pk).update(created_at=created_at)
            Activity.objects.filter(related_nomination=nomination).update(created_at=created_at)
        voters = local.sample(scouts, k=local.randint(0, 14))
        for voter in voters:
            with contextlib.suppress(ApplicationError):  # a voter drawn twice
                vote_cast(user=voter, nomination_id=nomination.pk)
        decision = index % 6
        if decision in (1, 2, 3):
            nomination_approve(admin=admin, nomination_id=nomination.pk)
        elif decision == 4:
            nomination_reject(
                admin=admin, nomination_id=nomination.pk, reason="Not enough footage to assess yet."
            )
        return 1

    def _follows(self, scouts: list[User], rng: random.Random) -> None:
        players = list(
            Player.objects.filter(nominations__status__in=LIVE_STATUSES)
            .order_by("id")
            .values_list("id", flat=True)
            .distinct()[:40]
        )
        for position, scout in enumerate(scouts):
            local = random.Random(1000 + position)
            for other in local.sample(scouts, k=3):
                if other.pk != scout.pk:
                    follow_user_create(user=scout, target_id=other.pk)
            for player_id in local.sample(players, k=min(3, len(players))):
                follow_player_create(user=scout, player_id=player_id)
