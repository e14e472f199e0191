# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""What every username looks like (accounts.names.skeleton), kept on the account's row: each
account gets its row (made with the defaults where it had none) holding its skeleton. Two
accounts made before the rule may look alike: the index is not unique."""

from typing import Any

from django.conf import settings
from django.db import migrations, models

from accounts.names import skeleton

BATCH = 1000


def fill_skeletons(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Account = apps.get_model("accounts", "Account")
    last = 0
    while True:
        users = list(
            User.objects.filter(pk__gt=last).order_by("pk").values_list("pk", "username")[:BATCH]
        )
        if not users:
            return
        last = users[-1][0]
        shown = {pk: skeleton(username) for pk, username in users}
        kept = list(Account.objects.filter(user_id__in=shown))
        for account in kept:
            account.skeleton = shown.pop(account.user_id)
        Account.objects.bulk_update(kept, ["skeleton"])
        Account.objects.bulk_create(
            Account(user_id=pk, skeleton=looks) for pk, looks in shown.items()
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_follows_and_blocks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="skeleton",
            field=models.TextField(
                blank=True,
                db_default="",
                help_text=(
                    "What the username looks like (accounts.names.skeleton): no guest and no "
                    "new account may take a name that looks the same."
                ),
            ),
        ),
        migrations.AddIndex(
            model_name="account",
            index=models.Index(fields=["skeleton"], name="account_skeleton"),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
