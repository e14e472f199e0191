"""games.views.records over HTTP: replay, board.svg, SGF and transcript, import, archive."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.players import Player
from accounts.services import block
from gamerules.sgf import import_sgf, othello_transcript
from games import records
from games.models import Game, Move
from games.services import imports, lobby, play, table
from games.views.records import ARCHIVE_PAGE_SIZE, MAX_UPLOAD_BYTES
from tests.gamerules.test_sgf import HANDICAP_SGF, HANDICAP_START
from tests.games.services.test_scoring import BLACK_SIDE, INVADED_SGF, INVADERS, WHITE_SIDE
from tests.games.test_records import BLACK, WHITE, new_game, play_random, rules_positions

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def finished(kind: str, size: int = 8, seed: int = 1) -> Game:
    return play_random(new_game(kind, size if kind == "othello" else 9), seed=seed)


def stones_of(svg: bytes) -> list[str]:
    """The board drawn in an SVG document, read back from its stones' data attributes."""
    root = ET.fromstring(svg)
    size = int(root.attrib["data-size"])
    grid = [["."] * size for _ in range(size)]
    for stone in root.iter(f"{SVG}g"):
        if "stone" in stone.attrib.get("class", "").split():
            row, col = map(int, stone.attrib["data-point"].split(","))
            grid[row][col] = stone.attrib["data-color"]
    return ["".join(row) for row in grid]


def count_in(svg: bytes) -> tuple[list[list[int]], dict[str, list[list[int]]]]:
    """Go's count drawn in an SVG document: the faded (dead) stones and the territory
    squares by colour, each as sorted [row, col] lists."""
    root = ET.fromstring(svg)
    dead = []
    territory: dict[str, list[list[int]]] = {}
    for element in root.iter():
        classes = element.attrib.get("class", "").split()
        point = [int(n) for n in element.attrib.get("data-point", "0,0").split(",")]
        if "stone" in classes and "dead" in classes:
            assert float(element.attrib["opacity"]) < 1, "a dead stone is faded"
            dead.append(point)
        if "territory" in classes:
            territory.setdefault(classes[1], []).append(point)
    return sorted(dead), {color: sorted(points) for color, points in territory.items()}


def counted_go_game() -> Game:
    """An imported 5x5 Go game finished by counting: two white stones agreed dead, B+0.5."""
    return imports.import_game(record=import_sgf(INVADED_SGF.format(marks="MA[bb][bc]")))


def marker_of(svg: bytes) -> tuple[float, float] | None:
    root = ET.fromstring(svg)
    for circle in root.iter(f"{SVG}circle"):
        if "marker" in circle.attrib.get("class", "").split():
            return float(circle.attrib["cx"]), float(circle.attrib["cy"])
    return None


# board.svg


@pytest.mark.parametrize(("kind", "size", "seed"), [("othello", 8, 1), ("go", 9, 3)])
def test_board_svg_at_every_ply_draws_the_rules_board(
    client: Client, kind: str, size: int, seed: int
) -> None:
    game = play_random(new_game(kind, size), seed=seed)
    positions = rules_positions(game)

    for ply, position in enumerate(positions):
        response = client.get(f"/games/{game.public_id}/board.svg?ply={ply}")
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        assert stones_of(response.content) == position.rows(), f"ply {ply}"
        assert (marker_of(response.content) is None) == (records.board_at(game, ply).marked is None)


def test_board_svg_looks_like_the_page_board(client: Client) -> None:
    go = new_game("go", 19)
    othello = new_game("othello", 8)
    play.play(player=BLACK, game_id=go.public_id, ply=0, point=[3, 3])

    go_svg = client.get(f"/games/{go.public_id}/board.svg").content.decode()
    othello_svg = client.get(f"/games/{othello.public_id}/board.svg").content.decode()

    # Go: wood, 19 + 19 grid lines, 9 star points, coordinates without I, the last stone ringed.
    assert 'fill="#dcb16a"' in go_svg
    assert go_svg.count("<line ") == 38
    assert go_svg.count('class="star"') == 9
    assert ">T</text>" in go_svg and ">I</text>" not in go_svg and ">19</text>" in go_svg
    assert 'class="marker on-black"' in go_svg
    # Othello: green felt, 9 + 9 lines, the four dots, a-h and 1-8, four discs, no marker.
    assert 'fill="#2f8a58"' in othello_svg
    assert othello_svg.count("<line ") == 18
    assert othello_svg.count('class="star"') == 4
    assert ">h</text>" in othello_svg and ">8</text>" in othello_svg
    assert othello_svg.count('class="stone ') == 4
    assert "marker" not in othello_svg


