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

review_done = Signal()
"""Sent when a finished game's review has stored its last position, inside the transaction
that stores it (kwargs: ``analysis``, saved, its ``game`` loaded): the puzzles app queues
a Go game reviewed by KataGo for mining."""

game_aborted = Signal()
"""Sent when a game has just been aborted (``end_aborted``), inside the transaction that
aborts it, its row locked and saved (kwargs: ``game``; its ``abort_reason`` says why, its
``to_move`` whose turn it was): a receiver's writes commit or roll back with it (the
moderation app counts a first move not made in time towards a playban)."""

game_changed = Signal(use_caching=True)
"""Sent after the commit of a change that everyone watching must hear (kwargs: ``game``
and ``change``): ``"moved"`` (with ``moves``, the moves just stored, in ply order),
``"state"`` (a change without a move; ``skip``: a channel that sends its client the state
itself, or None), ``"undone"`` (the last move taken back), ``"lobby"`` (the lobby's lists
or count changed; ``game`` None). The live app builds the game state G and sends it to
the game's group (``live.events``), and the lobby's message to the lobby; the games app
knows neither. Sent for every move: its receivers are cached per sender (Django's
``use_caching``, as the models' signals)."""
