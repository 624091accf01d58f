from django.apps import AppConfig


class CommentsConfig(AppConfig):
    name = "project.comments"
    label = "comments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.comments import services
        from project.comments.schemas import (
            CommentEventOut,
            CommentRemovedOut,
            CommentReviewChangedOut,
        )
        from project.moderation.hooks import register_report_target
        from realtime.publish import register_payloads

        register_payloads(
            {
                "comment.created": CommentEventOut,
                "comment.removed": CommentRemovedOut,
                "comments.review": CommentReviewChangedOut,
            }
        )
        register_report_target("comment", services.comment_report)
