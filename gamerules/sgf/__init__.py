"""Game records in and out: SGF (FF[4]) for both games, and Othello transcripts.

Split as sgfmill splits its own: ``record`` (the values: ``GameRecord``, ``Setup``,
``MoveClock``, ``RecordError``), ``properties`` (the point letters), ``writing``
(``export_sgf``, ``export_collection``), ``reading`` (``import_sgf``,
``import_collection``), ``replaying`` (``replay``, ``start_position``) and ``transcripts``
(Othello's ``f5d6c3``). This package's names are theirs, gathered.

SGF is read and written with sgfmill's ``sgf_grammar``, which knows the syntax
(escapes, values, collections) but no game; this module maps it to a
``GameRecord`` and checks every move with the rules.

Conventions of the files written here, and read back:

- ``GM[1]`` is Go, ``GM[2]`` Othello; ``FF[4]``, ``CA[UTF-8]``, ``SZ``, ``AP``,
  and when known ``KM`` (Go), ``PB``, ``PW``, ``DT``, ``RE``, ``GN``, ``GC``.
- A game that starts from a setup position writes it in the root: ``AB``,
  ``AW``, ``PL`` (the side to move), and ``HA`` when the record read one.
- One node per move, ``B[..]`` or ``W[..]``: column letter then row letter,
  counted from the top-left corner, so ``aa`` is ``(0, 0)`` and Othello's
  ``f5`` is ``fe``. A pass is an empty value, ``B[]``; Othello's automatic
  passes are written the same way. On reading, ``tt`` is a pass too (FF[3]).
- A scored Go game carries, in its last node, the territory as ``TB``/``TW``
  and the stones agreed dead as ``MA`` (marks, which viewers draw as crosses
  on those stones). SGF has no property meant for dead stones; ``MA`` in the
  node holding the final territory is what CGoban and KGS write.

What reading accepts beyond that, and what it refuses:

- Only the main line is read (the first variation wherever the game branches).
- Text is decoded with the file's ``CA``; without one, as UTF-8 if it is valid
  UTF-8, else as ISO-8859-1 (the SGF default). A ``str`` is taken as already
  decoded, whatever its ``CA`` says.
- A start position other than the game's own is read from the root node: the
  board ``AB``/``AW``/``AE`` lay out on an empty board (without them, the
  game's start: Othello's four centre discs), and the side to move ``PL``;
  without ``PL``, White when a Go handicap (``HA`` of 2 or more) placed black
  stones only, else Black. It must be a legal board: no Go chain without a
  liberty, and an Othello board that play can reach. ``HA`` is kept with it.
  A setup that lays out the game's own start (Othello programs often write the
  four centre discs) is no setup. Setup in any later node is refused.
- Othello: a placement by the side that did not have the turn is accepted when
  the other side had to pass (the automatic pass is put in), and the record
  ends with the automatic passes that follow its last placement, as a game
  played on the server does. A pass by a side that had a move is illegal.

>>> record = import_sgf("(;GM[2]SZ[8]PB[Ann]PW[Bo];B[fe];W[fd])")
>>> othello_transcript(record), record.black_name
('f5f4', 'Ann')
>>> print(export_sgf(record), end="")
(;FF[4]AP[othello-go-server:0.1]CA[UTF-8]GM[2]PB[Ann]PW[Bo]SZ[8];B[fe];W[fd])
"""

from __future__ import annotations

from .properties import parse_sgf_point, sgf_point
from .reading import import_collection, import_sgf
from .record import IMPORT_SIZES, GameKind, GameRecord, MoveClock, RecordError, Setup
from .replaying import replay, start_position
from .transcripts import othello_transcript, parse_othello_transcript
from .writing import export_collection, export_sgf

__all__ = [
    "IMPORT_SIZES",
    "GameKind",
    "GameRecord",
    "MoveClock",
    "RecordError",
    "Setup",
    "export_collection",
    "export_sgf",
    "import_collection",
    "import_sgf",
    "othello_transcript",
    "parse_othello_transcript",
    "parse_sgf_point",
    "replay",
    "sgf_point",
    "start_position",
]
