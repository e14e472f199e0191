"""The help pages' board pictures: positions written as rows, checked by the rules and
drawn by the server's own board (``games.board_svg``). Plain Python, no Django.

A diagram is a position (``rows`` of ``.``, ``B``, ``W`` and the side to move) that the
rules accept: an Othello position that a game can reach (``OthelloPosition.from_setup``),
a Go position whose every chain has a liberty (``GoPosition.from_rows``). A picture
"after a move" is never written by hand: ``after`` plays the move by the rules, so the
flipped discs and the captured stones are the rules' own.

>>> capture = Diagram("go-capture", "go", (".....", ".BB..", "BWW..", ".BB..", "....."),
...                   Color.BLACK, "Two white stones with one liberty", marked="D3")
>>> taken = after(capture, "D3", name="go-captured", label="Captured")
>>> taken.rows[2], len(taken.diff.captured)
('B..B.', 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamerules import (
    Color,
    Diff,
    GoPosition,
    Move,
    OthelloPosition,
    Point,
    Position,
    RulesError,
)
from gamerules.base import ENGLISH, Words, gettext_noop
from gamerules.go import GoScore, score
from games import board_svg


@dataclass(frozen=True)
class Diagram:
    """One board picture.

    ``name`` is unique on its page (it prefixes the ids inside the SVG); ``label`` is the
    picture's accessible name, saying what it shows; ``marked`` a point in the game's
    notation to ring (the move about to be played, or the one just played); ``dead``
    Go stones to fade (in notation); ``count``: draw Go's count (territory squares, dead
    stones faded) with ``komi``; ``diff`` what the move that led here changed, when the
    diagram is an ``after``.

    Raises ``RulesError`` when the rules refuse the position (``position``).
    """

    name: str
    kind: str
    rows: tuple[str, ...]
    to_move: Color
    label: str
    marked: str | None = None
    dead: tuple[str, ...] = ()
    count: bool = False
    komi: float = 6.5
    diff: Diff | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        self.position()

    def position(self) -> Position:
        """The position the rules build from the rows; raises ``RulesError`` for one
        they refuse (a board no Othello game reaches, a Go chain without a liberty, a
        size the game does not allow)."""
        if self.kind == "othello":
            return OthelloPosition.from_setup(self.rows, self.to_move)
        if self.kind == "go":
            return GoPosition.from_rows(self.rows, self.to_move)
        raise RulesError(f"unknown game kind {self.kind!r}: expected othello or go")

    def point(self, written: str) -> Point:
        """``written`` (``D3``, ``c6``) as a point of this board; raises
        ``InvalidMoveError`` for a point off it."""
        return self.position().parse_point(written)

    def score(self) -> GoScore:
        """Go's count of the position, the ``dead`` stones lifted, with ``komi`` (by
        territory scoring, the server's default). Raises ``RulesError`` for Othello."""
        position = self.position()
        if not isinstance(position, GoPosition):
            raise RulesError("only a Go position is counted")
        dead = [position.parse_point(point) for point in self.dead]
        return score(position, dead=dead, komi=self.komi)

    def svg(self, words: Words = ENGLISH) -> str:
        """The picture: one ``<svg role="img">`` element named by ``label``, drawn by
        ``games.board_svg`` with colours as attributes (no ``style``, so the site's
        Content-Security-Policy lets it inline)."""
        position = self.position()
        territory = None
        if self.count:
            points = self.score().territory_points
            territory = {color.value: sorted(points[color]) for color in Color}
        return board_svg.draw(
            kind=self.kind,
            size=position.size,
            rows=self.rows,
            marked=None if self.marked is None else self.point(self.marked),
            dead=[self.point(point) for point in self.dead],
            territory=territory,
            label=words.gettext(self.label),
            ident=self.name,
        )


def after(diagram: Diagram, move: str, *, name: str, label: str) -> Diagram:
    """The diagram of the position after the side to move plays ``move`` (in notation)
    on ``diagram``'s, the move marked; its ``diff`` says what the move flipped or
    captured. Raises ``IllegalMoveError`` for a move the rules refuse."""
    played, diff = _play(diagram.position(), move)
    return Diagram(
        name=name,
        kind=diagram.kind,
        rows=tuple(played.rows()),
        to_move=played.to_move,
        label=label,
        marked=move,
        komi=diagram.komi,
        diff=diff,
    )


def replayed(start: Diagram, moves: tuple[str, ...]) -> Position:
    """``start``'s position after ``moves`` (in notation, or ``pass``), played by the
    rules with the boards before kept, so that Go's ko sees them (a diagram remembers
    only its own board). Raises ``IllegalMoveError`` for a move the rules refuse."""
    position = start.position()
    for move in moves:
        position, _ = _play(position, move)
    return position


