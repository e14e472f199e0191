"""Signals of the games app (Django's dispatcher): what the services announce to the
rest of the process without knowing who listens."""

from django.dispatch import Signal

computer_owes = Signal()
"""Sent after a commit that left the computer a turn to play (kwargs: ``game_id``): the
process's watch looks for it at once instead of at its next tick."""
