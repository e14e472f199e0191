"""Games stored from records (an imported SGF file)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

import gamerules as rules
from gamerules import sgf
from games.models import ChatMessage, Color, Game, Move
from games.services.ending import finish
from games.services.errors import GameError, said
from games.services.lobby import NAME_MAX_LENGTH, OTHELLO_MAX_SIZE
from games.services.moves import move_row, running_score
from games.services.scoring import count


@transaction.atomic
def import_game(*, record: sgf.GameRecord) -> Game:
    """A finished game stored from ``record`` (an imported SGF file), every move replayed.

    The game is ``imported``: its seats carry the record's names (``Black`` and ``White``
    when it has none) and belong to nobody, whatever the names say (no session, no
    account, even one of that name): nobody plays on in it, and no list of a player's
    games shows it. A game played to its end is counted (Go: with the record's dead
    stones, ``MA``); the result is the record's when it has one, else that count, else
    blank. The record's comments (``C``) are kept at their move as the record's (chat
    messages without a name nor a colour: never a seat's, whatever "name: text" they
    hold), each cut to ``COMMENT_LENGTH`` characters. It was played on the day the
    record's ``DT`` names (``played_on``; none when it names no day), with its clock
    (``TM``/``OT``) and each move's time left (``BL``/``WL``, ``OB``/``OW``). It starts from the
    record's setup when it has one (``start``); a setup without moves is a finished game at
    ply 0 whose result is the record's, else an Othello board's count when nobody can move,
    else blank (a Go position is not counted).
    Raises GameError("bad_request") for a record the rules refuse (kind, size, setup, a
    move); nothing is stored then.
    """
    if record.kind == Game.Kind.OTHELLO and record.size > OTHELLO_MAX_SIZE:
        raise GameError(
            "bad_request",
            gettext("Othello boards are at most %(othello_max_size)sx%(othello_max_size)s")
            % {"othello_max_size": OTHELLO_MAX_SIZE},
        )
    try:
        played = sgf.replay(record)
    except sgf.RecordError as error:
        raise GameError("bad_request", said(error)) from None
    position = played[-1][0] if played else sgf.start_position(record)
    game = Game(
        kind=record.kind,
        size=record.size,
        start=None if record.setup is None else record.setup.to_json(),
        creator_color=Color.BLACK,
        imported=True,
        black_name=_record_name(record.black_name, "Black"),
        white_name=_record_name(record.white_name, "White"),
        snapshot=position.to_snapshot(),
        ply=len(played),
        to_move=position.to_move.value,
        played_on=record.played_on,
        time_control=None if record.time_control is None else record.time_control.to_json(),
    )
    if record.kind == Game.Kind.GO:
        game.scoring_method = "territory"
        game.komi = record.komi or 0.0
    game.score = running_score(game, position)
    counted = None
    if isinstance(position, rules.OthelloPosition) and position.is_over:
        counted = position.result()
    elif isinstance(position, rules.GoPosition) and position.is_over:
        counted = count(game, position, record.dead).result
    result = record.result or counted or ""
    finish(game, result=result[: Game._meta.get_field("result").max_length])
    game.save()
    moves = [move_row(game, ply, diff) for ply, (_, diff) in enumerate(played, start=1)]
    for move, clock in zip(moves, record.clocks, strict=False):
        if clock is not None:
            move.clock_ms, move.overtime_left = clock
    Move.objects.bulk_create(moves)
    ChatMessage.objects.bulk_create(_comments_of(game, record))
    return game


COMMENT_LENGTH = 300
"""An imported comment's most characters (a chat message's)."""


def _comments_of(game: Game, record: sgf.GameRecord) -> list[ChatMessage]:
    """The record's comments, in order, as the record's (no name, no colour)."""
    return [
        ChatMessage(game=game, name="", color="", text=text[:COMMENT_LENGTH], ply=ply)
        for ply, comment in sorted(record.comments.items())
        if (text := comment.strip())
    ]


def _record_name(name: str | None, default: str) -> str:
    return (name or "").strip()[:NAME_MAX_LENGTH] or default
