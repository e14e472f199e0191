"""Games and their moves: persistence only (the rules live in gamerules, the use cases
in games.services).

A game keeps a snapshot of its current position (``Position.to_snapshot()``), so that
loading it never replays its history; the moves are the record, each with the diff the
rules returned, which is all a replay needs to step both ways.
"""

from __future__ import annotations

import datetime
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy


def new_public_id() -> str:
    """An unguessable id for URLs: 96 random bits, 16 URL-safe characters."""
    return secrets.token_urlsafe(12)


class Color(models.TextChoices):
    BLACK = "black", gettext_lazy("Black")
    WHITE = "white", gettext_lazy("White")


COLORS = ("black", "white")


@dataclass(frozen=True)
class Seat:
    """One side of a game, read from its row (lila's ``Player``): its colour, the name
    shown, the account of a logged-in player and the server-side session of the browser
    that took it (guests have only that), whether a socket of it is open and since when it
    is away, whether it accepted Go's count, and whether the computer sits there.

    ``Game.seat(color)`` builds one, ``Game.seats`` both; a change is written through
    ``Game.set_seat`` (the only code that names a seat's columns)."""

    color: str
    name: str
    user_id: int | None
    session_key: str
    online: bool
    away_since: datetime.datetime | None
    accepted: bool
    computer: bool
    game: Game = field(repr=False, compare=False)

    @property
    def user(self) -> Any:
        """The seat's account (a query unless the game's row was read with it), or None."""
        return self.game.black_user if self.color == Color.BLACK else self.game.white_user

    @property
    def free(self) -> bool:
        """Whether nobody has taken the seat yet (no name: a waiting game's other side)."""
        return not self.name

    @property
    def opponent(self) -> Seat:
        """The other side of the same game."""
        return self.game.seat(other_color(self.color))


def other_color(color: str) -> str:
    """``white`` for ``black`` and ``black`` for ``white``."""
    return Color.WHITE.value if color == Color.BLACK else Color.BLACK.value


# A seat's fields (``Seat``'s names) and each colour's column for it.
_SEAT_COLUMNS = {
    "black": {
        "name": "black_name",
        "user_id": "black_user_id",
        "user": "black_user",
        "session_key": "black_session_key",
        "online": "black_online",
        "away_since": "black_away_since",
        "accepted": "black_accepted",
    },
    "white": {
        "name": "white_name",
        "user_id": "white_user_id",
        "user": "white_user",
        "session_key": "white_session_key",
        "online": "white_online",
        "away_since": "white_away_since",
        "accepted": "white_accepted",
    },
}


def seat_column(color: str, name: str) -> str:
    """The column of ``color``'s seat that holds its field ``name`` (``Seat``'s, or
    ``user`` for the account's relation): for ``update_fields``, ``values()`` and
    ``order_by``. Raises ValueError for another colour or field."""
    try:
        return _SEAT_COLUMNS[color][name]
    except KeyError:
        raise ValueError(f"no seat field {name!r} of {color!r}") from None


def seat_columns(color: str, **fields: Any) -> dict[str, Any]:
    """``fields`` of ``color``'s seat (``Seat``'s names) by their columns, for a
    queryset's ``update``: ``seat_columns("black", name="ann")`` is ``{"black_name":
    "ann"}``."""
    return {seat_column(color, name): value for name, value in fields.items()}


def seat_q(color: str, **lookups: Any) -> Q:
    """A filter on ``color``'s seat in ``Seat``'s words: ``seat_q("black", user=account)``
    is ``Q(black_user=account)``; a lookup may go on (``user__isnull=True``)."""
    translated = {}
    for lookup, value in lookups.items():
        name, _, rest = lookup.partition("__")
        column = seat_column(color, name)
        translated[f"{column}__{rest}" if rest else column] = value
    return Q(**translated)


def any_seat_q(**lookups: Any) -> Q:
    """Either seat matching ``lookups`` (``seat_q``'s): ``any_seat_q(user=account)`` is a
    game the account plays in."""
    return seat_q(Color.BLACK, **lookups) | seat_q(Color.WHITE, **lookups)


class ChangedAt(models.DateTimeField):  # type: ignore[type-arg]
    """When a row last changed (``auto_now``), never earlier than the value it replaces:
    a change saved under the row's lock is later than the one before it even when the
    process saving it has a clock behind the last one's. A game's live events are ordered
    by it (``live.events``: a socket drops a state older than what its client has)."""

    def pre_save(self, model_instance: models.Model, add: bool) -> datetime.datetime:
        before = getattr(model_instance, self.attname)
        now: datetime.datetime = super().pre_save(model_instance, add)
        if before is not None and now <= before:
            now = before + datetime.timedelta(microseconds=1)
            setattr(model_instance, self.attname, now)
        return now


