"""Enumerations shared by several apps."""

from django.db import models


class Sport(models.TextChoices):
    FOOTBALL = "football", "Football"
    BASKETBALL = "basketball", "Basketball"
    BASEBALL = "baseball", "Baseball"
    SOCCER = "soccer", "Soccer"
    HOCKEY = "hockey", "Hockey"
    VOLLEYBALL = "volleyball", "Volleyball"
    TENNIS = "tennis", "Tennis"
    TRACK_AND_FIELD = "track_and_field", "Track and field"
    SWIMMING = "swimming", "Swimming"
    WRESTLING = "wrestling", "Wrestling"
    LACROSSE = "lacrosse", "Lacrosse"
    RUGBY = "rugby", "Rugby"
    CRICKET = "cricket", "Cricket"
    OTHER = "other", "Other"


# The five sports the interface lets a user select.
SELECTABLE_SPORTS: tuple[str, ...] = ("football", "basketball", "baseball", "soccer", "hockey")
# The sports offered by the profile form.
PROFILE_SPORTS: tuple[str, ...] = (
    "football",
    "basketball",
    "baseball",
    "soccer",
    "hockey",
    "volleyball",
    "tennis",
    "other",
)


def choices_check(
    field: str, choices: type[models.TextChoices], name: str
) -> models.CheckConstraint:
    """A database check constraint that keeps ``field`` within an enumeration."""
    return models.CheckConstraint(condition=models.Q(**{f"{field}__in": choices.values}), name=name)
