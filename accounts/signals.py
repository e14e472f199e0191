"""What the accounts layer tells the apps above it.

``guest_logged_in(sender, guest_session_key, session, user)``: a guest logged in or
signed up; what it did under its session ``guest_session_key`` (its seats) now belongs
to ``user`` and its new ``session`` (``Player.of(session, user)``). The games app moves
the seats.
"""

from django.dispatch import Signal

guest_logged_in = Signal()
