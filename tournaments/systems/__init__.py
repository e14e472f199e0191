"""Tournaments' scoring and pairing as pure functions of plain data (no Django).

As lila's ``modules/tournament`` (``arena/ScoringSystem.scala``,
``arena/PairingSystem.scala``) and ``modules/swiss``: the Django app feeds these functions
from the database on a tick (the entrants and every pairing so far, as ``records``' values)
and stores their answers. docs/guide.md#tournaments states the rules.

- ``records``: what goes in (``Entrant``, ``Played``) and the ``Standing`` of a Swiss or a
  McMahon; ``PairingError``.
- ``arena``: lichess's arena (points, fire, berserk, each player's score sheet; pairing
  waves of free players).
- ``swiss``: fixed rounds paired as a maximum-weight matching; Buchholz, Sonneborn-Berger,
  disc difference.
- ``mcmahon``: Swiss on McMahon scores (start scores from a bar of Go ranks); SOS, SODOS.
- ``roundrobin``: every pair once, by the circle method.
- ``sheets``: a player's line a round (opponent, colour, result with forfeits and byes),
  for the cross-table of a Swiss, a McMahon or a round robin.
- ``ranking``: ranks from standings, ties sharing a rank.
- ``ranks``: Go ranks as numbers (30k = 0 .. 9d = 38).
- ``matching``: the one call to networkx's maximum-weight matching.
"""
