"""The use cases: every change to a game goes through one of these modules' functions.
Callers import the concrete module (``from games.services import play`` then
``play.play(...)``, or ``from games.services.errors import GameError``): this package
re-exports nothing, so a walk from a caller reaches the code at once.

Each use case runs in one transaction, locks the game row (``lock.locked``:
``select_for_update``; on SQLite the immediate transaction's write lock does it), checks
the caller against the contract's error order, asks the rules module, writes the moves
and the new snapshot, and schedules its broadcast for after the commit
(``after_commit.on_commit``, ``games.realtime.events``). A failure raises ``GameError``
before anything is written.

Who is calling is an ``accounts.players.Player``, built by views and consumers from the
request's or the websocket's session and account, never from anything a client sends.

One module a use case family, as Zulip's ``zerver/actions``: ``lobby`` (create, join,
call off, a guest's seats to an account, the count of games being played), ``play``
(moves), ``scoring`` (Go's count), ``clock`` (first moves, charging, the flag, the
site's downtime), ``presence`` (who is online, claiming a game left, ending a game
against the computer left for a day), ``computer`` (the computer's seat, turns and
moves), ``table`` (chat, taking back a move, rematch), ``imports`` (records),
``analysis`` (the engines' review and exploration), ``tell`` (the notifications a game
sends). What they share, each in its own small module: ``errors`` (``GameError``, its
codes, ``said``), ``lock`` (the row locked), ``after_commit`` (the broadcast, the
computer nudged), ``fields`` (a request's fields checked), ``refusals`` (the caller's
standing, the game's state, a stale ply), ``moves`` (a move's row, the running score),
``ending`` (a game finished or aborted).
"""