def test_board_svg_shows_the_agreed_count_at_the_last_move_only(client: Client) -> None:
    game = counted_go_game()
    url = f"/games/{game.public_id}/board.svg"

    last = client.get(url).content
    before = client.get(url, {"ply": game.ply - 1}).content

    assert count_in(last) == (INVADERS, {"black": BLACK_SIDE, "white": WHITE_SIDE})
    assert stones_of(last) == records.board_at(game).rows
    # The look of board.js: faded stones, small squares of the owner's colour.
    svg = last.decode()
    assert svg.count('opacity="0.4"') == 2
    assert svg.count('class="territory black"') == 10 and 'fill="#111"' in svg
    assert svg.count('class="territory white"') == 5 and 'stroke="#3f3f3a"' in svg
    assert (
        ET.fromstring(last)
        .attrib["aria-label"]
        .endswith("after move 16, counted: Black wins by 0.5 points")
    )
    assert count_in(before) == ([], {})
    assert "counted" not in ET.fromstring(before).attrib["aria-label"]


def test_a_go_game_in_play_or_resigned_draws_no_count(client: Client) -> None:
    game = new_game("go", 9)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[2, 6])
    play.resign(player=WHITE, game_id=game.public_id)

    assert count_in(client.get(f"/games/{game.public_id}/board.svg").content) == ([], {})


def test_the_replay_page_draws_the_agreed_count_at_the_last_move(client: Client) -> None:
    game = counted_go_game()

    last = client.get(f"/games/{game.public_id}/replay/").content.decode()
    first = client.get(f"/games/{game.public_id}/replay/?ply=1").content.decode()

    assert count_in(board_in(last)) == (INVADERS, {"black": BLACK_SIDE, "white": WHITE_SIDE})
    assert count_in(board_in(first)) == ([], {})


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", 5), ("?ply=", 5), ("?ply=2", 2), ("?ply=0", 0), ("?ply=-3", 0), ("?ply=99999", 5)],
)
def test_an_out_of_range_ply_is_clamped(client: Client, query: str, expected: int) -> None:
    game = play_random(new_game("othello", 8), seed=2, limit=5)

    picture = client.get(f"/games/{game.public_id}/board.svg{query}")
    page = client.get(f"/games/{game.public_id}/replay/{query}")

    assert stones_of(picture.content) == records.board_at(game, expected).rows
    assert page.status_code == 200
    assert page.context["board"].ply == expected


@pytest.mark.parametrize("ply", ["abc", "1.5", "1e3", "0x10", "\uff12", "True", "1" * 50])
def test_a_ply_that_is_not_an_integer_is_a_400(client: Client, ply: str) -> None:
    game = new_game("othello", 8)

    for url in (f"/games/{game.public_id}/board.svg", f"/games/{game.public_id}/replay/"):
        response = client.get(url, {"ply": ply})
        assert response.status_code == 400
        assert b"Ply must be an integer" in response.content
        assert "That request cannot be answered" in response.content.decode()  # the site's


@pytest.mark.parametrize("suffix", ["replay/", "board.svg", "sgf", "transcript"])
def test_an_unknown_game_is_a_404(client: Client, suffix: str) -> None:
    assert client.get(f"/games/no-such-game/{suffix}").status_code == 404


# The replay page


