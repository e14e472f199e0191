"""The admin's view of pairing: who seeks now, and how the pools' games were paired."""

from __future__ import annotations

from django.contrib import admin

from pairing.models import Pairing, Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "pool", "rating", "range_low", "range_high", "created_at")
    list_filter = ("kind", "rated")
    search_fields = ("name", "pool")
    readonly_fields = tuple(field.name for field in Seek._meta.fields)


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("game", "pool", "category", "rated", "black_rating", "white_rating")
    list_filter = ("rated", "category")
    search_fields = ("game__public_id", "pool")
    readonly_fields = tuple(field.name for field in Pairing._meta.fields)
