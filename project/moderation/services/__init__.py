"""Admin writes, one module per subject: deciding nominations and verifying players
(``decisions``), managing accounts (``users``), taking players down and restoring them on an
athlete's or a parent's request (``takedowns``), and members' reports (``reports``).

Each service is one transaction that writes its moderation-log entry and queues its live events
(sent after the commit) in the same transaction as the change it records.
"""
