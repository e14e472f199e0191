"""The admin: every game, its board as a picture (with Go's agreed count), its moves
read-only, SGF export, abort.

Games and moves are written by the services only: the admin shows them, and its two
actions go through the same code as the site (SGF export, the services' abort; the
admin's own, which needs no seat).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy, ngettext

from gamerules.clock import SideClock, TimeControl
from gamerules.sgf import export_collection
from games import records, selectors
from games.models import ChatMessage, Game, Move
from games.services import lobby
from games.services.errors import GameError

COUNT_ROWS = {
    "territory": (
        ("territory", gettext_lazy("Territory")),
        ("prisoners", gettext_lazy("Captures")),
        # The opponent's stones marked dead, which count for this column's side.
        ("dead", gettext_lazy("Opponent's dead stones")),
        ("komi", gettext_lazy("Komi")),
    ),
    "area": (
        ("stones", gettext_lazy("Stones")),
        ("territory", gettext_lazy("Territory")),
        ("komi", gettext_lazy("Komi")),
    ),
}
"""The lines of Go's count by scoring method, as the game page's count table has them."""


class MoveInline(admin.TabularInline):  # type: ignore[type-arg]
    """The moves of a game, in order, read-only: a stored move is the record."""

    model = Move
    fields = readonly_fields = ("ply", "color", "notation", "changed", "created_at")
    ordering = ("ply",)
    extra = 0
    can_delete = False
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).select_related("game")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("move"))
    def notation(self, move: Move) -> str:
        return str(selectors.move_json(move)["notation"])

    @admin.display(description=gettext_lazy("flipped or captured"))
    def changed(self, move: Move) -> str:
        points = move.diff.get("flipped") or move.diff.get("captured") or []
        return ", ".join(records.point_names(move.game, points)) or "-"


class ChatInline(admin.TabularInline):  # type: ignore[type-arg]
    """The game's chat, read-only; each message links to its own page, where it can be
    deleted (the site never shows it again)."""

    model = ChatMessage
    fields = readonly_fields = ("created_at", "ply", "name", "color", "text")
    ordering = ("created_at", "pk")
    extra = 0
    can_delete = False
    show_change_link = True
    verbose_name = "chat message"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Every game's chat: searched by text and name, filtered by date, deleted when it must
    go; never edited (what was said stays as said)."""

    list_display = ("created_at", "name", "color", "text", "game_link")
    list_filter = ("created_at",)
    search_fields = ("text", "name", "game__public_id")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    list_per_page = 100
    list_select_related = ("game",)
    fields = readonly_fields = ("game_link", "ply", "name", "color", "user", "text", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("game"), ordering="game__created_at")
    def game_link(self, message: ChatMessage) -> SafeString:
        url = reverse("admin:games_game_change", args=(message.game_id,))
        return format_html('<a href="{}">{}</a>', url, message.game.public_id)


