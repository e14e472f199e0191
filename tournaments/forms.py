"""`POST /tournaments/new/`'s form: it parses and bounds what a person typed, each error
on the field at fault (the page answers 400 with it beside the field)."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.fields import TypedNameField
from accounts.forms import FormTokenField
from gamerules.clock import NEEDS, SETTINGS, SYSTEMS, TimeControl, TimeControlError
from games.forms import CLOCK_LABELS, DEFAULT_SIZES, SIZES
from games.models import Game
from tournaments.models import Tournament
from tournaments.systems import ranks

MAX_DURATION = 24 * 60
"""An arena's longest: a day, in minutes."""
MAX_ROUNDS = 30
NAME_MAX_LENGTH = 80
START_NOW = datetime.timedelta(minutes=1)
"""How long after the form is sent a tournament started "now" starts (its players join)."""


class IsoDateTimeField(forms.CharField):
    """A date and time in ISO 8601 (``2026-11-26T18:00:00Z``, or the form's date-time
    picker's ``2026-11-26T18:00`` without a zone: naive, for the form to place in the
    browser's zone)."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local", "step": 60})

    def clean(self, value: object) -> datetime.datetime | None:  # type: ignore[override]
        text = super().clean(value)
        if not text:
            return None
        try:
            found = parse_datetime(text.strip())
        except ValueError:
            found = None
        if found is None:
            raise forms.ValidationError(_("Give a date and time in ISO 8601."))
        return found


def size_choices() -> list[tuple[str, list[tuple[int, str]]]]:
    """The sizes a menu a game (Othello's even, Go's odd), the form's script showing the
    chosen game's only."""
    return [
        (str(label), [(size, f"{size}\N{MULTIPLICATION SIGN}{size}") for size in SIZES[kind]])
        for kind, label in Game.Kind.choices
    ]


class YesNoField(forms.ChoiceField):
    """A yes or no: ``1``/``0`` (the form's menu), also ``true``/``false``, ``on``/``off``,
    ``yes``/``no`` in any case; absent is no."""

    YES = ("1", "true", "on", "yes")
    NO = ("", "0", "false", "off", "no")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def clean(self, value: object) -> bool:  # type: ignore[override]
        text = str(value if value is not None else "").strip().lower()
        if text in self.YES:
            return True
        if text in self.NO:
            return False
        raise forms.ValidationError(_("Say 1 (yes) or 0 (no)."))