class Game(models.Model):
    """One game of Othello or Go: options, seats, current position, outcome."""

    class Kind(models.TextChoices):
        OTHELLO = "othello", gettext_lazy("Othello")
        GO = "go", gettext_lazy("Go")

    class Status(models.TextChoices):
        WAITING = "waiting", gettext_lazy("Waiting for an opponent")
        ACTIVE = "active", gettext_lazy("In progress")
        SCORING = "scoring", gettext_lazy("Scoring")
        FINISHED = "finished", gettext_lazy("Finished")
        ABORTED = "aborted", gettext_lazy("Aborted")

    class Scoring(models.TextChoices):
        TERRITORY = "territory", gettext_lazy("Territory (Japanese)")
        AREA = "area", gettext_lazy("Area (Chinese)")

    public_id = models.CharField(max_length=22, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    size = models.PositiveSmallIntegerField()
    komi = models.FloatField(
        null=True, blank=True, help_text=gettext_lazy("Go only: points given to White.")
    )
    scoring_method = models.CharField(
        max_length=9, choices=Scoring.choices, blank=True, help_text=gettext_lazy("Go only.")
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)

    # A seat per colour: the name shown, the account of a logged-in player, and the
    # server-side session of the browser that took it (guests have only that).
    black_name = models.CharField(max_length=40, blank=True)
    black_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games_as_black",
    )
    black_session_key = models.CharField(max_length=40, blank=True, db_index=True)
    white_name = models.CharField(max_length=40, blank=True)
    white_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games_as_white",
    )
    white_session_key = models.CharField(max_length=40, blank=True, db_index=True)
    creator_color = models.CharField(max_length=5, choices=Color.choices)

    snapshot = models.JSONField(
        help_text=gettext_lazy("The current position, from the rules' to_snapshot().")
    )
    # The board before the first move when it is not the game's own start: an imported
    # record's setup (a Go handicap, a position). Records and replays start from it.
    start = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "The start position when not the standard one (an SGF setup): "
            '{"rows": [...], "to_move": "white", "handicap": 2 or null}.'
        ),
    )
    ply = models.PositiveIntegerField(
        default=0, help_text=gettext_lazy("The number of moves stored.")
    )
    to_move = models.CharField(max_length=5, choices=Color.choices)
    result = models.CharField(
        max_length=16,
        blank=True,
        help_text=gettext_lazy("B+12, W+3.5, B+R, W+R or Draw once finished."),
    )
    score = models.JSONField(default=dict, blank=True)

    # Go's count after two passes: the stones marked dead (the agreed ones once finished),
    # the territory and per-colour breakdown that follow, who accepted this marking, and
    # the marking's number, raised at every change so that an accept can name the marking
    # it agrees to.
    dead = models.JSONField(
        default=list, blank=True, help_text=gettext_lazy("Go: [[r, c], ...] marked dead.")
    )
    territory = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy('Go, once counted: {"black": [[r, c], ...], "white": ...}'),
    )
    score_detail = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Go, once counted: the breakdown of each colour's points."),
    )
    black_accepted = models.BooleanField(default=False)
    white_accepted = models.BooleanField(default=False)
    marking = models.PositiveIntegerField(
        default=0, help_text=gettext_lazy("Go: the number of the current marking of dead stones.")
    )

    # The clock (gamerules.clock; the services charge it, games.workers.clockwatch flags it).
    # ``clocks`` holds each side's clock as of the start of its turn (the side to move)
    # or after its last move; the side to move has been thinking since
    # ``turn_started_at`` and runs out at ``deadline`` (or, while it owes its first move,
    # must have made it by then: no clock runs yet). Both are empty while no clock
    # runs (no time control, waiting, scoring, over).
    time_control = models.JSONField(
        null=True, blank=True, help_text=gettext_lazy("TimeControl.to_json(); empty: no clock.")
    )
    clocks = models.JSONField(
        null=True,
        blank=True,
        help_text=gettext_lazy('{"black": C, "white": C} (gamerules.clock.SideClock)'),
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)

    # The computer's seat (games.services.computer): its colour ("" for a game between two
    # people) and level; which process is thinking its move (a lease: another process
    # takes over when that one stops writing its heartbeat) and since when; and in Go's
    # count, the dead stones it sees (None: not looked yet).
    computer_color = models.CharField(max_length=5, choices=Color.choices, blank=True)
    computer_level = models.PositiveSmallIntegerField(null=True, blank=True)
    computer_thinker = models.CharField(max_length=80, blank=True)
    computer_since = models.DateTimeField(null=True, blank=True)
    computer_dead = models.JSONField(null=True, blank=True)

    # Presence: a seat is online while one of its sockets is open on any process
    # (games.models.Connection); ``away_since`` is when it last went offline, or since it
    # was taken when it never came.
    black_online = models.BooleanField(default=False)
    white_online = models.BooleanField(default=False)
    black_away_since = models.DateTimeField(null=True, blank=True)
    white_away_since = models.DateTimeField(null=True, blank=True)

    # Around the board (games.services.table): a pending request to take back the last
    # move (the asking colour), the ply at which one was declined (none may be asked
    # again before the next move); after the game, a rematch offered (the offering colour)
    # and, once accepted, the new game.
    undo_request = models.CharField(max_length=5, choices=Color.choices, blank=True)
    undo_declined_ply = models.PositiveIntegerField(null=True, blank=True)
    rematch_offer = models.CharField(max_length=5, choices=Color.choices, blank=True)
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    # Why an aborted game was aborted (games.services.ending.end_aborted).
    class AbortReason(models.TextChoices):
        CALLED_OFF = "called_off", gettext_lazy("Called off before anyone joined")
        FIRST_MOVE = "first_move", gettext_lazy("A first move was not made in time")
        LEFT = "left", gettext_lazy("Left against the computer without moving")

    abort_reason = models.CharField(max_length=10, choices=AbortReason.choices, blank=True)

    # A rated game moves both players' ratings when it ends (players.ratings): only
    # between two accounts, with a clock.
    rated = models.BooleanField(default=False)

    # A game stored from an imported record (games.services.imports): its seats carry the
    # record's names and belong to nobody (no account, no session), and no list of a
    # player's games, nor the home page's, shows it. (A default in the database too: the
    # older migrations' models, which do not know the column, can still store games.)
    imported = models.BooleanField(default=False, db_default=False)

    # A challenge: the waiting game's free seat is kept for this account (only it may
    # take it; anyone else who opens the game watches).
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=gettext_lazy("A challenge: the only account that may take the free seat."),
    )

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = ChangedAt(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Not created_at's day: an imported record was played long before it was stored,
    # and the archive, the lobby and the admin order games by when they were stored.
    played_on = models.DateField(
        null=True,
        blank=True,
        default=timezone.localdate,
        help_text=gettext_lazy(
            "The day the game began (SGF DT): today for a game played here, the "
            "record's for an imported one, empty when the record names no day."
        ),
    )

    class Meta:
        ordering = ("-created_at",)
        indexes = (
            # The lobby (open games, newest first), recent results, the archive's filters.
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(fields=["kind", "size", "status"], name="game_kind_size_status"),
            models.Index(fields=["status", "-finished_at"], name="game_status_finished"),
            # A player's games, one seat at a time (players.selectors: profiles).
            models.Index(fields=["black_user", "-created_at"], name="game_black_user_created"),
            models.Index(fields=["white_user", "-created_at"], name="game_white_user_created"),
            # A profile's results, its live games and its games' count, from the index alone.
            models.Index(
                fields=["black_user", "status", "result", "finished_at"],
                name="game_black_user_status",
            ),
            models.Index(
                fields=["white_user", "status", "result", "finished_at"],
                name="game_white_user_status",
            ),
            # The clock watch: the games whose running clock has run out.
            models.Index(
                fields=["deadline"],
                name="game_deadline",
                condition=models.Q(deadline__isnull=False),
            ),
        )
        constraints = (
            # Whatever a record's PB and PW say, nobody's account plays in it.
            models.CheckConstraint(
                condition=models.Q(imported=False)
                | models.Q(black_user__isnull=True, white_user__isnull=True),
                name="game_imported_belongs_to_nobody",
            ),
        )

    def __str__(self) -> str:
        black = self.black_name or "?"
        white = self.white_name or "?"
        return f"{self.get_kind_display()} {self.size}x{self.size} {black} vs {white}"

    def seat(self, color: str) -> Seat:
        """The seat of ``color`` (``black`` or ``white``), as the row holds it now.
        Raises ValueError for another colour."""
        if color == Color.BLACK:
            return Seat(
                color=Color.BLACK.value,
                name=self.black_name,
                user_id=self.black_user_id,
                session_key=self.black_session_key,
                online=self.black_online,
                away_since=self.black_away_since,
                accepted=self.black_accepted,
                computer=self.computer_color == Color.BLACK,
                game=self,
            )
        if color == Color.WHITE:
            return Seat(
                color=Color.WHITE.value,
                name=self.white_name,
                user_id=self.white_user_id,
                session_key=self.white_session_key,
                online=self.white_online,
                away_since=self.white_away_since,
                accepted=self.white_accepted,
                computer=self.computer_color == Color.WHITE,
                game=self,
            )
        raise ValueError(f"no seat {color!r}: black or white")

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """Both seats, Black's first."""
        return self.seat(Color.BLACK), self.seat(Color.WHITE)

    def seat_of_user(self, user_id: int | None) -> Seat | None:
        """The seat of the account ``user_id``, None when it plays no side here."""
        if user_id is None:
            return None
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def creator(self) -> Seat:
        """The seat of the player who created the game."""
        return self.seat(self.creator_color)

    def set_seat(self, color: str, **changes: Any) -> list[str]:
        """Change ``color``'s seat on this row (not saved): ``changes`` are ``Seat``'s
        fields (``name``, ``user_id``, ``session_key``, ``online``, ``away_since``,
        ``accepted``). Returns the columns changed, for ``save(update_fields=...)``.
        Raises ValueError for another colour or field."""
        columns = []
        for name, value in changes.items():
            column = seat_column(color, name)
            setattr(self, column, value)
            columns.append(column)
        return columns


class Move(models.Model):
    """One stored move: a placement, a pass (Othello's automatic ones too), a resignation,
    or the end of a game by the clock (timeout) or by a player gone (forfeit); ``color``
    is the side that moved, resigned, ran out or left."""

    class Action(models.TextChoices):
        PLACE = "place", gettext_lazy("Place")
        PASS = "pass", gettext_lazy("Pass")
        RESIGN = "resign", gettext_lazy("Resign")
        TIMEOUT = "timeout", gettext_lazy("Ran out of time")
        FORFEIT = "forfeit", gettext_lazy("Left the game")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField(help_text=gettext_lazy("1 for the first move of the game."))
    color = models.CharField(max_length=5, choices=Color.choices)
    action = models.CharField(max_length=7, choices=Action.choices)
    row = models.PositiveSmallIntegerField(null=True, blank=True)
    col = models.PositiveSmallIntegerField(null=True, blank=True)
    diff = models.JSONField(
        default=dict,
        blank=True,
        help_text=gettext_lazy('{"flipped": [[r, c], ...]} or {"captured": [...]}'),
    )
    clock_ms = models.IntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The mover's time left after the move (remaining_ms)."),
    )
    overtime_left = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "In overtime: byo-yomi periods or Canadian stones left after the move."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("ply",)
        constraints = (
            # Two racing submissions for one ply can never both land.
            models.UniqueConstraint(fields=["game", "ply"], name="move_unique_game_ply"),
        )

    def __str__(self) -> str:
        where = f" ({self.row}, {self.col})" if self.row is not None else ""
        return f"{self.ply}. {self.color} {self.action}{where}"


