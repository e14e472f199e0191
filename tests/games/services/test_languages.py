"""A refusal's ``message`` in the active language (the request's, the socket's); its
``code`` the contract's, in English, whatever the language."""

from __future__ import annotations

import pytest
from django.utils import translation

from accounts.players import Player
from games.forms import NewGameForm
from games.services import play
from games.services.errors import GameError
from tests.games.services.test_services import start
from tests.support import catalogues

pytestmark = pytest.mark.django_db

FRENCH = {
    "%(where)s is occupied": "%(where)s est occupée",
    "move %(number)s: %(error)s": "coup %(number)s : %(error)s",
    "the game is at ply %(ply)s, not %(ply2)s": "la partie en est au coup %(ply)s, pas %(ply2)s",
    "it is %(to_move)s's turn": "c'est au tour des %(to_move)s",
    "black": "noirs",
    "Othello needs an even size from %(low)s to %(high)s.": "L'Othello se joue sur une taille "
    "paire de %(low)s à %(high)s.",
}


@pytest.fixture(autouse=True)
def french(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogues.fill(monkeypatch, "fr", FRENCH)


def refusal(call: object, **kwargs: object) -> tuple[str, str]:
    with pytest.raises(GameError) as refused:
        call(**kwargs)  # type: ignore[operator]
    return refused.value.code, refused.value.message


@pytest.mark.parametrize(
    ("language", "expected"),
    [("fr", ("illegal_move", "d4 est occupée")), ("en", ("illegal_move", "d4 is occupied"))],
)
def test_a_refused_move_says_why_in_the_active_language(
    black: Player, white: Player, language: str, expected: tuple[str, str]
) -> None:
    game = start(black, white)

    with translation.override(language):
        said = refusal(play.play, player=black, game_id=game.public_id, ply=0, point=[3, 3])

    assert said == expected


def test_a_services_own_words_and_a_colour_are_translated(black: Player, white: Player) -> None:
    game = start(black, white)

    with translation.override("fr"):
        stale = refusal(play.play, player=black, game_id=game.public_id, ply=4, point=[2, 3])
        turn = refusal(play.play, player=white, game_id=game.public_id, ply=0, point=[2, 3])

    assert stale == ("stale", "la partie en est au coup 0, pas 4")
    assert turn == ("not_your_turn", "c'est au tour des noirs")


def test_the_create_forms_errors_are_in_the_active_language() -> None:
    with translation.override("fr"):
        form = NewGameForm({"kind": "othello", "size": "9"})
        assert not form.is_valid()
        errors = form.errors["size"]

    assert "L'Othello se joue sur une taille paire de 4 à 16." in errors
