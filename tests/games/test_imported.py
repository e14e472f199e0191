"""An imported record belongs to nobody (docs/api/README.md#one-name-per-player): whatever its
PB and PW say, its seats are no account's, it is on no player's list nor the home page's,
and its comments are the record's, never a seat's chat."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from sgfmill import sgf as sgfmill_sgf  # type: ignore[import-untyped]

from gamerules.sgf import export_sgf, import_sgf
from games import records, selectors
from games.models import Game
from games.services import imports, table
from tests.games.test_records import BLACK, new_game, play_random
from tests.games.views.test_records import upload
from tests.live.test_views import state

pytestmark = pytest.mark.django_db

CONFESSION = "alice: I admit I used an engine in this game."
LONG = "x" * 299 + "yz"
RECORD = f"(;GM[1]SZ[9]PB[alice]PW[root]RE[W+R]C[{CONFESSION}];B[ee]C[{LONG}];W[cc])"


def imported_as_alice() -> tuple[Game, User]:
    """The account alice, and a record naming alice as Black imported by someone else."""
    alice = User.objects.create_user("alice")
    response = upload(Client(), RECORD.encode())
    assert response.status_code == 302
    return Game.objects.get(public_id=response["Location"].strip("/").split("/")[-1]), alice


def replay_chat(page: str) -> list[dict[str, Any]]:
    data = re.search(r'id="replay-data" type="application/json">(.*?)</script>', page)
    assert data is not None
    chat: list[dict[str, Any]] = json.loads(data.group(1))["chat"]
    return chat


def test_its_seats_belong_to_nobody_whatever_its_names() -> None:
    game, _ = imported_as_alice()

    seen = state(Client(), game.public_id)

    assert seen["players"] == {"black": "alice", "white": "root"}
    assert seen["accounts"] == {"black": None, "white": None}
    assert seen["imported"] is True
    assert (game.black_user, game.white_user) == (None, None)


def test_a_game_played_here_is_not_imported() -> None:
    game = new_game("othello", 8)

    assert state(Client(), game.public_id)["imported"] is False


def test_it_is_on_no_list_of_the_account_it_names_nor_the_home_pages() -> None:
    game, alice = imported_as_alice()
    played = play_random(new_game("othello", 8), seed=1)
    browser = Client()
    browser.force_login(alice)

    profile = browser.get("/players/alice/").content.decode()
    assert game.public_id not in profile
    assert browser.get("/players/alice.json").json()["results"] == {
        "won": 0,
        "lost": 0,
        "drawn": 0,
    }
    archive = browser.get("/games/", {"player": "alice"})
    assert game.public_id not in [listed.public_id for listed in archive.context["page"]]
    home = [listed.public_id for listed in Client().get("/").context["finished_games"]]
    assert home == [played.public_id]
    assert game.public_id in Client().get("/games/").content.decode(), "the archive keeps it"


def test_its_comments_are_the_records_never_a_seats_chat() -> None:
    game, _ = imported_as_alice()

    said = [selectors.chat_json(message) for message in table.chat_history(game.public_id)]

    assert [(line["name"], line["color"], line["text"]) for line in said] == [
        (None, None, CONFESSION),
        (None, None, LONG[:300]),
    ]
    replayed = replay_chat(Client().get(f"/games/{game.public_id}/replay/").content.decode())
    assert [(line["name"], line["color"], line["ply"]) for line in replayed] == [
        (None, None, 0),
        (None, None, 1),
    ]


def test_its_comments_go_back_into_its_record_as_they_were() -> None:
    game, _ = imported_as_alice()

    text = Client().get(f"/games/{game.public_id}/sgf").content
    main = sgfmill_sgf.Sgf_game.from_bytes(text).get_main_sequence()

    assert (main[0].get("C"), main[1].get("C")) == (CONFESSION, LONG[:300])


def test_a_players_chat_exported_and_imported_again_is_the_records() -> None:
    played = new_game("go", 9)
    table.say(player=BLACK, game_id=played.public_id, name="x", text="have fun")
    record = records.record_of(Game.objects.get(pk=played.pk))

    imported = imports.import_game(record=import_sgf(export_sgf(record)))

    assert [(m.name, m.color, m.text) for m in imported.chat.all()] == [("", "", "Ann: have fun")]


def test_the_pages_say_imported_beside_its_names() -> None:
    game, _ = imported_as_alice()
    played = new_game("othello", 8)
    visitor = Client()

    page = visitor.get(f"/games/{game.public_id}/").content.decode()
    assert page.count('<span class="player-tags">imported</span>') == 2
    replay = visitor.get(f"/games/{game.public_id}/replay/").content.decode()
    assert replay.count('<span class="player-tags">imported</span>') == 2
    assert '<span class="tag">imported</span>' in visitor.get("/games/").content.decode()
    assert (
        '"player-tags">imported' not in visitor.get(f"/games/{played.public_id}/").content.decode()
    )
