from django.apps import AppConfig


class CommentsConfig(AppConfig):
    name = "project.comments"
    label = "comments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.accounts.services import register_user_deletion_step
        from project.claims.selectors import register_player_export_section
        from project.comments import selectors, services
        from project.comments.schemas import (
            CommentEventOut,
            CommentRemovedOut,
            CommentReviewChangedOut,
        )
        from project.moderation.hooks import register_report_target
        from project.scouting.hooks import register_player_anonymised
        from realtime.publish import register_payloads

        register_payloads(
            {
                "comment.created": CommentEventOut,
                "comment.removed": CommentRemovedOut,
                "comments.review": CommentReviewChangedOut,
            }
        )
        register_report_target("comment", services.comment_report)
        register_user_deletion_step(services.user_comments_delete)
        register_export_section(selectors.comment_export)
        register_player_export_section(selectors.player_comments_export)
        register_player_anonymised(services.player_comments_scrub)
