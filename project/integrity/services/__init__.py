"""Writes of vote integrity, one module per subject: the rules run on each committed vote
(``detection``), raising, growing, closing and reopening a flag (``flags``), voiding and
restoring a set of votes (``voiding``), the record of who opened a voter list (``audit``), and
clearing the IP-cluster id of old votes (``retention``).

Detection runs after the vote's commit, in a few indexed counts (project/integrity/models.py
names the rules); a match raises or updates one open flag per rule and subject and pushes
``integrity.flagged`` to the admins. Voiding keeps the vote rows (``status=void``) and takes
them out of every counter and their points, in one transaction that also writes the moderation
log; restoring puts back exactly what voiding took.
"""
