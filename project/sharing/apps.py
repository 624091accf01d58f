from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


def _card_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from project.sharing.cache import previews_changed
    from project.sharing.services import card_file_delete_on_commit

    card_file_delete_on_commit(instance.key)
    previews_changed(
        nomination_ids=[instance.nomination_id] if instance.nomination_id else (),
        scout_ids=[instance.scout_id] if instance.scout_id else (),
    )


def _nomination_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from project.sharing.cache import previews_changed

    previews_changed(nomination_ids=[instance.pk])


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    from project.sharing.cache import previews_changed

    previews_changed(scout_ids=[instance.pk])


def _settings_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    from project.accounts.models import ProfileVisibility
    from project.sharing.services import share_cards_drop

    if instance.profile_visibility != ProfileVisibility.PUBLIC:
        share_cards_drop(scout_id=instance.user_id)
    else:
        # Made public again: the cached generic preview goes (the card comes with the next
        # redraw).
        from project.sharing.cache import previews_changed

        previews_changed(scout_ids=[instance.user_id])


class SharingConfig(AppConfig):
    name = "project.sharing"
    label = "sharing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.scouting.hooks import register_player_changed, register_vote_statements
        from project.sharing.hooks import player_cards_redraw, vote_card_statements

        # Scouting does not import sharing: a vote asks for its card's redraw in its round
        # trip, a new or edited player for its cards' (project/scouting/hooks.py).
        register_vote_statements(vote_card_statements, under_lock=True)
        register_player_changed(player_cards_redraw)
        # Whatever deletes a card row (a takedown, a rejection, the deletion of its nomination
        # or scout by cascade) takes its stored file along once the deletion commits.
        post_delete.connect(_card_deleted, sender="sharing.ShareCard", dispatch_uid="share_cards")
        # A deleted nomination (its card or none) and a user saved (a name, a deactivation) or
        # deleted leave the preview cache at commit as well.
        post_delete.connect(
            _nomination_deleted, sender="scouting.Nomination", dispatch_uid="share_previews"
        )
        post_delete.connect(_user_changed, sender="accounts.User", dispatch_uid="share_previews")
        post_save.connect(_user_changed, sender="accounts.User", dispatch_uid="share_previews")
        # Accounts do not import sharing: a profile made private or followers-only drops its
        # card through this signal.
        post_save.connect(
            _settings_saved, sender="accounts.UserSettings", dispatch_uid="share_cards_private"
        )
