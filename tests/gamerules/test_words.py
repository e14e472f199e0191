"""The rules' messages in another language: each error keeps its template (marked for
the catalogues) and parameters, and a caller's translator says it; the rules import no
Django. ``str()`` stays the English message."""

from __future__ import annotations

import pytest

from gamerules import IllegalMoveError, Move, OthelloPosition, RulesError
from gamerules.base import ENGLISH, Term, gettext_noop
from gamerules.clock import TimeControl, TimeControlError

FRENCH = {
    "%(where)s is occupied": "%(where)s est occupée",
    "%(name)s has a legal move and may not pass": "%(name)s a un coup légal et ne peut passer",
    "Black": "Noir",
    "move %(number)s: %(error)s": "coup %(number)s : %(error)s",
    "%(setting)s must be from %(low)s to %(high)s %(unit)s": "%(setting)s : de %(low)s à "
    "%(high)s %(unit)s",
    "Main time": "Le temps principal",
    "seconds": "secondes",
    "%(settings)s (%(system)s)": "%(settings)s (%(system)s)",
    "%(main)s + %(stones)s moves in %(period)s": "%(main)s + %(stones)s coups en %(period)s",
    "%(main)s + %(stones)s move in %(period)s": "%(main)s + %(stones)s coup en %(period)s",
    "Canadian": "canadien",
}


class French:
    """A translator from a table, plural forms as French has them (n > 1)."""

    @staticmethod
    def gettext(message: str) -> str:
        return FRENCH.get(message, message)

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> str:
        return FRENCH.get(plural if number > 1 else singular, plural if number > 1 else singular)


def refusal(play: str) -> IllegalMoveError:
    start = OthelloPosition.start(8)
    move = Move.pass_turn() if play == "pass" else Move.place(start.parse_point(play))
    with pytest.raises(IllegalMoveError) as refused:
        start.play(move)
    return refused.value


def test_a_refused_move_says_why_in_english_and_in_french() -> None:
    occupied = refusal("d4")

    assert str(occupied) == "d4 is occupied"
    assert occupied.translated(ENGLISH) == "d4 is occupied"
    assert occupied.translated(French()) == "d4 est occupée"


def test_a_colour_named_in_a_message_is_translated_too() -> None:
    refused = refusal("pass")

    assert str(refused) == "Black has a legal move and may not pass"
    assert refused.translated(French()) == "Noir a un coup légal et ne peut passer"


def test_an_error_within_an_error_is_translated_with_it() -> None:
    outer = RulesError(gettext_noop("move %(number)s: %(error)s"), number=3, error=refusal("e4"))

    assert str(outer) == "move 3: e4 is occupied"
    assert outer.translated(French()) == "coup 3 : e4 est occupée"


def test_an_empty_term_stays_empty() -> None:
    # gettext("") is a catalogue's header, never a word.
    error = RulesError(gettext_noop("%(unit)s"), unit=Term(""))

    assert error.translated(French()) == ""


def test_a_clock_setting_out_of_range_is_said_in_french() -> None:
    with pytest.raises(TimeControlError) as refused:
        TimeControl.build("fischer", main_time=100_000, increment=0)

    assert str(refused.value) == "Main time must be from 1 to 86,400 seconds"
    assert refused.value.translated(French()) == "Le temps principal : de 1 à 86,400 secondes"


@pytest.mark.parametrize(
    ("stones", "english", "french"),
    [
        (1, "20 min + 1 move in 5 min (Canadian)", "20 min + 1 coup en 5 min (canadien)"),
        (25, "20 min + 25 moves in 5 min (Canadian)", "20 min + 25 coups en 5 min (canadien)"),
    ],
)
def test_a_clock_is_described_with_the_languages_plural(
    stones: int, english: str, french: str
) -> None:
    control = TimeControl.canadian(main_time=1200, stones=stones, period_time=300)

    assert control.describe() == english
    assert control.describe(French()) == french
