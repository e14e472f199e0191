"""The admin's view of the tournaments: each with its entries; the pairings, read only
(they are made by the loop, and a game's result is its game's)."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import Entry, Tournament, TournamentPairing


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "system", "kind", "size", "rated", "starts_at", "status", "round")
    list_filter = ("system", "status", "kind", "rated")
    search_fields = ("name",)
    raw_id_fields = ("created_by",)
    inlines = (EntryInline,)


@admin.register(TournamentPairing)
class TournamentPairingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("tournament", "round", "game", "black", "white")
    list_filter = ("tournament",)
    readonly_fields = tuple(field.name for field in TournamentPairing._meta.fields)