@pytest.mark.parametrize(("kind", "seed"), [("othello", 1), ("go", 3)])
def test_the_replay_page_embeds_the_start_board_and_every_diff(
    client: Client, kind: str, seed: int
) -> None:
    game = finished(kind, seed=seed)

    response = client.get(f"/games/{game.public_id}/replay/?ply=3")

    assert response.status_code == 200
    data = response.context["replay"]
    assert data["start"] == rules_positions(game)[0].rows()
    assert [move["ply"] for move in data["moves"]] == list(range(1, game.ply + 1))
    key = "flipped" if kind == "othello" else "captured"
    assert all(key in move for move in data["moves"])
    assert data["live"] is False
    html = response.content.decode()
    assert '<script id="replay-data" type="application/json">' in html
    assert 'data-ply="3"' in html
    assert stones_of(board_in(html)) == rules_positions(game)[3].rows()
    # Links for pages without JavaScript: a step each way, every move of the list.
    assert 'id="previous" href="?ply=2"' in html and 'id="next" href="?ply=4"' in html
    assert html.count('class="move ') == game.ply
    assert f'href="/games/{game.public_id}/sgf"' in html


def board_in(html: str) -> bytes:
    """The board picture drawn inline in a page."""
    match = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="board".*?</svg>', html, re.S)
    assert match
    return match.group().encode()


def test_the_replay_page_counts_discs_and_prisoners(client: Client) -> None:
    othello = new_game("othello", 8)
    play.play(player=BLACK, game_id=othello.public_id, ply=0, point=[2, 3])
    go = new_game("go", 9, komi=6.5)

    othello_page = client.get(f"/games/{othello.public_id}/replay/").content.decode()
    go_page = client.get(f"/games/{go.public_id}/replay/").content.decode()

    assert 'id="score-black" title="discs on the board">4<' in othello_page
    assert 'id="score-white" title="discs on the board">1<' in othello_page
    assert "Move 1 of 1: Black d3" in othello_page
    assert 'id="score-white" title="stones captured + komi">0 + 6.5<' in go_page
    assert "Start position" in go_page


def test_a_game_in_play_is_followed_live(client: Client) -> None:
    game = new_game("go", 9)

    response = client.get(f"/games/{game.public_id}/replay/")

    assert response.context["replay"]["live"] is True
    assert 'id="connection"' in response.content.decode()


def test_the_result_shows_after_the_last_move(client: Client) -> None:
    game = new_game("othello", 8)
    play.play(player=BLACK, game_id=game.public_id, ply=0, point=[2, 3])
    play.resign(player=WHITE, game_id=game.public_id)

    last = client.get(f"/games/{game.public_id}/replay/").content.decode()
    first = client.get(f"/games/{game.public_id}/replay/?ply=1").content.decode()

    assert "Move 2 of 2: White resigns. Black wins by resignation" in last
    assert "Black wins" not in first


# SGF and transcript


@pytest.mark.parametrize(("kind", "seed"), [("othello", 1), ("go", 3)])
def test_sgf_download(client: Client, kind: str, seed: int) -> None:
    game = finished(kind, seed=seed)

    response = client.get(f"/games/{game.public_id}/sgf")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-go-sgf")
    assert response["Content-Disposition"] == (
        f'attachment; filename="{kind}-{game.public_id}.sgf"'
    )
    record = import_sgf(response.content)
    assert record == records.record_of(game)
    assert f"GM[{1 if kind == 'go' else 2}]".encode() in response.content


def test_names_with_sgf_specials_survive_the_download(client: Client) -> None:
    game = lobby.create_game(
        player=BLACK, new=lobby.NewGame(kind="go", size=9, color="black", name="Zoë ]\\ 李")
    )

    response = client.get(f"/games/{game.public_id}/sgf")

    assert import_sgf(response.content).black_name == "Zoë ]\\ 李"


def test_transcript_of_an_othello_game(client: Client) -> None:
    game = finished("othello", seed=1)
    expected = othello_transcript(records.record_of(game))

    plain = client.get(f"/games/{game.public_id}/transcript")
    by_format = client.get(f"/games/{game.public_id}/sgf?format=transcript")

    assert plain.status_code == by_format.status_code == 200
    assert plain["Content-Type"] == "text/plain; charset=utf-8"
    assert plain.content.decode() == by_format.content.decode() == f"{expected}\n"
    assert re.fullmatch(r"([a-h][1-8])+\n", plain.content.decode())


