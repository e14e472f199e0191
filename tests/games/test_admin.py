"""The admin, as a superuser sees it: the game list, its filters and search, each game's
page (board picture, replay link, read-only moves), and the two actions."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client

from accounts.players import Player
from gamerules.sgf import import_collection, import_sgf
from games import records, selectors
from games.admin import MoveInline
from games.models import ChatMessage, Game, Move
from games.realtime import events
from games.services import imports, lobby, play, table
from tests.games.services.test_scoring import BLACK_SIDE, INVADERS, WHITE_SIDE
from tests.games.test_records import BLACK, new_game, play_random, rules_positions
from tests.games.views.test_records import board_in, count_in, counted_go_game, stones_of

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/game/"


def change_page(game: Game) -> str:
    return f"{CHANGELIST}{game.pk}/change/"


def inline_rows(html: str) -> list[dict[str, str]]:
    """The cells of the moves inline, one dict per row: field name to text."""
    rows = re.findall(r'<tr class="form-row.*?</tr>', html, re.S)
    return [dict(re.findall(r'<td class="field-(\w+)">\s*<p>(.*?)</p>', row, re.S)) for row in rows]


def listed(response: Any) -> list[str]:
    return [game.public_id for game in response.context["cl"].result_list]


def test_the_game_list_shows_every_column(admin_client: Client) -> None:
    game = play_random(new_game("othello", 8), seed=1)

    response = admin_client.get(CHANGELIST)

    assert response.status_code == 200
    html = response.content.decode()
    for text in (
        game.public_id,
        "Othello",
        "8\N{MULTIPLICATION SIGN}8",
        "Ann",
        "Bob",
        "Finished",
        game.result,
        f'<td class="field-final_score">{game.score["black"]}\N{EN DASH}{game.score["white"]}</td>',
        f'<td class="field-move_count">{game.ply}</td>',
        '<td class="field-clock">No clock</td>',
    ):
        assert text in html
    headers = [column["text"] for column in response.context["result_headers"]]
    assert [str(header).lower() for header in headers[1:]] == [
        "public id",
        "kind",
        "size",
        "black name",
        "white name",
        "status",
        "rated",
        "result",
        "score",
        "clock",
        "moves",
        "created at",
        "finished at",
    ]


def test_the_game_list_costs_the_same_queries_for_many_games(
    admin_client: Client, django_assert_max_num_queries: Any
) -> None:
    for seed in range(3):
        play_random(new_game("othello", 6), seed=seed, limit=6)
    admin_client.get(CHANGELIST)
    with django_assert_max_num_queries(12) as few:
        admin_client.get(CHANGELIST)
    for seed in range(12):
        play_random(new_game("go", 9), seed=seed, limit=4)

    with django_assert_max_num_queries(len(few.captured_queries)):
        response = admin_client.get(CHANGELIST)

    assert len(listed(response)) == 15


def test_the_filters(admin_client: Client) -> None:
    othello = play_random(new_game("othello", 8), seed=1)
    go = new_game("go", 9)
    waiting = lobby.create_game(
        player=Player(session_key="c"),
        new=lobby.NewGame(kind="go", size=13, color="black", name="Carol"),
    )
    year = go.created_at.year

    assert listed(admin_client.get(f"{CHANGELIST}?kind__exact=go")) == [
        waiting.public_id,
        go.public_id,
    ]
    assert listed(admin_client.get(f"{CHANGELIST}?size__exact=13")) == [waiting.public_id]
    assert listed(admin_client.get(f"{CHANGELIST}?status__exact=finished")) == [othello.public_id]
    assert listed(admin_client.get(f"{CHANGELIST}?status__exact=active")) == [go.public_id]
    assert len(listed(admin_client.get(f"{CHANGELIST}?created_at__year={year}"))) == 3
    assert listed(admin_client.get(f"{CHANGELIST}?created_at__year={year - 1}")) == []
    html = admin_client.get(CHANGELIST).content.decode()
    assert "By kind" in html and "By size" in html and "By status" in html
    assert "By created at" in html
    # The date hierarchy offers the year the games were created.
    assert f'href="?created_at__year={year}"' in html


def test_search_by_player_name_and_public_id(admin_client: Client) -> None:
    first = new_game("go", 9)
    carol = lobby.create_game(
        player=Player(session_key="c"),
        new=lobby.NewGame(kind="go", size=9, color="white", name="Carol"),
    )

    assert listed(admin_client.get(f"{CHANGELIST}?q=carol")) == [carol.public_id]
    assert listed(admin_client.get(f"{CHANGELIST}?q=bob")) == [first.public_id]
    assert listed(admin_client.get(f"{CHANGELIST}?q={first.public_id}")) == [first.public_id]
    assert listed(admin_client.get(f"{CHANGELIST}?q=nobody")) == []


@pytest.mark.parametrize(("kind", "size", "seed"), [("othello", 8, 1), ("go", 9, 3)])
def test_the_game_page_shows_the_board_the_replay_link_and_the_moves(
    admin_client: Client, kind: str, size: int, seed: int
) -> None:
    game = play_random(new_game(kind, size), seed=seed)

    response = admin_client.get(change_page(game))

    assert response.status_code == 200
    html = response.content.decode()
    svg = board_in(html).decode()
    assert stones_of(svg.encode()) == rules_positions(game)[-1].rows()
    assert f'href="/games/{game.public_id}/replay/"' in html
    # One read-only row per move: ply, colour, notation, what it flipped or captured, time.
    rows = inline_rows(html)
    assert len(rows) == game.ply
    for row, move in zip(rows, game.moves.all(), strict=True):
        changed = move.diff.get("flipped") or move.diff.get("captured") or []
        assert row == {
            "ply": str(move.ply),
            "color": move.color.title(),
            "notation": selectors.move_json(move)["notation"],
            "changed": ", ".join(records.point_names(game, changed)) or "-",
            "created_at": row["created_at"],
        }
        assert row["created_at"].startswith(move.created_at.strftime("%b. %-d, %Y"))
    # Nothing can be edited: no inputs for moves, no add or delete, no save.
    assert 'name="moves-0-ply"' not in html
    assert 'name="moves-MAX_NUM_FORMS" value="0"' in html  # the script offers no new row
    assert "moves-0-DELETE" not in html
    assert 'name="_save"' not in html


def test_the_current_board_of_a_game_in_play(admin_client: Client) -> None:
    game = new_game("go", 9)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[2, 6])

    html = admin_client.get(change_page(game)).content.decode()

    svg = board_in(html).decode()
    assert stones_of(svg.encode())[2] == "......B.."
    assert 'class="marker on-black"' in svg


def test_a_counted_go_game_shows_its_agreed_count_beside_the_board(admin_client: Client) -> None:
    game = counted_go_game()

    html = admin_client.get(change_page(game)).content.decode()

    # The board shows the count as the pages do: the dead stones faded, the territory.
    svg = board_in(html)
    assert count_in(svg) == (INVADERS, {"black": BLACK_SIDE, "white": WHITE_SIDE})
    # Beside it, the breakdown of the points and the stones agreed dead.
    count = re.search(r'<table class="count-table">.*?</table>', html, re.S)
    assert count, "no count table"
    cells = re.findall(
        r'<tr class="count-(\w+)"><th scope="row">([^<]*)</th>'
        r"<td>([^<]*)</td><td>([^<]*)</td></tr>",
        count.group(),
    )
    assert cells == [
        ("territory", "Territory", "10", "5"),
        ("prisoners", "Captures", "0", "0"),
        ("dead", "Opponent&#x27;s dead stones", "2", "0"),
        ("komi", "Komi", "0", "6.5"),
        ("total", "Total", "12", "11.5"),
    ]
    assert '<p class="count-dead">Dead stones: B4, B3</p>' in html
    # On one line with the board.
    assert re.search(r"field-board.*?field-count", html, re.S)
    listed_row = admin_client.get(CHANGELIST).content.decode()
    assert '<td class="field-final_score">12\N{EN DASH}11.5</td>' in listed_row


def test_an_imported_game_shows_the_day_it_was_played(admin_client: Client) -> None:
    game = imports.import_game(record=import_sgf("(;GM[1]SZ[9]DT[1846-09-11];B[ee])"))

    html = admin_client.get(change_page(game)).content.decode()

    played = re.search(r'field-played_on.*?<div class="readonly">(.*?)</div>', html, re.S)
    assert played and played.group(1) == "Sept. 11, 1846"


def test_no_count_nor_score_for_a_game_in_play_or_resigned(admin_client: Client) -> None:
    playing = new_game("go", 9)
    resigned = new_game("othello", 8)
    play.resign(player=BLACK, game_id=resigned.public_id)

    for game in (playing, resigned):
        html = admin_client.get(change_page(game)).content.decode()
        assert "count-table" not in html
        assert count_in(board_in(html)) == ([], {})
    html = admin_client.get(CHANGELIST).content.decode()
    assert html.count('<td class="field-final_score">-</td>') == 2


def test_nobody_adds_or_edits_a_game_or_a_move(admin_client: Client) -> None:
    game = new_game("othello", 8)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[2, 3])

    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    refused = admin_client.post(change_page(game), {"black_name": "Mallory"})
    assert refused.status_code == 403
    assert admin_client.get("/admin/games/move/").status_code == 404
    assert Game.objects.get(pk=game.pk).black_name == "Ann"
    assert Move.objects.count() == 1


def test_the_move_inline_refuses_every_change() -> None:
    inline = MoveInline(Game, admin.site)

    assert inline.has_add_permission(None) is False  # type: ignore[arg-type]
    assert inline.has_change_permission(None) is False  # type: ignore[arg-type]
    assert inline.has_delete_permission(None) is False  # type: ignore[arg-type]


def run_action(client: Client, action: str, games: list[Game]) -> Any:
    return client.post(
        CHANGELIST,
        {"action": action, "_selected_action": [game.pk for game in games]},
        follow=action != "export_sgf",
    )


def test_export_the_selected_games_as_one_sgf_collection(admin_client: Client) -> None:
    othello = play_random(new_game("othello", 8), seed=1)
    go = play_random(new_game("go", 9), seed=3)
    new_game("go", 9)

    response = run_action(admin_client, "export_sgf", [go, othello])

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-go-sgf")
    assert response["Content-Disposition"].startswith('attachment; filename="games-')
    exported = import_collection(response.content)
    assert exported == [records.record_of(othello), records.record_of(go)]


def test_abort_the_selected_waiting_games(
    admin_client: Client,
    broadcasts: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    waiting = lobby.create_game(
        player=Player(session_key="c"),
        new=lobby.NewGame(kind="go", size=9, color="white", name="Carol"),
    )
    dan = User.objects.create_user("dan")
    user_game = lobby.create_game(
        player=Player(user_id=dan.pk, session_key="dan-session"),
        new=lobby.NewGame(kind="othello", size=8, color="black", name="Dan"),
    )
    active = new_game("othello", 8)

    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(admin_client, "abort_waiting", [waiting, user_game, active])

    assert response.status_code == 200
    statuses = {game.pk: game.status for game in Game.objects.all()}
    assert statuses == {waiting.pk: "aborted", user_game.pk: "aborted", active.pk: "active"}
    assert Game.objects.get(pk=waiting.pk).finished_at is not None
    html = response.content.decode()
    assert "Aborted 2 waiting games." in html
    assert "Left 1 game alone" in html
    sent = [(group, event["type"], event["game"]["status"]) for group, event in broadcasts]
    assert sent == [
        (events.group_name(waiting.public_id), "game.state", "aborted"),
        (events.group_name(user_game.public_id), "game.state", "aborted"),
    ]


def test_the_actions_are_offered(admin_client: Client) -> None:
    new_game("go", 9)

    html = admin_client.get(CHANGELIST).content.decode()

    assert 'value="export_sgf"' in html
    assert 'value="abort_waiting"' in html


# The chat

CHAT = "/admin/games/chatmessage/"


def chatted() -> Game:
    game = new_game("othello", 8)
    table.say(player=BLACK, game_id=game.public_id, name="x", text="good luck")
    table.say(player=Player(session_key="troll"), game_id=game.public_id, name="Zed", text="spam")
    return game


def test_the_chat_is_listed_and_searched_by_text_and_name(admin_client: Client) -> None:
    game = chatted()

    listing = admin_client.get(CHAT)
    by_text = admin_client.get(CHAT, {"q": "good"})
    by_name = admin_client.get(CHAT, {"q": "zed"})

    assert listing.status_code == 200
    assert [m.text for m in listing.context["cl"].result_list] == ["spam", "good luck"]
    assert f'/admin/games/game/{game.pk}/change/">{game.public_id}</a>' in listing.content.decode()
    assert [m.text for m in by_text.context["cl"].result_list] == ["good luck"]
    assert [m.name for m in by_name.context["cl"].result_list] == ["Zed"]


def test_a_chat_message_is_deleted_from_the_admin_and_never_shown_again(
    admin_client: Client,
) -> None:
    game = chatted()
    spam = ChatMessage.objects.get(text="spam")

    page = admin_client.get(f"{CHAT}{spam.pk}/change/")
    deleted = admin_client.post(f"{CHAT}{spam.pk}/delete/", {"post": "yes"})

    assert f'href="{CHAT}{spam.pk}/delete/"' in page.content.decode()
    assert deleted.status_code == 302
    assert [m.text for m in table.chat_history(game.public_id)] == ["good luck"]


def test_nobody_writes_or_edits_a_chat_message_in_the_admin(admin_client: Client) -> None:
    game = chatted()
    message = ChatMessage.objects.get(text="good luck")

    assert admin_client.get(f"{CHAT}add/").status_code == 403
    assert admin_client.post(f"{CHAT}{message.pk}/change/", {"text": "bad"}).status_code == 403
    assert ChatMessage.objects.get(pk=message.pk).text == "good luck"
    # The game's page shows its chat, each message linked to its own page.
    html = admin_client.get(change_page(game)).content.decode()
    assert "good luck" in html and f"{CHAT}{message.pk}/change/" in html
