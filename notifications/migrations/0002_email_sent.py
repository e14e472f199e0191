# ruff: noqa: RUF012 (Django's migrations use class-level lists)
"""An index on the e-mails sent: the hourly cap of an account's e-mails counts those of the
last hour."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="delivery",
            index=models.Index(
                condition=models.Q(("channel", "email"), ("status", "sent")),
                fields=["sent_at"],
                name="delivery_email_sent",
            ),
        ),
    ]