@pytest.mark.parametrize(("kind", "size"), [("go", 9), ("othello", 6)])
def test_no_transcript_but_for_8x8_othello(client: Client, kind: str, size: int) -> None:
    game = new_game(kind, size)

    assert client.get(f"/games/{game.public_id}/transcript").status_code == 404


def test_an_unknown_format_is_a_400(client: Client) -> None:
    game = new_game("go", 9)

    assert client.get(f"/games/{game.public_id}/sgf?format=pdf").status_code == 400


# Import


def upload(client: Client, content: bytes | None, name: str = "game.sgf") -> Any:
    data = {} if content is None else {"sgf": SimpleUploadedFile(name, content)}
    return client.post("/games/import/", data)


def test_the_import_form(client: Client) -> None:
    response = client.get("/games/import/")

    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()
    assert 'name="sgf"' in response.content.decode()


@pytest.mark.parametrize(("kind", "seed"), [("othello", 1), ("go", 3)])
def test_importing_a_good_file_stores_a_finished_game(client: Client, kind: str, seed: int) -> None:
    played = finished(kind, seed=seed)
    content = client.get(f"/games/{played.public_id}/sgf").content

    response = upload(client, content)

    game = Game.objects.exclude(pk=played.pk).get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.public_id}/"
    assert (game.status, game.ply, game.result) == ("finished", played.ply, played.result)
    replayed = client.get(f"/games/{game.public_id}/board.svg")
    assert stones_of(replayed.content) == rules_positions(played)[-1].rows()
    assert client.get(response["Location"]).status_code == 200


def test_an_imported_file_keeps_its_date_in_the_sgf_download(client: Client) -> None:
    upload(client, b"(;GM[1]SZ[9]DT[1846-09-11]PB[Shusaku]PW[Gennan];B[ee];W[cc])")
    game = Game.objects.get()

    downloaded = client.get(f"/games/{game.public_id}/sgf").content.decode()

    assert "DT[1846-09-11]" in downloaded
    assert str(game.played_on) == "1846-09-11"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"hello, world", "Not an SGF file"),
        (b"(;GM[1]SZ[9];B[ee];W[ee])", "move 2 W[ee] (white E5): "),
        (b"(;GM[2]SZ[8];B[aa])", "move 1 B[aa] (black a1)"),
        (b"(;GM[3]SZ[8];B[aa])", "unsupported game GM[3]"),
        (b"(;GM[1]SZ[21])", "board size 21 is not supported for Go"),
        (b"(;GM[2]SZ[18])", "board size 18 is not supported for Othello"),
        (b"(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9];B[ee])", "the file holds 2 games"),
        (b"(;GM[1]SZ[9];B[ee];AB[aa])", "setup properties (AB/AW/AE) in node 2"),
        (b"(;GM[1]SZ[5]AB[ab][ba]AW[aa])", "the chain at A5 has no liberty"),
        (b"(;GM[1]SZ[9]AB[aa][jj])", "AB[jj] is not a point of the 9x9 board"),
        (b"(;GM[2]SZ[8]AB[ed][de])", "not a legal Othello position: d4 is empty"),
        (b"(;GM[1]SZ[9]HA[2]AB[gc][cg];B[ee])", "it is white&#x27;s turn"),
        (b"", "The submitted file is empty"),
        (None, "This field is required"),
        (b"(;GM[1]C[" + b"x" * MAX_UPLOAD_BYTES + b"])", "at most 1 MiB"),
    ],
)
def test_a_bad_upload_is_a_400_with_the_reason_and_stores_nothing(
    client: Client, content: bytes | None, reason: str
) -> None:
    response = upload(client, content)

    assert response.status_code == 400
    assert reason.lower() in response.content.decode().lower()
    assert 'id="import-errors"' in response.content.decode()
    assert not Game.objects.exists()
    assert not Move.objects.exists()