class AgainstComputer(admin.SimpleListFilter):
    """Games against the computer, or between two people."""

    title = "opponent"
    parameter_name = "opponent"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("computer", "The computer"), ("human", "Two people")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "computer":
            return queryset.exclude(computer_color="")
        if self.value() == "human":
            return queryset.filter(computer_color="")
        return queryset


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Games: list, filters, search, the board and the moves; no editing of the record."""

    class Media:
        # A stylesheet, not style attributes: the Content-Security-Policy allows no inline
        # style.
        css: ClassVar[dict[str, list[str]]] = {"all": ["css/admin.css"]}

    list_display = (
        "public_id",
        "kind",
        "board_size",
        "black_name",
        "white_name",
        "status",
        "rated",
        "result",
        "final_score",
        "clock",
        "move_count",
        "created_at",
        "finished_at",
    )
    list_filter = ("kind", "size", "status", "rated", AgainstComputer, "created_at")
    search_fields = ("public_id", "black_name", "white_name")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    list_per_page = 50
    inlines = (MoveInline, ChatInline)
    actions: tuple[str, ...] = ("export_sgf", "abort_waiting")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    # The agreed count beside the board that shows it.
                    ("board", "count"),
                    "links",
                    "public_id",
                    "kind",
                    "size",
                    "status",
                    "rated",
                    "result",
                )
            },
        ),
        (
            "Players",
            {
                "fields": (
                    "black_name",
                    "white_name",
                    "creator_color",
                    ("computer_color", "computer_level"),
                )
            },
        ),
        (
            gettext_lazy("Position"),
            {"fields": ("ply", "to_move", "score", "komi", "scoring_method")},
        ),
        (
            gettext_lazy("Clock and presence"),
            {
                "fields": (
                    "clock",
                    "clocks_in_words",
                    "turn_started_at",
                    "deadline",
                    ("black_online", "black_away_since"),
                    ("white_online", "white_away_since"),
                )
            },
        ),
        ("Dates", {"fields": ("played_on", "created_at", "updated_at", "finished_at")}),
    )
    # Every field shown is read-only: what changes a game is a service.
    readonly_fields = flatten_fieldsets(fieldsets)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return records.with_move_counts(super().get_queryset(request))

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Games start on the site (or by an SGF import), never as a bare row.
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The page shows the game; what changes a game is a service, not a form.
        return False

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_game")

    # Columns and fields

    @admin.display(description=gettext_lazy("clock"))
    def clock(self, game: Game) -> str:
        """The time control in words ("5 min + 3 s a move", "No clock")."""
        return selectors.time_control_text(game)

    @admin.display(description=gettext_lazy("clocks"))
    def clocks_in_words(self, game: Game) -> SafeString | None:
        """Each side's clock as of now, in words ("Black 4:32 + 3 periods of 30 s"), the
        running one marked."""
        state = selectors.clock_state(game, timezone.now())
        if state is None or game.time_control is None:
            return None
        control = TimeControl.from_json(game.time_control)
        return format_html_join(
            "",
            '<p class="clock-words">{} {}{}</p>',
            (
                (
                    color.title(),
                    control.side_in_words(SideClock.from_json(state[color]), translation),
                    ", running" if state["running"] == color else "",
                )
                for color in ("black", "white")
            ),
        )

    @admin.display(description=gettext_lazy("size"), ordering="size")
    def board_size(self, game: Game) -> str:
        return f"{game.size}\N{MULTIPLICATION SIGN}{game.size}"

    @admin.display(description=gettext_lazy("moves"), ordering="move_count")
    def move_count(self, game: Game) -> int:
        return int(game.move_count)  # type: ignore[attr-defined]

    @admin.display(description=gettext_lazy("score"))
    def final_score(self, game: Game) -> str | None:
        """Black's and White's points (Othello: discs) once finished, not by resignation."""
        if game.status != Game.Status.FINISHED or game.result.endswith("+R") or not game.score:
            return None
        return f"{game.score['black']:g}\N{EN DASH}{game.score['white']:g}"

    @admin.display(description=gettext_lazy("board"))
    def board(self, game: Game) -> SafeString:
        picture = records.board_picture(game, records.board_at(game), ident="admin-board")
        # The picture is built from numbers and escaped text only.
        return mark_safe(f'<div class="admin-board">{picture}</div>')

    @admin.display(description=gettext_lazy("agreed count"))
    def count(self, game: Game) -> SafeString | None:
        """Go finished by counting: the points of each side, line by line, and the stones
        agreed dead (faded on the board, where squares show the territory)."""
        count = records.final_count(game)
        if count is None:
            return None
        detail = count["score_detail"]
        lines = (*COUNT_ROWS[game.scoring_method or "territory"], ("total", "Total"))
        rows = format_html_join(
            "",
            '<tr class="count-{}"><th scope="row">{}</th><td>{}</td><td>{}</td></tr>',
            (
                (field, label, f"{detail['black'][field]:g}", f"{detail['white'][field]:g}")
                for field, label in lines
            ),
        )
        dead = ", ".join(records.point_names(game, count["dead"])) or "none"
        return format_html(
            '<table class="count-table"><thead><tr><td></td><th scope="col">Black</th>'
            '<th scope="col">White</th></tr></thead><tbody>{}</tbody></table>'
            '<p class="count-dead">Dead stones: {}</p>',
            rows,
            dead,
        )

    @admin.display(description=gettext_lazy("record"))
    def links(self, game: Game) -> SafeString:
        return format_html(
            '<a href="{}">Replay</a> · <a href="{}">Game page</a> · <a href="{}">SGF</a>',
            reverse("games:replay", args=[game.public_id]),
            reverse("games:game", args=[game.public_id]),
            reverse("games:sgf", args=[game.public_id]),
        )

    # Actions

    @admin.action(description=gettext_lazy("Export the selected games as one SGF collection"))
    def export_sgf(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse:
        games = queryset.order_by("created_at", "pk").prefetch_related("moves", "chat")
        text = export_collection(records.record_of(game) for game in games)
        response = HttpResponse(text, content_type="application/x-go-sgf; charset=utf-8")
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        response["Content-Disposition"] = f'attachment; filename="games-{stamp}.sgf"'
        return response

    @admin.action(
        description=gettext_lazy("Abort the selected games still waiting"), permissions=["abort"]
    )
    def abort_waiting(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        aborted = skipped = 0
        for game in queryset.order_by("pk"):
            try:
                lobby.abort_as_admin(game_id=game.public_id)
            except GameError:
                skipped += 1
            else:
                aborted += 1
        self.message_user(
            request,
            ngettext("Aborted %(count)d waiting game.", "Aborted %(count)d waiting games.", aborted)
            % {"count": aborted},
            messages.SUCCESS,
        )
        if skipped:
            self.message_user(
                request,
                ngettext(
                    "Left %(count)d game alone: only a game still waiting can be aborted.",
                    "Left %(count)d games alone: only a game still waiting can be aborted.",
                    skipped,
                )
                % {"count": skipped},
                messages.WARNING,
            )
