from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """Clubs: the records players' free-text clubs are matched to, their pages, follows,
    followers' notifications and admins' merges. The models live in scouting (players and
    follows point at them); this app keeps them."""

    name = "project.clubs"
    label = "clubs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.clubs.services import club_followers_notify, player_club_link
        from project.scouting.hooks import (
            register_nomination_approved,
            register_player_changed,
        )

        # Scouting does not import clubs: a player's club record follows its free text on
        # every nomination and edit, and an approval reaches the club's followers.
        register_player_changed(player_club_link)
        register_nomination_approved(club_followers_notify)