def refusal(position: Position, move: str) -> str | None:
    """Why the rules refuse ``move`` (in notation) by the side to move of ``position``,
    or None when they allow it."""
    try:
        _play(position, move)
    except RulesError as error:
        return str(error)
    return None


def _play(position: Position, move: str) -> tuple[Position, Diff]:
    if move == "pass":
        return position.play(Move.pass_turn())
    return position.play(Move.place(position.parse_point(move)))


# The pictures of the pages

OTHELLO_START = Diagram(
    "othello_start",
    "othello",
    tuple(OthelloPosition.start(8).rows()),
    Color.BLACK,
    gettext_noop(
        "The start of an 8x8 game: white discs on d4 and e5, black discs on e4 and d5. "
        "Black moves first."
    ),
)
OTHELLO_FLIP = Diagram(
    "othello_flip",
    "othello",
    (
        "........",
        "........",
        "........",
        "...WB...",
        "...WWWW.",
        "...WWB..",
        "......B.",
        "........",
    ),
    Color.BLACK,
    gettext_noop(
        "Black to move. The ringed square c6 closes two lines of white discs: d5 up to the "
        "black disc on e4, and d6 and e6 across to the black disc on f6."
    ),
    marked="c6",
)
OTHELLO_FLIPPED = after(
    OTHELLO_FLIP,
    "c6",
    name="othello_flipped",
    label=gettext_noop("After Black's c6: the white discs on d5, d6 and e6 have turned black."),
)
OTHELLO_PASS = Diagram(
    "othello_pass",
    "othello",
    (
        "........",
        "..B.....",
        "W.B.....",
        "WWBBB...",
        "W..BB...",
        "....B...",
        "........",
        "........",
    ),
    Color.BLACK,
    gettext_noop(
        "Black to move, but no empty square closes a line of white discs: Black must pass "
        "and White plays again."
    ),
)
GO_CAPTURE = Diagram(
    "go_capture",
    "go",
    (".....", ".BB..", "BWW..", ".BB..", "....."),
    Color.BLACK,
    gettext_noop(
        "Black to move. The two white stones on B3 and C3 have one liberty left: D3, ringed."
    ),
    marked="D3",
)
GO_CAPTURED = after(
    GO_CAPTURE,
    "D3",
    name="go_captured",
    label=gettext_noop(
        "Black has played D3: the two white stones are captured and taken off the board."
    ),
)
GO_KO = Diagram(
    "go_ko",
    "go",
    (".....", ".BW..", "BW.W.", ".BW..", "....."),
    Color.BLACK,
    gettext_noop("Black to move. The white stone on B3 has one liberty left: C3, ringed."),
    marked="C3",
)
GO_KO_TAKEN = after(
    GO_KO,
    "C3",
    name="go_ko_taken",
    label=gettext_noop(
        "Black has played C3 and captured the stone on B3. The black stone on C3 now has "
        "one liberty, B3, but White may not play there at once: it would bring back the board "
        "before."
    ),
)
GO_SEKI = Diagram(
    "go_seki",
    "go",
    (".BBW...", "W.BW...", "WWBW...", "BBWW...", ".......", ".......", "......."),
    Color.BLACK,
    gettext_noop(
        "A seki in the corner: the black stones on B7, C7, C6 and C5 and the white stones on "
        "A6, A5 and B5 share two empty points, A7 and B6, and have no other liberty."
    ),
)
GO_COUNT = Diagram(
    "go_count",
    "go",
    ("....BW.", ".W..BW.", "....BW.", "...BBW.", "..BBWW.", "..BW..B", "..BW..."),
    Color.BLACK,
    gettext_noop(
        "The end of a 7x7 game, counted: the white stone on B6 and the black stone on G2 are "
        "dead (faded); small squares mark each side's territory."
    ),
    dead=("B6", "G2"),
    count=True,
)

PAGES: dict[str, tuple[Diagram, ...]] = {
    "rules": (OTHELLO_START, GO_COUNT),
    "rules-othello": (OTHELLO_START, OTHELLO_FLIP, OTHELLO_FLIPPED, OTHELLO_PASS),
    "rules-go": (GO_CAPTURE, GO_CAPTURED, GO_KO, GO_KO_TAKEN, GO_SEKI, GO_COUNT),
}
"""The pictures of each page that has some, by the page's name."""


def pictures(page: str, words: Words = ENGLISH, language: str = "en") -> dict[str, str]:
    """The SVG of each picture of ``page`` (``PAGES``) by the diagram's name, each named in
    ``words``' language (``language``, which keys the cache); empty for a page without
    pictures."""
    key = (page, language)
    if key not in _DRAWN:
        _DRAWN[key] = {diagram.name: diagram.svg(words) for diagram in PAGES.get(page, ())}
    return _DRAWN[key]


_DRAWN: dict[tuple[str, str], dict[str, str]] = {}
