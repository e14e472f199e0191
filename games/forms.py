"""Forms of the lobby: create a game, join one.

The forms only parse and bound what a person typed; the rules engine and the
services decide everything else.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from accounts.fields import TypedNameField
from accounts.forms import FormTokenField
from gameengine import gnugo
from gamerules import go
from gamerules.clock import NEEDS, SETTINGS, SYSTEMS, TimeControl, TimeControlError
from games.services.errors import said
from games.services.lobby import HANDICAP_KOMI, KOMI_LIMIT, NAME_MAX_LENGTH

OTHELLO_SIZES = tuple(range(4, 17, 2))
# Every odd size the engine allows, smallest first (the usual 9, 13 and 19 among them).
GO_SIZES = tuple(range(3, 20, 2))
SIZES = {"othello": OTHELLO_SIZES, "go": GO_SIZES}
DEFAULT_SIZES = {"othello": 8, "go": 19}
DEFAULT_KOMI = 6.5
MAX_HANDICAP = max(go.MAX_HANDICAP.values())

CLOCK_SETTINGS = SETTINGS  # the form's fields, in order

CLOCK_LABELS = {
    "none": gettext_lazy("No clock"),
    "fischer": gettext_lazy("Fischer (main time + increment)"),
    "byoyomi": gettext_lazy("Byo-yomi (main time + periods)"),
    "canadian": gettext_lazy("Canadian (main time + stones in a period)"),
    "absolute": gettext_lazy("Absolute (main time only)"),
    "correspondence": gettext_lazy("Correspondence (days per move)"),
}


# The home form's presets (its script fills the clock fields from them): what players of
# each game are used to, then correspondence for both. A preset without a kind is for both;
# each is labelled by its time control's words, which name the system (in the visitor's
# language: ``clock_menu`` writes the labels).
def _preset(kind: str | None, clock: str, **settings: int) -> dict[str, Any]:
    return {"kind": kind, "clock": clock, **settings}


CLOCK_PRESETS = [
    {"kind": None, "clock": "none"},
    _preset("othello", "fischer", main_time=300, increment=3),
    _preset("othello", "fischer", main_time=600, increment=0),
    _preset("othello", "fischer", main_time=60, increment=2),
    _preset("go", "byoyomi", main_time=600, periods=5, period_time=30),
    _preset("go", "canadian", main_time=1200, stones=25, period_time=300),
    _preset("go", "fischer", main_time=300, increment=10),
    _preset(None, "correspondence", days=1),
    _preset(None, "correspondence", days=3),
    _preset(None, "correspondence", days=7),
]


def _size_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    return [
        (label, [(size, f"{size}\N{MULTIPLICATION SIGN}{size}") for size in SIZES[kind]])
        for kind, label in (("othello", gettext("Othello")), ("go", gettext("Go")))
    ]


def _handicap_choices() -> list[tuple[int, str]]:
    """The handicaps in the visitor's language (read at each rendering)."""
    return [(0, pgettext("handicap", "None"))] + [
        (n, ngettext("%(stones)d stone", "%(stones)d stones", n) % {"stones": n})
        for n in range(2, MAX_HANDICAP + 1)
    ]


