"""HTTP for game records: the archive, the replay, the board picture, SGF in and out.

- ``GET /games/``: the archive, newest first, 20 a page; query ``kind``, ``size``,
  ``status``, ``player`` (a name either seat contains), ``mine`` (the visitor's own
  games) and ``page``. A filter value that is not one of the choices is ignored.
- ``GET /games/<id>/replay/?ply=N`` and ``GET /games/<id>/board.svg?ply=N``: the board
  after move N. No ``ply`` (or an empty one) means the last move; an integer outside
  0..moves is clamped to that range, so a link made while a game was shorter still
  opens; anything that is not an integer is a 400.
- ``GET /games/<id>/sgf`` (``?format=transcript`` or ``/transcript``: the plain
  transcript of an 8x8 Othello game from the standard start, 404 for any other game).
- ``GET``/``POST /games/import/``: an SGF file in the field ``sgf`` (at most 1 MiB)
  becomes a stored finished game (302 to it), or 400 with the reason, nothing stored.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts.api import token_route
from accounts.players import Player
from accounts.selectors import blocked_ids
from gamerules.sgf import RecordError, export_sgf, import_sgf, othello_transcript
from games import limits, records, selectors
from games.forms import SIZES
from games.models import Game
from games.services import analysis, imports
from games.services.analysis import engine_words
from games.services.errors import GameError, said

ARCHIVE_PAGE_SIZE = 20
MAX_UPLOAD_BYTES = 1024 * 1024
TRANSCRIPT_SIZE = 8
SGF_CONTENT_TYPE = "application/x-go-sgf; charset=utf-8"
_INTEGER = re.compile(r"-?[0-9]{1,9}")


class BadPly(ValueError):
    """A ``ply`` query value that is not an integer."""


def _game(game_id: str) -> Game:
    """The game with its moves prefetched (one query each, whatever the number of moves)."""
    return get_object_or_404(Game.objects.prefetch_related("moves", "chat"), public_id=game_id)


def _requested_ply(request: HttpRequest) -> int | None:
    """The ``ply`` query value: None when absent or empty; raises BadPly for a non-integer."""
    raw = request.GET.get("ply", "").strip()
    if not raw:
        return None
    if not _INTEGER.fullmatch(raw):
        raise BadPly(
            gettext("ply must be an integer move number, not %(raw)s") % {"raw": repr(raw[:20])}
        )
    return int(raw)


def _plain(text: str, *, status: int = 200) -> HttpResponse:
    return HttpResponse(f"{text}\n", status=status, content_type="text/plain; charset=utf-8")


# The board


BoardView = Callable[[HttpRequest, Game, records.BoardAt], HttpResponse]


def _at_requested_ply(view: BoardView) -> Callable[[HttpRequest, str], HttpResponse]:
    """``view`` gets the game and its board at the ``ply`` asked for; a bad ply is a 400."""

    @functools.wraps(view)
    def with_board(request: HttpRequest, game_id: str) -> HttpResponse:
        game = _game(game_id)
        try:
            board = records.board_at(game, _requested_ply(request))
        except BadPly as error:
            raise BadRequest(str(error)) from None  # the site's 400 page, saying why
        return view(request, game, board)

    return with_board


@token_route
@require_GET
@_at_requested_ply
def board_picture(request: HttpRequest, game: Game, board: records.BoardAt) -> HttpResponse:
    """``GET /games/<id>/board.svg?ply=N``: the board after move N as an SVG picture."""
    response = HttpResponse(
        records.board_picture(game, board, ident="board-svg"), content_type="image/svg+xml"
    )
    # The board after a stored move never changes; the last move of a live game does.
    finished = game.status not in selectors.IN_PLAY
    response["Cache-Control"] = "public, max-age=86400" if finished else "no-cache"
    return response


@require_GET
@_at_requested_ply
def replay(request: HttpRequest, game: Game, board: records.BoardAt) -> HttpResponse:
    """``GET /games/<id>/replay/?ply=N``: step through the game; follows a live game."""
    data = records.replay_data(game, hidden=lambda: blocked_ids(request.user.pk))
    data["engines"] = engine_words()  # the review's engine in the reader's words (review.js)
    moves = data["moves"]
    context = {
        "game": game,
        "board": board,
        "board_svg": mark_safe(
            records.board_picture(game, board, ident="replay-board", element_id="board")
        ),
        "replay": data,
        "players": _players(game, board),
        "status_text": _status_text(game, board.ply, moves),
        "move_rows": _move_rows(moves),
        "steps": {
            "first": 0,
            "previous": max(board.ply - 1, 0),
            "next": min(board.ply + 1, game.ply),
            "last": game.ply,
        },
        "transcript": _has_transcript(game),
        "time_control": selectors.time_control_text(game),
        "reviewable": game.status == Game.Status.FINISHED,
    }
    return render(request, "games/replay.html", context)


def _players(game: Game, board: records.BoardAt) -> list[dict[str, Any]]:
    """Each side's name and count at this ply: discs (Othello) or prisoners (Go), the
    agreed totals after the last move of a Go game finished by counting."""
    othello = board.discs is not None
    counts = board.discs or board.prisoners or {}
    count = board.count
    players = []
    for color in selectors.COLORS:
        score = str(counts[color])
        title = gettext("discs on the board") if othello else gettext("stones captured")
        if count is not None:
            score, title = f"{count['score'][color]:g}", gettext("points")
        elif color == "white" and not othello and game.komi:
            score, title = f"{score} + {game.komi:g}", gettext("stones captured + komi")
        name = selectors.shown_name(game, color)
        players.append({"color": color, "name": name, "score": score, "score_title": title})
    return players


def _status_text(game: Game, ply: int, moves: list[dict[str, Any]]) -> str:
    """ "Move 12 of 60: Black f5", with the result after the last move of a finished game."""
    if ply == 0:
        text = (
            ngettext(
                "Start position (%(moves)s move)", "Start position (%(moves)s moves)", game.ply
            )
            % {"moves": game.ply}
            if game.ply
            else gettext("Start position")
        )
    else:
        move = moves[ply - 1]
        black = move["color"] == "black"
        what = {
            "place": gettext("Black %(move)s") if black else gettext("White %(move)s"),
            "pass": gettext("Black passes") if black else gettext("White passes"),
            "resign": gettext("Black resigns") if black else gettext("White resigns"),
            "timeout": (
                gettext("Black runs out of time") if black else gettext("White runs out of time")
            ),
            "forfeit": gettext("Black left the game") if black else gettext("White left the game"),
        }[move["action"]] % {"move": move["notation"]}
        text = gettext("Move %(ply)s of %(plies)s: %(move)s") % {
            "ply": ply,
            "plies": game.ply,
            "move": what,
        }
    result = records.result_text(game.result, game.kind)
    if result and ply == game.ply:
        return gettext("%(move)s. %(result)s") % {"move": text, "result": result}
    return text


def _move_rows(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The moves two to a numbered row, Black's then White's, as the game page lists them."""
    rows: list[dict[str, Any]] = []
    for move in moves:
        if move["color"] == "black" or not rows or len(rows[-1]["moves"]) == 2:
            row: dict[str, Any] = {"number": math.ceil(move["ply"] / 2), "moves": []}
            if move["color"] == "white":
                row["moves"].append(None)
            rows.append(row)
        rows[-1]["moves"].append(move)
    return rows


