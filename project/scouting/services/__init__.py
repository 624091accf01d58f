"""Writes of the scouting app, one module per area: nominations and player edits
(``nominations``), votes (``votes``), follows (``follows``), the feed's activity and
notifications (``activity``), what an account deletion removes (``deletion``), and what a vote
entering or leaving the counts changes, for every write that moves votes (``bookkeeping``).
Points and streaks are the accounts app's (``project.accounts.progress``).

Each service is one transaction that also keeps every counter it touches (``vote_count``,
points, streaks) and queues its live events with :func:`realtime.publish.publish`, which sends
them only after the commit.

Lock order, to keep concurrent writes free of deadlocks: a nomination row (``FOR NO KEY
UPDATE``) or a player row before any user row, and user rows in ascending id order. A vote
inserts its row and its activity before its nomination's lock (taken by the counters' UPDATE,
``votes.vote_cast``): those inserts lock nothing, because Django's foreign keys on PostgreSQL
are ``DEFERRABLE INITIALLY DEFERRED`` and their ``KEY SHARE`` locks come at the commit.
"""
