# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""Whether an account is a bot moves to the accounts layer (``accounts.Account.is_bot``):
every bot account's row there says so, since when its BotAccount row did."""

from typing import Any

from django.db import migrations


def bots_to_accounts(apps: Any, schema_editor: Any) -> None:
    BotAccount = apps.get_model("bots", "BotAccount")
    Account = apps.get_model("accounts", "Account")
    for bot in BotAccount.objects.all():
        Account.objects.update_or_create(
            user_id=bot.user_id, defaults={"is_bot": True, "bot_since": bot.since}
        )


def accounts_to_bots(apps: Any, schema_editor: Any) -> None:
    BotAccount = apps.get_model("bots", "BotAccount")
    Account = apps.get_model("accounts", "Account")
    for account in Account.objects.filter(is_bot=True):
        BotAccount.objects.filter(user_id=account.user_id).update(since=account.bot_since)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("bots", "0001_bots"),
    ]

    operations = [
        migrations.RunPython(bots_to_accounts, accounts_to_bots),
        migrations.RemoveField(model_name="botaccount", name="since"),
    ]
