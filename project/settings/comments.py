"""Comments on nominations (project/comments): review and reports."""

from __future__ import annotations

from project.settings.env import setting

COMMENT_CLASSIFIER_THRESHOLD = setting(
    "COMMENT_CLASSIFIER_THRESHOLD",
    0.85,
    "The classifier's score (0..1, alt-profanity-check) from which a comment waits for review.",
    shown="0.85",
)
COMMENT_REPORT_HIDE_WEIGHT = setting(
    "COMMENT_REPORT_HIDE_WEIGHT",
    2.5,
    "The weight of open reports that takes a published comment back to review (hidden until "
    "an admin decides); a report weighs 0.2-2 by its reporter's upheld and dismissed reports, "
    "1 for a first report.",
    shown="2.5",
)