class NameField(TypedNameField):
    """The name shown for a seat; blank means "use the name I gave last time"."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", NAME_MAX_LENGTH)
        kwargs.setdefault("label", gettext_lazy("Your name"))
        super().__init__(**kwargs)


class NewGameForm(forms.Form):
    """`POST /games/new/`: kind, size, colour, name, komi and scoring for Go, the
    opponent (``human``, or ``computer`` at ``level`` 1..10), and the clock: ``clock``
    (none or a system of gamerules.clock) with the settings it needs (``main_time``,
    ``increment``, ``periods``, ``period_time``, ``stones``, ``days``), and Go's
    ``handicap`` (0, or the stones the size takes: ``go.handicap_counts``).

    Size, colour, komi and scoring may be left out: they default to the kind's
    usual board (Othello 8, Go 19), a random colour, territory scoring and the
    services' komi for that scoring (6.5 for territory). A size the kind does
    not offer is an error on `size`; a clock setting missing or out of range is an
    error on that setting; a handicap in Othello, or one the Go board does not take, an
    error on `handicap`.
    """

    kind = forms.ChoiceField(
        choices=[("othello", gettext_lazy("Othello")), ("go", gettext_lazy("Go"))],
        initial="othello",
        widget=forms.RadioSelect,
    )
    size = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=_size_choices,
        initial=DEFAULT_SIZES["othello"],
    )
    color = forms.ChoiceField(
        label=gettext_lazy("Your colour"),
        choices=[
            ("black", gettext_lazy("Black")),
            ("white", gettext_lazy("White")),
            ("random", gettext_lazy("Random")),
        ],
        required=False,
        initial="random",
    )
    name = NameField()
    komi = forms.FloatField(
        required=False,
        min_value=-KOMI_LIMIT,
        max_value=KOMI_LIMIT,
        step_size=0.5,
        initial=DEFAULT_KOMI,
        help_text=gettext_lazy("Go only: points given to White."),
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring"),
        choices=[
            ("territory", gettext_lazy("Territory (Japanese)")),
            ("area", gettext_lazy("Area (Chinese)")),
        ],
        required=False,
        initial="territory",
        help_text=gettext_lazy("Go only."),
    )
    handicap = forms.TypedChoiceField(
        label=gettext_lazy("Handicap"),
        coerce=int,
        empty_value=0,
        required=False,
        choices=_handicap_choices,
        initial=0,
        help_text=gettext_lazy("Go only: Black's stones on the board before White's first move."),
    )

    opponent = forms.ChoiceField(
        label=gettext_lazy("Opponent"),
        choices=[
            ("human", gettext_lazy("A person (send a link)")),
            ("computer", gettext_lazy("The computer")),
        ],
        required=False,
        initial="human",
        widget=forms.RadioSelect,
    )
    level = forms.TypedChoiceField(
        label=gettext_lazy("Level"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=[(level, str(level)) for level in range(1, 11)],
        initial=3,
        help_text=gettext_lazy("1 plays like a beginner, 10 as well as it can."),
    )
    rated = forms.TypedChoiceField(
        label=gettext_lazy("Rated"),
        coerce=lambda value: value == "1",
        choices=[("0", gettext_lazy("Casual")), ("1", gettext_lazy("Rated"))],
        required=False,
        empty_value=False,
        initial="0",
        help_text=gettext_lazy(
            "A rated game moves both players' ratings: for accounts, with a clock."
        ),
    )
    clock = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        choices=[(system, CLOCK_LABELS[system]) for system in ("none", *SYSTEMS)],
        required=False,
        initial="none",
    )
    main_time = forms.IntegerField(
        label=gettext_lazy("Main time (seconds)"), required=False, min_value=0
    )
    increment = forms.IntegerField(
        label=gettext_lazy("Increment (seconds)"), required=False, min_value=0
    )
    periods = forms.IntegerField(label=gettext_lazy("Periods"), required=False, min_value=1)
    period_time = forms.IntegerField(
        label=gettext_lazy("Period (seconds)"), required=False, min_value=1
    )
    stones = forms.IntegerField(
        label=gettext_lazy("Stones per period"), required=False, min_value=1
    )
    days = forms.IntegerField(label=gettext_lazy("Days per move"), required=False, min_value=1)
    form_token = FormTokenField()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._clean_clock(cleaned)
        kind = cleaned.get("kind")
        if kind is None:
            return cleaned
        size = cleaned.get("size")
        if size is None and "size" not in self.errors:
            cleaned["size"] = DEFAULT_SIZES[kind]
        elif size is not None and size not in SIZES[kind]:
            bounds = {"low": min(SIZES[kind]), "high": max(SIZES[kind])}
            needs = (
                gettext("Othello needs an even size from %(low)s to %(high)s.")
                if kind == "othello"
                else gettext("Go needs an odd size from %(low)s to %(high)s.")
            )
            self.add_error("size", needs % bounds)
        cleaned["color"] = cleaned.get("color") or "random"
        if cleaned.get("opponent") == "computer":
            if cleaned.get("level") is None and "level" not in self.errors:
                self.add_error("level", gettext("Choose the computer's level, from 1 to 10."))
            if kind == "go" and not gnugo.available(settings.GNUGO_PATH):
                self.add_error(
                    "opponent",
                    gettext(
                        "GNU Go, the computer's Go, is not installed on this server "
                        "(Debian's gnugo): play Othello against it, or Go against a person."
                    ),
                )
        if kind == "go":
            cleaned["scoring"] = cleaned.get("scoring") or "territory"
        self._clean_handicap(cleaned, kind)
        return cleaned

    def _clean_handicap(self, cleaned: dict[str, Any], kind: str) -> None:
        """An error on ``handicap`` for Othello, or a number the Go board does not take."""
        handicap, size = cleaned.get("handicap") or 0, cleaned.get("size")
        if handicap == 0 or "handicap" in self.errors:
            return
        if kind != "go":
            self.add_error("handicap", gettext("A handicap is for Go only."))
        elif size in SIZES["go"] and handicap not in go.handicap_counts(size):
            counts = go.handicap_counts(size)
            takes = (
                gettext("A %(size)s×%(size)s board takes 2 to %(most)s stones.")  # noqa: RUF001
                if counts
                else gettext("A %(size)s×%(size)s board takes no handicap.")  # noqa: RUF001
            )
            self.add_error("handicap", takes % {"size": size, "most": counts.stop - 1})

    def game_options(self) -> dict[str, Any]:
        """The fields of `lobby.NewGame`, the request of `lobby.create_game`, besides name."""
        data = self.cleaned_data
        options: dict[str, Any] = {
            "kind": data["kind"],
            "size": data["size"],
            "color": data["color"],
        }
        if data["kind"] == "go":
            options["komi"] = data["komi"]
            options["scoring"] = data["scoring"]
            options["handicap"] = data.get("handicap") or 0
        if data.get("time_control") is not None:
            options["time_control"] = data["time_control"]
        if data.get("opponent") == "computer":
            options["opponent"] = "computer"
            options["level"] = data["level"]
        if data.get("rated"):
            options["rated"] = True
        return options

    def _clean_clock(self, cleaned: dict[str, Any]) -> None:
        """``time_control`` from ``clock`` and the fields its system needs; an error on
        the field at fault (missing, out of range)."""
        system = cleaned.get("clock") or "none"
        cleaned["time_control"] = None
        if system == "none" or any(field in self.errors for field in NEEDS[system]):
            return
        settings = {field: cleaned.get(field) for field in NEEDS[system]}
        try:
            cleaned["time_control"] = TimeControl.build(system, **settings)
        except TimeControlError as error:
            self.add_error(error.field, gettext("%(error)s.") % {"error": said(error)})


class JoinForm(forms.Form):
    """`POST /games/<id>/join/`: the name to sit down with (a guest's), and the form's
    one-time token."""

    name = NameField()
    form_token = FormTokenField()


def form_context(form: NewGameForm) -> dict[str, Any]:
    """What the create form's template (``games/_new_game.html``) and its script read:
    the form, its clock fields in order, and the menus of sizes and clocks."""
    return {
        "form": form,
        "size_menu": size_menu(),
        "clock_menu": clock_menu(),
        "clock_settings": [form[name] for name in CLOCK_SETTINGS],
    }


def clock_menu() -> dict[str, Any]:
    """The presets and what each system needs, for the create form's script."""
    return {"presets": [_labelled(preset) for preset in CLOCK_PRESETS], "needs": NEEDS}


def _labelled(preset: dict[str, Any]) -> dict[str, Any]:
    if preset["clock"] == "none":
        return {"label": gettext("No clock"), **preset}
    settings = {field: value for field, value in preset.items() if field in SETTINGS}
    control = TimeControl.build(preset["clock"], **settings)
    return {"label": control.describe(translation), **preset}


def size_menu() -> dict[str, dict[str, Any]]:
    """The sizes offered per kind and their defaults, for the create form's script; for
    Go also the most handicap stones each size takes and the komi of a handicap game."""
    menu: dict[str, dict[str, Any]] = {
        kind: {"sizes": list(SIZES[kind]), "default": DEFAULT_SIZES[kind]} for kind in SIZES
    }
    menu["go"]["max_handicap"] = {size: go.MAX_HANDICAP[size] for size in GO_SIZES}
    menu["go"]["komi"] = {"even": DEFAULT_KOMI, "handicap": HANDICAP_KOMI}
    return menu