def test_an_imported_handicap_game_replays_from_its_stones_at_every_ply(client: Client) -> None:
    response = upload(client, HANDICAP_SGF.encode())

    game = Game.objects.get()
    assert response.status_code == 302
    assert game.start is not None
    positions = rules_positions(game)
    assert positions[0].rows() == list(HANDICAP_START)
    for ply, position in enumerate(positions):
        page = client.get(f"/games/{game.public_id}/replay/?ply={ply}")
        picture = client.get(f"/games/{game.public_id}/board.svg?ply={ply}")
        assert page.context["replay"]["start"] == list(HANDICAP_START)
        assert stones_of(board_in(page.content.decode())) == position.rows(), f"ply {ply}"
        assert stones_of(picture.content) == position.rows(), f"ply {ply}"
    first = client.get(f"/games/{game.public_id}/replay/?ply=1").content.decode()
    assert "Move 1 of 7: White A9" in first


def test_board_svg_at_ply_0_shows_the_handicap_stones(client: Client) -> None:
    upload(client, HANDICAP_SGF.encode())
    game = Game.objects.get()

    svg = client.get(f"/games/{game.public_id}/board.svg?ply=0").content

    assert stones_of(svg) == list(HANDICAP_START)
    assert marker_of(svg) is None


def test_the_sgf_download_of_a_handicap_game_keeps_its_setup(client: Client) -> None:
    upload(client, HANDICAP_SGF.encode())
    game = Game.objects.get()

    downloaded = client.get(f"/games/{game.public_id}/sgf").content

    text = downloaded.decode()
    assert "AB[gc][cg]" in text and "HA[2]" in text and "PL[W]" in text
    again, original = import_sgf(downloaded), import_sgf(HANDICAP_SGF)
    assert (again.setup, again.moves) == (original.setup, original.moves)


def test_a_position_without_moves_imports_as_a_finished_game_at_its_start(
    client: Client,
) -> None:
    content = b"(;GM[1]SZ[9]KM[4.5]HA[0]AB[ec][fc]AW[eb][fb]PL[B])"

    response = upload(client, content)

    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.status, game.ply, game.result) == ("finished", 0, "")
    replay = client.get(f"/games/{game.public_id}/replay/").content.decode()
    assert "Start position" in replay
    svg = client.get(f"/games/{game.public_id}/board.svg").content
    assert stones_of(svg)[1:3] == ["....WW...", "....BB..."]
    assert client.get(response["Location"]).status_code == 200


def test_an_othello_game_from_a_setup_has_no_transcript(client: Client) -> None:
    upload(client, b"(;GM[2]SZ[8]AB[ed][de]AW[dd][ee]PL[W])")
    game = Game.objects.get()

    assert client.get(f"/games/{game.public_id}/transcript").status_code == 404
    replay = client.get(f"/games/{game.public_id}/replay/").content.decode()
    assert "Transcript" not in replay


def test_a_file_of_exactly_1_mib_is_accepted(client: Client) -> None:
    head = b"(;GM[2]SZ[8]C["
    content = head + b"x" * (MAX_UPLOAD_BYTES - len(head) - 2) + b"])"

    assert len(content) == MAX_UPLOAD_BYTES
    assert upload(client, content).status_code == 302


def test_an_iso_8859_1_file_imports_its_names(client: Client) -> None:
    content = "(;GM[1]SZ[9]CA[ISO-8859-1]PB[Zoë];B[ee])".encode("iso-8859-1")

    assert upload(client, content).status_code == 302
    assert Game.objects.get().black_name == "Zoë"


# The archive


def test_the_archive_lists_games_newest_first_with_their_links(client: Client) -> None:
    older = finished("othello", seed=1)
    newer = new_game("go", 9)

    response = client.get("/games/")

    assert response.status_code == 200
    assert list(response.context["page"].object_list) == [newer, older]
    html = response.content.decode()
    row = html[html.index(f'data-game="{older.public_id}"') :]
    row = row[: row.index("</tr>")]
    assert "Ann (Black) vs Bob (White)" in row
    # The result in words, and in the record's notation (B+12) for those who read it.
    assert f">{records.result_text(older.result, older.kind)} <" in row
    assert f'<span class="result-code muted">{older.result}</span>' in row
    assert f'<td class="numeric" data-label="Moves">{older.ply}</td>' in row
    assert f'href="/games/{older.public_id}/"' in row
    assert f'href="/games/{older.public_id}/replay/"' in row
    assert older.created_at.strftime("%Y-%m-%d") in row


