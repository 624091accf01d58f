"""How many points each contribution earns (the scouts' leaderboard ranks by them)."""

NOMINATION_POINTS = 10
APPROVAL_POINTS = 25
VOTE_POINTS = 1
VOTE_RECEIVED_POINTS = 2
