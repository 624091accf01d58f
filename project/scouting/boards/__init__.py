"""The boards: all time (the vote count), trending (forward-decayed) and weekly, per sport.

- ``maths``: the trend's log-sum-exp arithmetic, the board week, and rebuilding or checking the
  counters from the votes;
- ``reads``: the REST reads (a board's top entries with ranks and movement, the week, the
  Player of the Week history);
- ``live``: what the live layer pushes about them (``leaderboard.changed``, ``stats.changed``);
- ``schemas``: their wire shapes.
"""