def ids(response: Any) -> list[str]:
    return [game.public_id for game in response.context["page"].object_list]


def test_the_archive_filters(client: Client) -> None:
    othello = finished("othello", seed=1)
    go9 = new_game("go", 9)
    go13 = lobby.create_game(
        player=Player(session_key="c"),
        new=lobby.NewGame(kind="go", size=13, color="white", name="Carol"),
    )

    assert ids(client.get("/games/?kind=go")) == [go13.public_id, go9.public_id]
    assert ids(client.get("/games/?kind=go&size=13")) == [go13.public_id]
    assert ids(client.get("/games/?status=finished")) == [othello.public_id]
    assert ids(client.get("/games/?status=waiting")) == [go13.public_id]
    assert ids(client.get("/games/?player=nobody")) == []
    assert "No game matches these filters." in client.get("/games/?player=x").content.decode()


def test_the_archive_finds_a_players_games_by_account_never_by_a_typed_name(
    client: Client,
) -> None:
    """docs/api/README.md#one-name-per-player: ``player`` is an account's username (in any
    case); a guest's seat that once carried the same name is not the account's."""
    typed = lobby.create_game(
        player=Player(session_key="g"),
        new=lobby.NewGame(kind="go", size=9, color="black", name="Carol"),
    )
    carol = User.objects.create_user("carol")
    hers = lobby.create_game(
        player=Player(user_id=carol.pk),
        new=lobby.NewGame(kind="go", size=13, color="white", name="Bob"),
    )
    lobby.join_game(player=BLACK, game_id=hers.public_id, name="Dave")

    assert ids(client.get("/games/?player=carol")) == [hers.public_id]
    assert ids(client.get("/games/?player=CAROL&kind=go")) == [hers.public_id]
    assert ids(client.get("/games/?player=car")) == []
    assert ids(client.get("/games/?player=Dave")) == []
    assert typed.public_id not in ids(client.get("/games/?player=Carol"))


@pytest.mark.parametrize(
    "query",
    [
        "kind=chess",
        "size=abc",
        "size=18",
        "status=lost",
        "page=abc",
        "page=-1",
        "page=999",
        "mine=maybe",
        "player=" + "x" * 300,
        "size=9.5&kind=&status=",
    ],
)
def test_bad_archive_values_are_ignored(client: Client, query: str) -> None:
    game = new_game("go", 9)

    response = client.get(f"/games/?{query}")

    assert response.status_code == 200
    assert ids(response) == [game.public_id]


def test_the_archive_pages_keep_the_filters(client: Client) -> None:
    for number in range(ARCHIVE_PAGE_SIZE * 2 + 5):
        lobby.create_game(
            player=BLACK,
            new=lobby.NewGame(
                kind="go" if number % 2 else "othello",
                size=9 if number % 2 else 8,
                color="black",
                name=f"P{number}",
            ),
        )
    lobby.create_game(
        player=BLACK, new=lobby.NewGame(kind="go", size=9, color="black", name="P-last")
    )

    first = client.get("/games/?kind=go")
    second = client.get("/games/?kind=go&page=2")

    go_games = list(Game.objects.filter(kind="go").order_by("-created_at", "-pk"))
    assert len(go_games) == 23
    assert ids(first) == [game.public_id for game in go_games[:ARCHIVE_PAGE_SIZE]]
    assert ids(second) == [game.public_id for game in go_games[ARCHIVE_PAGE_SIZE:]]
    assert 'href="?kind=go&amp;page=2"' in first.content.decode()
    assert 'href="?kind=go&amp;page=1"' in second.content.decode()
    assert "Page 2 of 2 (23 games)" in second.content.decode()
    assert 'value="go" selected' in second.content.decode()


def test_a_logged_in_player_ticks_my_games(client: Client) -> None:
    user = User.objects.create_user("carol", password="x")
    mine = lobby.create_game(
        player=Player(user_id=user.pk),
        new=lobby.NewGame(kind="go", size=9, color="white", name="Carol"),
    )
    new_game("go", 9)

    anonymous = client.get("/games/?mine=on")
    client.force_login(user)
    everything = client.get("/games/")
    only_mine = client.get("/games/?mine=on")

    assert len(ids(anonymous)) == 2
    assert 'name="mine"' not in anonymous.content.decode()
    assert len(ids(everything)) == 2
    assert 'name="mine"' in everything.content.decode()
    assert ids(only_mine) == [mine.public_id]