class YesNoCheckbox(forms.CheckboxInput):
    """A checkbox for a ``YesNoField``: what is sent is read as sent (``0`` is no; Django's
    checkbox would take any value for yes), ticked again for a yes."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, check_test=lambda value: str(value).lower() in YesNoField.YES)

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name)


class NewTournamentForm(forms.Form):
    """`POST /tournaments/new/`: ``system``, ``name``, ``kind``, ``size``, the clock
    (``clock`` and the settings its system needs: a clock is needed, and an arena's is
    not by correspondence), ``rated``, ``starts_at`` (with the browser's ``timezone``) or
    ``start_now``, and ``duration`` (minutes, an arena) or ``rounds`` (a Swiss, a
    McMahon); a McMahon's ``bar`` (a Go rank, ``3d``)."""

    system = forms.ChoiceField(label=_("System"), choices=Tournament.System.choices)
    name = TypedNameField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    kind = forms.ChoiceField(
        label=_("Game"),
        choices=[("othello", _("Othello")), ("go", pgettext_lazy("the game", "Go"))],
    )
    size = forms.TypedChoiceField(
        label=_("Board size"), coerce=int, empty_value=None, required=False, choices=size_choices
    )
    clock = forms.ChoiceField(
        label=_("Time control"), choices=[(system, CLOCK_LABELS[system]) for system in SYSTEMS]
    )
    main_time = forms.IntegerField(label=_("Main time (seconds)"), required=False, min_value=0)
    increment = forms.IntegerField(label=_("Increment (seconds)"), required=False, min_value=0)
    periods = forms.IntegerField(label=_("Periods"), required=False, min_value=1)
    period_time = forms.IntegerField(label=_("Period (seconds)"), required=False, min_value=1)
    stones = forms.IntegerField(label=_("Stones per period"), required=False, min_value=1)
    days = forms.IntegerField(label=_("Days per move"), required=False, min_value=1)
    rated = YesNoField(label=_("Rated"), choices=[("0", _("Casual")), ("1", _("Rated"))])
    starts_at = IsoDateTimeField(label=_("Starts at"), required=False)
    start_now = YesNoField(
        label=_("Start now (in a minute)"),
        choices=[("0", _("No")), ("1", _("Yes"))],
        widget=YesNoCheckbox,
    )
    timezone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    duration = forms.IntegerField(
        label=_("Duration (minutes)"), required=False, min_value=2, max_value=MAX_DURATION
    )
    rounds = forms.IntegerField(
        label=_("Rounds"), required=False, min_value=1, max_value=MAX_ROUNDS
    )
    bar = forms.CharField(label=_("McMahon bar"), required=False, max_length=4)
    form_token = FormTokenField()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        self._clean_start(cleaned)
        kind, system = cleaned.get("kind"), cleaned.get("system")
        if kind is not None:
            size = cleaned.get("size")
            if size is None and "size" not in self.errors:
                cleaned["size"] = DEFAULT_SIZES[kind]
            elif size is not None and size not in SIZES[kind]:
                self.add_error("size", _("This game has no board of that size."))
        self._clean_clock(cleaned, system)
        needs = {
            Tournament.System.ARENA: ("duration", _("An arena needs a duration, in minutes.")),
            Tournament.System.SWISS: ("rounds", _("A Swiss tournament needs rounds.")),
            Tournament.System.MCMAHON: ("rounds", _("A McMahon tournament needs rounds.")),
        }
        if system in needs:
            needed, why = needs[system]
            if cleaned.get(needed) is None and needed not in self.errors:
                self.add_error(needed, why)
        if system == Tournament.System.MCMAHON:
            if kind is not None and kind != "go":
                self.add_error("kind", _("McMahon is for Go."))
            try:
                cleaned["bar_rank"] = ranks.parse_rank(cleaned.get("bar") or "")
            except ValueError:
                self.add_error("bar", _("The bar is a Go rank, from 30k to 9d (e.g. 3d)."))
        return cleaned

    def _clean_start(self, cleaned: dict[str, Any]) -> None:
        """``starts_at``: a minute from now with ``start_now``; else the time given, a
        picker's time (without a zone) read in the browser's ``timezone`` (an IANA name
        the form's script sends), else in the server's."""
        if cleaned.get("start_now"):
            cleaned["starts_at"] = timezone.now().replace(microsecond=0) + START_NOW
            return
        starts_at = cleaned.get("starts_at")
        if starts_at is None:
            if "starts_at" not in self.errors:
                self.add_error("starts_at", _("Give the start, or choose Start now."))
            return
        if timezone.is_aware(starts_at):
            return
        zone: datetime.tzinfo = timezone.get_current_timezone()
        if cleaned.get("timezone"):
            try:
                zone = zoneinfo.ZoneInfo(cleaned["timezone"])
            except (ValueError, zoneinfo.ZoneInfoNotFoundError):
                self.add_error("starts_at", _("Your browser's time zone is unknown here."))
                return
        cleaned["starts_at"] = timezone.make_aware(starts_at, zone)

    def _clean_clock(self, cleaned: dict[str, Any], system: str | None) -> None:
        clock = cleaned.get("clock")
        if clock is None or any(field in self.errors for field in NEEDS[clock]):
            return
        if clock == "correspondence" and system == Tournament.System.ARENA:
            self.add_error("clock", _("An arena is played with a clock that runs, not by days."))
            return
        settings = {field: cleaned.get(field) for field in NEEDS[clock]}
        try:
            cleaned["time_control"] = TimeControl.build(clock, **settings)
        except TimeControlError as error:
            self.add_error(error.field, f"{error}.")

    def options(self) -> dict[str, Any]:
        """The keyword arguments of ``services.create`` besides the account."""
        data = self.cleaned_data
        system = data["system"]
        return {
            "system": system,
            "name": data["name"].strip(),
            "kind": data["kind"],
            "size": data["size"],
            "time_control": data["time_control"],
            "rated": bool(data.get("rated")),
            "starts_at": data["starts_at"],
            "duration": data.get("duration") if system == Tournament.System.ARENA else None,
            "rounds": (
                data.get("rounds")
                if system in (Tournament.System.SWISS, Tournament.System.MCMAHON)
                else None
            ),
            "bar": data.get("bar_rank") if system == Tournament.System.MCMAHON else None,
        }


CLOCK_SETTINGS = SETTINGS
