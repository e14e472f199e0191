"""Signals of the games app (Django's dispatcher): what the services announce to the
rest of the process without knowing who listens."""

from django.dispatch import Signal

computer_owes = Signal()
"""Sent after a commit that left the computer a turn to play (kwargs: ``game_id``): the
process's watch looks for it at once instead of at its next tick."""

game_finished = Signal()
"""Sent when a game has just finished, inside the transaction that ends it, its row locked
(kwargs: ``game``, not saved yet): a receiver's writes commit or roll back with the end
(the players app moves the ratings), and its error fails the end."""

game_aborted = Signal()
"""Sent when a game has just been aborted (``end_aborted``), inside the transaction that
aborts it, its row locked and saved (kwargs: ``game``; its ``abort_reason`` says why, its
``to_move`` whose turn it was): a receiver's writes commit or roll back with it (the
moderation app counts a first move not made in time towards a playban)."""
