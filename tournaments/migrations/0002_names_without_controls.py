# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""No tournament's name holds a control or format character any more (the form refuses
them now: accounts.names): one made before keeps its words, each line break or control
character a space, each invisible one dropped, in NFKC form. A name the e-mails to its
entrants carry in their subject could not be sent with a line break in it."""

import unicodedata
from typing import Any

from django.db import migrations

INVISIBLE = {"Cf"}
BREAKING = {"Cc", "Cs", "Zl", "Zp"}
NAME_MAX_LENGTH = 80


def _cleaned(name: str) -> str:
    kept = "".join(
        " " if unicodedata.category(character) in BREAKING else character
        for character in name
        if unicodedata.category(character) not in INVISIBLE
    )
    return " ".join(unicodedata.normalize("NFKC", kept).split())[:NAME_MAX_LENGTH]


def clean_names(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk, name in Tournament.objects.values_list("pk", "name").iterator():
        if any(unicodedata.category(character) in INVISIBLE | BREAKING for character in name):
            Tournament.objects.filter(pk=pk).update(name=_cleaned(name) or f"Tournament {pk}")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(clean_names, migrations.RunPython.noop)]
