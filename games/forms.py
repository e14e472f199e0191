"""Forms of the lobby: create a game, join one.

The forms only parse and bound what a person typed; the rules engine and the
services decide everything else.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.services import KOMI_LIMIT, NAME_MAX_LENGTH

OTHELLO_SIZES = tuple(range(4, 17, 2))
# The three usual Go boards first, then the other odd sizes the engine allows.
GO_SIZES = (9, 13, 19, 3, 5, 7, 11, 15, 17)
SIZES = {"othello": OTHELLO_SIZES, "go": GO_SIZES}
DEFAULT_SIZES = {"othello": 8, "go": 19}
DEFAULT_KOMI = 6.5


def _size_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    return [
        (label, [(size, f"{size}\N{MULTIPLICATION SIGN}{size}") for size in SIZES[kind]])
        for kind, label in (("othello", "Othello"), ("go", "Go"))
    ]


class NameField(forms.CharField):
    """The name shown for a seat; blank means "use the name I gave last time"."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", NAME_MAX_LENGTH)
        kwargs.setdefault("label", "Your name")
        super().__init__(**kwargs)


class NewGameForm(forms.Form):
    """`POST /games/new/`: kind, size, colour, name, and komi and scoring for Go.

    Size, colour, komi and scoring may be left out: they default to the kind's
    usual board (Othello 8, Go 19), a random colour, territory scoring and the
    services' komi for that scoring (6.5 for territory). A size the kind does
    not offer is an error on `size`.
    """

    kind = forms.ChoiceField(
        choices=[("othello", "Othello"), ("go", "Go")], initial="othello", widget=forms.RadioSelect
    )
    size = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=_size_choices,
        initial=DEFAULT_SIZES["othello"],
    )
    color = forms.ChoiceField(
        label="Your colour",
        choices=[("black", "Black"), ("white", "White"), ("random", "Random")],
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
        help_text="Go only: points given to White.",
    )
    scoring = forms.ChoiceField(
        label="Scoring",
        choices=[("territory", "Territory (Japanese)"), ("area", "Area (Chinese)")],
        required=False,
        initial="territory",
        help_text="Go only.",
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind = cleaned.get("kind")
        if kind is None:
            return cleaned
        size = cleaned.get("size")
        if size is None and "size" not in self.errors:
            cleaned["size"] = DEFAULT_SIZES[kind]
        elif size is not None and size not in SIZES[kind]:
            low, high = min(SIZES[kind]), max(SIZES[kind])
            parity = "an even" if kind == "othello" else "an odd"
            self.add_error("size", f"{kind.title()} needs {parity} size from {low} to {high}.")
        cleaned["color"] = cleaned.get("color") or "random"
        if kind == "go":
            cleaned["scoring"] = cleaned.get("scoring") or "territory"
        return cleaned

    def game_options(self) -> dict[str, Any]:
        """The keyword arguments of `services.create_game` besides player and name."""
        data = self.cleaned_data
        options: dict[str, Any] = {
            "kind": data["kind"],
            "size": data["size"],
            "color": data["color"],
        }
        if data["kind"] == "go":
            options["komi"] = data["komi"]
            options["scoring"] = data["scoring"]
        return options


class JoinForm(forms.Form):
    """`POST /games/<id>/join/`: the name to sit down with."""

    name = NameField()


def size_menu() -> dict[str, dict[str, Any]]:
    """The sizes offered per kind and their defaults, for the create form's script."""
    return {kind: {"sizes": list(SIZES[kind]), "default": DEFAULT_SIZES[kind]} for kind in SIZES}
