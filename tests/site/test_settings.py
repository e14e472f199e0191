"""othello_site.settings: what each environment gives, and the service-backed switch.

The settings are read in a fresh interpreter with a controlled environment, so these
tests check every configuration whatever the current run uses.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
CONFIGURING = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "RATE_LIMITS",
    "DATABASE_URL",
    "REDIS_URL",
    "PYTEST_VERSION",
    "OTHELLO_TEST_DATABASE",
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY_FILE",
    "KATAGO_COMMAND",
    "KATAGO_DIR",
    "KATAGO_MODEL",
    "KATAGO_REVIEW_VISITS",
    "KATAGO_TOP_VISITS",
    "PUSH_ENDPOINT_ALLOW",
)

READ_SETTINGS = """
import json, sys
sys.argv = json.loads(sys.argv[1])
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
try:
    key = settings.SECRET_KEY
except ImproperlyConfigured:
    key = None
database = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": key,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "SECURE": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
    "HTTPS": [settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS,
              settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD],
    "RATE_LIMITS": [settings.RATE_LIMITS, settings.RATELIMIT_ENABLE],
    "CACHE": settings.CACHES["default"],
    "ENGINE": database["ENGINE"],
    "NAME": str(database["NAME"]),
    "OPTIONS": database.get("OPTIONS", {}),
    "TEST_NAME": database.get("TEST", {}).get("NAME"),
    "LAYER": settings.CHANNEL_LAYERS["default"],
    "FIRST_APP": settings.INSTALLED_APPS[0],
    "ASGI_APPLICATION": settings.ASGI_APPLICATION,
    "PUSH_ENDPOINT_ALLOW": settings.PUSH_ENDPOINT_ALLOW,
}))
"""


def clean_environment(**variables: str) -> dict[str, str]:
    """The environment with only ``variables`` configuring the settings (the embedded
    default's key kept in a folder of its own, never in the checkout)."""
    environment = {k: v for k, v in os.environ.items() if k not in CONFIGURING}
    kept = str(Path(tempfile.mkdtemp(prefix="othello-key-")) / "secret_key.txt")
    return {
        **environment,
        "DJANGO_SETTINGS_MODULE": "othello_site.settings",
        "SECRET_KEY_FILE": kept,
        **variables,
    }


def run_python(code: str, *args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=clean_environment(**variables),
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_with(*, argv: tuple[str, ...] = ("daphne",), **variables: str) -> dict[str, Any]:
    """The settings a process started as ``argv`` reads with only ``variables`` set."""
    done = run_python(READ_SETTINGS, json.dumps(argv), **variables)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# The embedded default


def test_nothing_set_gives_sqlite_wal_immediate_and_the_in_memory_layer() -> None:
    read = settings_with()

    assert read["ENGINE"] == "django.db.backends.sqlite3"
    assert read["NAME"] == str(ROOT / "db.sqlite3")
    assert read["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "PRAGMA journal_mode=WAL" in read["OPTIONS"]["init_command"]
    assert read["OPTIONS"]["timeout"] >= 5
    assert read["TEST_NAME"].endswith(".sqlite3")  # a file: channels' live server needs one
    assert read["LAYER"] == {"BACKEND": "othello_site.memory_layer.SweepingInMemoryChannelLayer"}
    # The rate limits count in the process's own memory: it is the only one.
    assert read["CACHE"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert read["RATE_LIMITS"] == [True, True]
    assert read["FIRST_APP"] == "daphne"
    assert read["ASGI_APPLICATION"] == "othello_site.asgi.application"


def test_the_processes_of_one_test_run_share_its_database_file() -> None:
    inherited = settings_with(OTHELLO_TEST_DATABASE="/tmp/othello-test-42.sqlite3")

    assert inherited["TEST_NAME"] == "/tmp/othello-test-42.sqlite3"
    assert settings.DATABASES["default"]["TEST"]["NAME"] == os.environ["OTHELLO_TEST_DATABASE"]


def test_nothing_set_is_production_safe() -> None:
    read = settings_with()

    assert read["DEBUG"] is False
    assert read["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert read["SECURE"] == [False, False]
    # A developer on http://127.0.0.1 is not sent to https:// nor pinned to it.
    assert read["HTTPS"] == [False, 0, False, False]


def test_the_embedded_default_makes_a_key_once_and_keeps_it_beside_the_database(
    tmp_path: Path,
) -> None:
    """docs/operations.md: `manage.py runserver` (the README's serve command) runs
    with DEBUG off unless DEBUG=1, with a key made once and kept."""
    kept = tmp_path / "secret_key.txt"
    first = settings_with(argv=("manage.py", "runserver"), SECRET_KEY_FILE=str(kept))
    again = settings_with(argv=("daphne",), SECRET_KEY_FILE=str(kept))

    assert first["DEBUG"] is False
    assert first["SECRET_KEY"] and not first["SECRET_KEY"].startswith("django-insecure-")
    assert len(first["SECRET_KEY"]) >= 50
    assert again["SECRET_KEY"] == first["SECRET_KEY"] == kept.read_text().strip()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_with_shared_services_an_unset_key_stays_unset() -> None:
    read = settings_with(DATABASE_URL="postgres://postgres@db.example:5432/games")

    assert (read["DEBUG"], read["SECRET_KEY"]) == (False, None)


def test_debug_on_when_asked() -> None:
    assert settings_with(DEBUG="yes")["DEBUG"] is True


def test_a_debug_value_that_is_not_a_flag_is_refused() -> None:
    done = run_python(READ_SETTINGS, json.dumps(["daphne"]), DEBUG="maybe")

    assert done.returncode != 0
    assert "DEBUG='maybe'" in done.stderr


def test_the_test_suite_gets_a_key_with_debug_off() -> None:
    read = settings_with(PYTEST_VERSION="9")

    assert read["DEBUG"] is False
    assert read["SECRET_KEY"]


def test_the_environment_configures_key_hosts_and_cookies() -> None:
    read = settings_with(
        SECRET_KEY="s3cret",
        ALLOWED_HOSTS="games.example.org, localhost",
        CSRF_TRUSTED_ORIGINS="https://games.example.org",
        SECURE_COOKIES="1",
    )

    assert read["SECRET_KEY"] == "s3cret"
    assert read["ALLOWED_HOSTS"] == ["games.example.org", "localhost"]
    assert read["CSRF_TRUSTED_ORIGINS"] == ["https://games.example.org"]
    assert read["SECURE"] == [True, True]
    # Behind HTTPS: redirected there, and browsers told to stay for a year.
    assert read["HTTPS"] == [True, 365 * 24 * 3600, True, True]


def test_each_https_setting_can_be_set_apart() -> None:
    read = settings_with(
        SECURE_COOKIES="1",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="off",
        SECURE_HSTS_PRELOAD="off",
    )

    assert read["HTTPS"] == [False, 3600, False, False]


def test_an_hsts_duration_that_is_no_number_is_refused() -> None:
    done = run_python(READ_SETTINGS, json.dumps(["daphne"]), SECURE_HSTS_SECONDS="a year")

    assert done.returncode != 0
    assert "SECURE_HSTS_SECONDS='a year'" in done.stderr


@pytest.mark.parametrize(
    ("value", "on"), [("off", False), ("OFF ", False), ("on", True), ("", True)]
)
def test_rate_limits_are_off_only_when_asked(value: str, on: bool) -> None:
    assert settings_with(RATE_LIMITS=value)["RATE_LIMITS"] == [on, on]


def test_no_push_host_is_exempt_unless_named_even_under_pytest() -> None:
    assert settings_with(PYTEST_VERSION="8")["PUSH_ENDPOINT_ALLOW"] == []
    named = settings_with(PUSH_ENDPOINT_ALLOW="Push.Internal, [::1],,10.0.0.7 ")
    assert named["PUSH_ENDPOINT_ALLOW"] == ["push.internal", "::1", "10.0.0.7"]


def test_check_deploy_is_clean_with_the_readme_production_variables() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean_environment(
            SECRET_KEY="a-production-key-" + "x" * 50,
            ALLOWED_HOSTS="games.example.org",
            CSRF_TRUSTED_ORIGINS="https://games.example.org",
            SECURE_COOKIES="1",
            DEBUG="0",
        ),
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_a_fresh_clone_migrates_with_nothing_set_into_a_wal_database(tmp_path: Path) -> None:
    database = tmp_path / "fresh.sqlite3"
    url = f"sqlite:///{database}"
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=clean_environment(DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrate.returncode == 0, migrate.stderr

    probe = run_python(
        "import django; django.setup(); from django.db import connection as c; "
        "print(c.cursor().execute('PRAGMA journal_mode').fetchone()[0], c.transaction_mode)",
        DATABASE_URL=url,
    )
    assert probe.stdout.split() == ["wal", "IMMEDIATE"], probe.stderr


def test_the_asgi_server_refuses_to_start_without_a_key() -> None:
    code = "import othello_site.asgi as a; print(type(a.application).__name__)"

    refused = run_python(code, DATABASE_URL="postgres://postgres@db.example:5432/games")
    started = run_python(code, SECRET_KEY="s3cret")

    assert refused.returncode != 0
    assert "SECRET_KEY" in refused.stderr
    assert started.stdout.strip() == "ProtocolTypeRouter", started.stderr


# The shared services


def test_database_url_selects_postgresql() -> None:
    read = settings_with(DATABASE_URL="postgres://postgres@db.example:5432/games")

    assert read["ENGINE"] == "django.db.backends.postgresql"
    assert read["NAME"] == "games"
    assert read["TEST_NAME"].startswith("test_games_")  # one per test run
    assert "transaction_mode" not in read["OPTIONS"]


def test_redis_url_selects_redis_with_deliberate_limits() -> None:
    layer = settings_with(REDIS_URL="redis://cache.example:6379/0")["LAYER"]

    # channels-redis, made to survive a Redis restart (othello_site.channel_layer).
    assert layer["BACKEND"] == "othello_site.channel_layer.ResilientRedisChannelLayer"
    [host] = layer["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache.example:6379/0"
    assert host["max_connections"] > 100  # redis-py's default, too few (docs/operations.md)
    assert layer["CONFIG"]["capacity"] > 100  # channels-redis's default, too few


def test_redis_url_shares_the_rate_limits_between_processes() -> None:
    cache = settings_with(REDIS_URL="redis://cache.example:6379/0")["CACHE"]

    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert cache["LOCATION"] == "redis://cache.example:6379/0"


@pytest.mark.django_db
def test_this_run_uses_the_configured_database() -> None:
    if os.environ.get("DATABASE_URL"):
        assert connection.vendor == "postgresql"
        return
    assert connection.vendor == "sqlite"
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.transaction_mode == "IMMEDIATE"


@pytest.mark.services
@pytest.mark.django_db
def test_postgresql_answers() -> None:
    assert connection.vendor == "postgresql"
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.services
async def test_redis_answers() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    channel = await layer.new_channel()

    await layer.send(channel, {"type": "ping"})

    assert await layer.receive(channel) == {"type": "ping"}
    await layer.close_pools()


# The switch itself: skipped with a reason when unset, failing when set but dead


def run_service_tests(**variables: str) -> subprocess.CompletedProcess[str]:
    tests = [f"{__file__}::test_postgresql_answers", f"{__file__}::test_redis_answers"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:playwright", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        env=clean_environment(**variables),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_service_tests_are_skipped_with_a_reason_when_unset() -> None:
    done = run_service_tests()

    assert done.returncode == 0, done.stdout
    assert "2 skipped" in done.stdout
    assert "DATABASE_URL and REDIS_URL not set" in done.stdout


def test_service_tests_fail_when_set_but_nothing_answers() -> None:
    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    done = run_service_tests(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{port}/test",
        REDIS_URL=f"redis://127.0.0.1:{port}/0",
    )

    assert done.returncode == 1, done.stdout
    assert "skipped" not in done.stdout
    # PostgreSQL: the test database cannot be set up (an error); Redis: the test fails.
    assert "1 failed" in done.stdout
    assert "1 error" in done.stdout


# KataGo (docs/engines/katago.md)

READ_KATAGO = """
import json
from django.conf import settings
print(json.dumps(settings.KATAGO))
"""


def katago_with(**variables: str) -> Any:
    done = run_python(READ_KATAGO, **variables)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_go_stays_gnu_gos_where_katago_is_not_installed(tmp_path: Path) -> None:
    assert katago_with(KATAGO_DIR=str(tmp_path)) is None


def test_katago_installed_by_the_script_is_used_with_its_files(tmp_path: Path) -> None:
    (tmp_path / "katago").write_text("#!/bin/sh\n")
    found = katago_with(KATAGO_DIR=str(tmp_path))
    assert found == {
        "command": [str(tmp_path / "katago")],
        "model": str(tmp_path / "model.bin.gz"),
        "analysis_config": str(tmp_path / "analysis.cfg"),
        "gtp_config": str(tmp_path / "gtp.cfg"),
        "review_visits": 1,
        "top_visits": 16,
    }
    # An empty command keeps GNU Go even so.
    assert katago_with(KATAGO_DIR=str(tmp_path), KATAGO_COMMAND="") is None


def test_katagos_command_model_and_visits_come_from_the_environment(tmp_path: Path) -> None:
    found = katago_with(
        KATAGO_DIR=str(tmp_path),
        KATAGO_COMMAND="/opt/katago/katago --quiet",
        KATAGO_MODEL="/opt/katago/big.bin.gz",
        KATAGO_REVIEW_VISITS="8",
        KATAGO_TOP_VISITS="100",
    )
    assert found["command"] == ["/opt/katago/katago", "--quiet"]
    assert found["model"] == "/opt/katago/big.bin.gz"
    assert (found["review_visits"], found["top_visits"]) == (8, 100)


@pytest.mark.parametrize(
    ("name", "value"),
    [("KATAGO_TOP_VISITS", "0"), ("KATAGO_TOP_VISITS", "lots"), ("KATAGO_REVIEW_VISITS", "-1")],
)
def test_katagos_visits_must_be_a_whole_number_of_at_least_one(name: str, value: str) -> None:
    done = run_python(READ_KATAGO, KATAGO_COMMAND="katago", **{name: value})
    assert done.returncode != 0
    assert f"{name} needs a whole number of visits, at least 1" in done.stderr