def test_names_are_escaped_in_the_picture(client: Client) -> None:
    game = lobby.create_game(
        player=BLACK,
        new=lobby.NewGame(kind="othello", size=8, color="black", name='<b>"Ann" & co</b>'),
    )

    response = client.get(f"/games/{game.public_id}/board.svg")

    label = ET.fromstring(response.content).attrib["aria-label"]
    assert label.startswith('Othello 8x8, <b>"Ann" & co</b> (Black) vs ? (White)')


@pytest.mark.parametrize("suffix", ["replay/", "board.svg?ply=3", "sgf"])
def test_the_cost_of_a_page_does_not_grow_with_the_moves(
    client: Client, django_assert_max_num_queries: Any, suffix: str
) -> None:
    short = play_random(new_game("othello", 8), seed=1, limit=4)
    long = play_random(new_game("othello", 8), seed=2)
    client.get(f"/games/{short.public_id}/{suffix}")
    with django_assert_max_num_queries(10) as counted:
        client.get(f"/games/{short.public_id}/{suffix}")

    with django_assert_max_num_queries(len(counted.captured_queries)):
        response = client.get(f"/games/{long.public_id}/{suffix}")

    assert response.status_code == 200
    assert long.ply > 50


def test_a_handicap_game_shows_its_stones_from_move_0_and_writes_ha_and_ab(
    client: Client,
) -> None:
    ann, bob = Player(session_key="ann"), Player(session_key="bob")
    game = lobby.create_game(
        player=ann, new=lobby.NewGame(kind="go", size=9, color="black", name="Ann", handicap=3)
    )
    lobby.join_game(player=bob, game_id=game.public_id, name="Bob")
    play.play(player=bob, game_id=game.public_id, ply=0, point=[4, 4])
    play.play(player=ann, game_id=game.public_id, ply=1, point=[6, 6])
    start = [
        ".........",
        ".........",
        "..B...B..",
        ".........",
        ".........",
        ".........",
        "..B......",
        ".........",
        ".........",
    ]

    picture = client.get(f"/games/{game.public_id}/board.svg?ply=0").content
    page = client.get(f"/games/{game.public_id}/replay/?ply=0").content.decode()
    assert stones_of(picture) == stones_of(board_in(page)) == start
    assert client.get(f"/games/{game.public_id}/replay/").context["replay"]["start"] == start
    sgf = client.get(f"/games/{game.public_id}/sgf").content.decode()
    assert "HA[3]" in sgf and "AB[cc][gc][cg]" in sgf and "PL[W]" in sgf
    assert ";W[ee];B[gg]" in sgf
    record = import_sgf(sgf)
    assert record.setup is not None and list(record.setup.rows) == start


def test_the_replay_hides_a_blocked_accounts_chat_from_the_blocker_only() -> None:
    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    game = lobby.create_game(
        player=Player("ann-s", ann.pk),
        new=lobby.NewGame(name="ann", kind="othello", size=8, color="black"),
    )
    lobby.join_game(player=Player("bob-s", bob.pk), game_id=game.public_id, name="bob")
    table.say(player=Player("ann-s", ann.pk), game_id=game.public_id, name="ann", text="gg")
    table.say(player=Player("bob-s", bob.pk), game_id=game.public_id, name="bob", text="hi")
    block(blocker_id=bob.pk, blocked_id=ann.pk)

    def said(client: Client) -> list[str]:
        page = client.get(f"/games/{game.public_id}/replay/").content.decode()
        data = re.search(r'id="replay-data" type="application/json">(.*?)</script>', page)
        assert data is not None
        return [line["text"] for line in json.loads(data.group(1))["chat"]]

    blocker = Client()
    blocker.force_login(bob)
    assert said(blocker) == ["hi"]
    assert said(Client()) == ["gg", "hi"]