# Records out


def _has_transcript(game: Game) -> bool:
    return game.kind == Game.Kind.OTHELLO and game.size == TRANSCRIPT_SIZE and game.start is None


@token_route
@require_GET
def sgf(request: HttpRequest, game_id: str) -> HttpResponse:
    """``GET /games/<id>/sgf``: the record as an SGF file (``?format=transcript``: see below)."""
    wanted = request.GET.get("format", "sgf")
    if wanted == "transcript":
        return transcript(request, game_id)
    if wanted != "sgf":
        return _plain(gettext("format must be sgf or transcript"), status=400)
    game = _game(game_id)
    record = records.record_of(game)
    review = analysis.sgf_comments(game)
    if review:
        # The engines' review, each move's line after what the players said then.
        said = record.comments
        merged = {
            number: "\n".join(text for text in (said.get(number), review.get(number)) if text)
            for number in sorted({*said, *review})
        }
        record = dataclasses.replace(record, comments=merged)
    response = HttpResponse(export_sgf(record), content_type=SGF_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{game.kind}-{game.public_id}.sgf"'
    return response


@token_route
@require_GET
def transcript(request: HttpRequest, game_id: str) -> HttpResponse:
    """``GET /games/<id>/transcript``: an 8x8 Othello game from the standard start as
    ``f5d6c3...``; 404 otherwise."""
    game = _game(game_id)
    if not _has_transcript(game):
        return _plain(
            gettext("transcripts exist for 8x8 Othello games from the standard start only"),
            status=404,
        )
    return _plain(othello_transcript(records.record_of(game)))


# Records in


class ImportForm(forms.Form):
    """``POST /games/import/``: one SGF file of a Go or Othello game."""

    sgf = forms.FileField(
        label=gettext_lazy("SGF file"),
        allow_empty_file=False,
        help_text=gettext_lazy("One Go (GM[1]) or Othello (GM[2]) game, at most 1 MiB."),
    )

    def clean_sgf(self) -> Any:
        upload = self.cleaned_data["sgf"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                gettext(
                    "The file is %(size)s bytes: files of at most 1 MiB "
                    "(%(max_upload_bytes)s bytes) can be imported."
                )
                % {
                    "size": format(upload.size, ","),
                    "max_upload_bytes": format(MAX_UPLOAD_BYTES, ","),
                }
            )
        return upload


@require_http_methods(["GET", "POST"])
@limits.limit_posts("import")
def import_record(request: HttpRequest) -> HttpResponse:
    """``GET /games/import/``: the form; ``POST``: 302 to the stored game, or 400 and why."""
    if request.method == "GET":
        return render(request, "games/import.html", {"form": ImportForm()})
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            record = import_sgf(form.cleaned_data["sgf"].read())
            game = imports.import_game(record=record)
        except (RecordError, GameError) as error:
            form.add_error("sgf", _reason(error))
        else:
            return redirect("games:game", game_id=game.public_id)
    return render(request, "games/import.html", {"form": form}, status=400)


def _reason(error: RecordError | GameError) -> str:
    message = error.message if isinstance(error, GameError) else said(error)
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


# The archive


def _size_choices() -> list[tuple[str, str]]:
    sizes = sorted({size for kind_sizes in SIZES.values() for size in kind_sizes})
    return [("", gettext("Any size"))] + [
        (str(size), f"{size}\N{MULTIPLICATION SIGN}{size}") for size in sizes
    ]


class ArchiveForm(forms.Form):
    """The archive's filters, all optional; a value that is not a choice is ignored."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Game"),
        required=False,
        choices=[("", gettext_lazy("Any game")), *Game.Kind.choices],
    )
    size = forms.TypedChoiceField(
        label=gettext_lazy("Size"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=_size_choices,
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[
            ("", gettext_lazy("Any status")),
            (records.PLAYING, gettext_lazy("Being played now")),
            *Game.Status.choices,
        ],
    )
    player = forms.CharField(
        label=gettext_lazy("Player"),
        required=False,
        max_length=150,
        help_text=gettext_lazy("An account's username."),
    )
    opponent = forms.ChoiceField(
        label=gettext_lazy("Opponent"),
        required=False,
        choices=[
            ("", gettext_lazy("Anyone")),
            ("human", gettext_lazy("Two people")),
            ("computer", gettext_lazy("The computer")),
        ],
    )
    rated = forms.ChoiceField(
        label=gettext_lazy("Rated"),
        required=False,
        choices=[
            ("", gettext_lazy("Rated or casual")),
            ("rated", gettext_lazy("Rated")),
            ("casual", gettext_lazy("Casual")),
        ],
    )
    mine = forms.BooleanField(label=gettext_lazy("My games"), required=False)


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    """``GET /games/``: every game, newest first, filtered and paginated."""
    form = ArchiveForm(request.GET)
    form.is_valid()
    # Invalid fields are left out of cleaned_data: their filters are simply not applied.
    filters = {
        name: form.cleaned_data.get(name)
        for name in ("kind", "size", "status", "player", "opponent", "rated")
    }
    viewer = Player.of(request.session, request.user)
    can_have_games = viewer.token is not None
    mine = None
    if can_have_games and form.cleaned_data.get("mine"):
        mine = selectors.games_of(viewer).order_by().values("pk")
    games = records.archive(**filters, mine=mine)
    page = Paginator(games, ARCHIVE_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "form": form,
        "page": page,
        # Where the viewer has a seat, the link to a game in progress says Play, not Watch.
        "seated": {game.public_id for game in page.object_list if selectors.color_of(game, viewer)},
        "can_have_games": can_have_games,
        "filtered": any(filters.values()) or mine is not None,
    }
    return render(request, "games/archive.html", context)
