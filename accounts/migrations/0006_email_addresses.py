# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Every account with an address keeps it, unverified (django-allauth's ``EmailAddress``,
its primary one, in lower case as allauth keeps them): it is mailed a link at its next
log-in (accounts.emails), and nothing else until it follows it. Where two accounts share
an address, both get it, and the first to verify keeps it."""

from typing import Any

from django.db import migrations


def unverified_addresses(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("auth", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    held = set(EmailAddress.objects.values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        EmailAddress(user_id=pk, email=email.lower(), primary=True, verified=False)
        for pk, email in User.objects.exclude(email="").values_list("pk", "email").iterator()
        if pk not in held
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_account_skeleton"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(unverified_addresses, migrations.RunPython.noop)]