class ServerProcess(models.Model):
    """A server process that is up: it writes ``seen_at`` every second or so
    (games.workers.clockwatch). One that stopped writing is gone (killed): its sockets no longer
    count; and when every process had stopped, the site was down, and the clocks that
    ran meanwhile are credited that time."""

    name = models.CharField(max_length=80, primary_key=True)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name


class Connection(models.Model):
    """An open websocket of a seated player: what makes the seat online."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    color = models.CharField(max_length=5, choices=Color.choices)
    process = models.CharField(max_length=80, db_index=True)
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField()

    class Meta:
        indexes = (models.Index(fields=["game", "color"], name="connection_game_color"),)

    def __str__(self) -> str:
        return f"{self.game_id} {self.color} on {self.process}"


class ChatMessage(models.Model):
    """A message in a game's chat, from a player (``color``) or a spectator (no colour);
    or a comment of an imported record (no name, no colour): the record's, nobody's."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    name = models.CharField(
        max_length=40, blank=True, help_text=gettext_lazy("Empty: a comment of the record.")
    )
    color = models.CharField(max_length=5, choices=Color.choices, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    session_key = models.CharField(max_length=40, blank=True)
    text = models.TextField(max_length=300)
    ply = models.PositiveIntegerField(help_text=gettext_lazy("The moves played when it was said."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("created_at", "pk")
        indexes = (models.Index(fields=["game", "created_at"], name="chat_game_created"),)

    def __str__(self) -> str:
        return f"{self.name}: {self.text[:40]}"


class Analysis(models.Model):
    """The engines' review of a finished game: one verdict per position, stored in order.

    ``plies`` holds the analysed positions so far (the JSON of ``GET
    /games/<id>/analysis.json``, one entry per position, appended once each);
    ``total`` is how many there will be. The process working on it is ``worker``
    until ``lease_until``: another process takes it over only once the lease ran out,
    and goes on from the last stored position.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        RUNNING = "running", gettext_lazy("Running")
        DONE = "done", gettext_lazy("Done")
        FAILED = "failed", gettext_lazy("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.QUEUED)
    engine = models.CharField(max_length=60)
    total = models.PositiveIntegerField(
        help_text=gettext_lazy("The positions to analyse: the moves + 1.")
    )
    plies = models.JSONField(default=list, blank=True)
    worker = models.CharField(max_length=64, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of {self.game.public_id}: {self.status}"

    @property
    def progress(self) -> float:
        """The share of the positions analysed, 0..1."""
        return len(self.plies) / self.total if self.total else 1.0
