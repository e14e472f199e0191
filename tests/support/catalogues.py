"""A language's catalogue given some translations for one test, as a translator's filled-in
``django.po`` would give them (the shipped catalogues may still lack them)."""

from __future__ import annotations

import pytest
from django.utils.translation import trans_real


def fill(monkeypatch: pytest.MonkeyPatch, language: str, entries: dict[str, str]) -> None:
    """Django's own translation object for ``language``, loaded afresh with ``entries``
    added, used until the test ends (then the cached one is put back)."""
    translation = trans_real.DjangoTranslation(language)
    for msgid, msgstr in entries.items():
        translation._catalog[msgid] = msgstr
    monkeypatch.setitem(trans_real._translations, language, translation)
