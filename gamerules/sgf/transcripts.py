"""Othello transcripts: an 8x8 game as the squares of its placements, ``f5d6c3``
(``othello_transcript``, ``parse_othello_transcript``), the passes implied.
"""

from __future__ import annotations

from gamerules.base import Move, RulesError, gettext_noop
from gamerules.othello import OthelloPosition

from .record import GameRecord, RecordError
from .replaying import Entry, play_entries

__all__ = ["othello_transcript", "parse_othello_transcript"]


def othello_transcript(record: GameRecord) -> str:
    """An 8x8 Othello game as the plain transcript of its placements, e.g. ``f5d6c3``.

    Passes are left out: the transcript implies them. Raises ``RecordError``
    for any other game or size, or a game from a setup position.
    """
    start = _transcript_start(record.kind, record.size)
    if record.setup is not None:
        raise RecordError(
            gettext_noop("a transcript starts from the standard position, not from a setup")
        )
    return "".join(start.format_point(move.point) for _, move in record.moves if move.point)


def parse_othello_transcript(text: str) -> GameRecord:
    """The 8x8 Othello game of a transcript such as ``f5d6c3``, moves checked.

    Case and whitespace are ignored. The passes the transcript implies are put
    in, and a finished game gets its result by disc count. Raises
    ``RecordError`` naming the move that is not a square or not legal.
    """
    start = _transcript_start("othello", 8)
    squares = "".join(text.split()).lower()
    entries = []
    for number, index in enumerate(range(0, len(squares), 2), start=1):
        square = squares[index : index + 2]
        try:
            point = start.parse_point(square)
        except RulesError:
            raise RecordError(
                gettext_noop("move %(number)s: %(square)s is not a square of the 8x8 board"),
                number=number,
                square=repr(square),
            ) from None
        entries.append(Entry(None, Move.place(point)))
    played = list(play_entries(start, entries, fill_passes=True))
    final = played[-1].position if played else start
    return GameRecord(
        kind="othello",
        size=8,
        moves=tuple((step.color, step.move) for step in played),
        result=final.result() if isinstance(final, OthelloPosition) else None,
    )


def _transcript_start(kind: str, size: int) -> OthelloPosition:
    if kind != "othello" or size != 8:
        raise RecordError(
            gettext_noop("a transcript is for 8x8 Othello only, not %(size)sx%(size)s %(kind)s"),
            size=size,
            kind=kind,
        )
    return OthelloPosition.start(8)
