"""Settings: an embedded default that needs nothing, shared services from the environment.

Nothing set: SQLite (WAL, immediate transactions) in ``db.sqlite3`` and the in-memory
channel layer, one process. ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (Redis)
switch the same code to shared services so that several daphne processes serve one
game together.

Environment variables:
    DEBUG            1/true/yes/on or 0/false/no/off (default off)
    SECRET_KEY       required when DEBUG is off with DATABASE_URL set; without
                     DATABASE_URL (the embedded default) one is made once and kept in
                     SECRET_KEY_FILE
    SECRET_KEY_FILE  where the embedded default keeps its key (default secret_key.txt
                     beside the database, db.sqlite3)
    ALLOWED_HOSTS    comma-separated; default localhost, 127.0.0.1, [::1]
    CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://games.example.org
    SECURE_COOKIES   on: session and CSRF cookies only travel over HTTPS; turns on, unless
                     set otherwise, the four below
    SECURE_SSL_REDIRECT  on: plain HTTP requests are redirected to HTTPS
    SECURE_HSTS_SECONDS  Strict-Transport-Security max-age (default 31536000 with
                     SECURE_COOKIES, else 0: no header)
    SECURE_HSTS_INCLUDE_SUBDOMAINS, SECURE_HSTS_PRELOAD  on/off, the header's two flags
    RATE_LIMITS      off: no limit per session, address or socket (games.limits, and the
                     accounts' log-in, sign-up and e-mail limits; load benchmarks from one
                     address); the caps per account and the chat's stay
    ABANDON_SECONDS  how long a player must be offline before the opponent may claim the
                     game (default 60)
    FIRST_MOVE_SECONDS  how long a side has for its first move in a clocked game before
                     the game is aborted (default 30)
    PROCESS_TIMEOUT  seconds without a heartbeat after which a server process counts as
                     gone, its sockets offline (default 20)
    SEEK_PROCESS_TIMEOUT  seconds without a heartbeat after which a process's lobby
                     sockets stop keeping their seeks alive (default 4: a seek is gone
                     within 5 s of its last socket, a killed process's too)
    COMPUTER_ENGINES the computer's engines thinking at once in each process (default 2)
    ENGINE_NICENESS  how far below the server's priority the engines run (default 10)
    GNUGO_PATH       GNU Go's program (default /usr/games/gnugo, Debian's gnugo)
    REVIEW_GO_COMMAND  the GTP engine that reviews Go games, a command line (default GNU
                     Go at GNUGO_PATH); it must answer GNU Go's top_moves_black/white and
                     estimate_score
    KATAGO_COMMAND   KataGo's program (default .katago/katago when sh scripts/katago.sh
                     installed it; "" keeps GNU Go): then it plays the computer's Go,
                     reviews Go games and answers the explore board
    PUZZLE_MINING    off: finished games are not mined for puzzles in the background
                     (manage.py mine_puzzles still mines them; default on)
    KATAGO_DIR       where scripts/katago.sh installs KataGo (default .katago)
    KATAGO_MODEL, KATAGO_ANALYSIS_CONFIG, KATAGO_GTP_CONFIG  its network and configuration
                     files (default model.bin.gz, analysis.cfg, gtp.cfg in KATAGO_DIR)
    KATAGO_REVIEW_VISITS  visits a reviewed Go position gets (default 1)
    KATAGO_TOP_VISITS  the visits of the computer's strongest Go level, 10 (default 16;
                     the levels below look once: gameengine.katago_levels)
    EMAIL_BACKEND    Django's e-mail backend (e.g. django.core.mail.backends.filebased
                     .EmailBackend, with EMAIL_FILE_PATH); default: SMTP with EMAIL_HOST
                     set, else the console
    EMAIL_FILE_PATH  the folder of the file backend's mails
    EMAIL_HOST       an SMTP server for the password reset and notification mails; unset
                     (and no EMAIL_BACKEND), they are printed on the console
    EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL
                     that server's port (default 25), login and encryption (on/off)
    DEFAULT_FROM_EMAIL  the mails' sender (default "Othello & Go <noreply@localhost>")
    SITE_URL         the site's address as the outside sees it, for the links in e-mails;
                     unset, the server says so at start and links each e-mail to the
                     address of the request that caused it (else http://127.0.0.1:8000)
    VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY  Web Push's key pair (PEM or base64url); unset,
                     one is made once and kept in VAPID_KEY_FILE (default vapid_key.pem
                     beside the database)
    VAPID_SUBJECT    the contact a push service may write to (default
                     mailto:noreply@localhost)
    PUSH_ENDPOINT_ALLOW  comma-separated hosts a push endpoint may name whatever their
                     addresses (default none: https on public addresses only), over plain
                     http too: a private deployment's own push service, the tests'
    DATABASE_URL     e.g. postgres://user@host:5432/name (psycopg 3)
    REDIS_URL        e.g. redis://host:6379/0 (channels-redis)
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import tempfile
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _flag(name: str, *, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _TRUE | _FALSE:
        return value in _TRUE
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of {sorted(_TRUE | _FALSE)}")


def _list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# DEBUG is on only when asked (DEBUG=1): every server, `manage.py runserver` too (the
# README's serve command), runs with it off, showing the site's own error pages.
DEBUG = _flag("DEBUG", default=False)

# A fixed key is only acceptable where nothing is at stake: a DEBUG process, or the test
# suite (pytest sets PYTEST_VERSION for the whole run, so the daphne processes that tests
# start share the key and accept the test's session cookies). The embedded default (no
# DATABASE_URL: one machine, SQLite) makes a key once and keeps it beside the database
# (``SECRET_KEY_FILE``), so that sessions outlive a restart. Elsewhere an unset key stays
# empty: commands that never sign anything (migrate, collectstatic) still run, and Django
# refuses anything that signs (sessions, CSRF); othello_site.asgi checks the key at
# start-up so that a misconfigured server fails at once, not on its first request.
_DEVELOPMENT_KEY = "django-insecure-development-only-never-use-this-key-in-production"
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE", "").strip() or BASE_DIR / "secret_key.txt")


def kept_secret(path: Path, make: Callable[[], str]) -> str:
    """The secret kept in ``path``, made with ``make()`` and written there (readable by
    this user only) the first time. Two processes starting at once keep one: the file is
    created exclusively, and the loser reads the winner's."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as file:
        file.write(make() + "\n")
    return path.read_text().strip()


def _secret_key() -> str:
    given = os.environ.get("SECRET_KEY", "").strip()
    if given:
        return given
    if DEBUG or "PYTEST_VERSION" in os.environ:
        return _DEVELOPMENT_KEY
    if not os.environ.get("DATABASE_URL", "").strip():
        return kept_secret(SECRET_KEY_FILE, lambda: secrets.token_urlsafe(50))
    return ""


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = _list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS")

# Opt-in: a developer on http://127.0.0.1 must still be able to log in. Behind HTTPS one
# variable gives what `manage.py check --deploy` asks for; each part can be set apart.
_SECURE = _flag("SECURE_COOKIES", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = _SECURE
SECURE_SSL_REDIRECT = _flag("SECURE_SSL_REDIRECT", default=_SECURE)
_HSTS = os.environ.get("SECURE_HSTS_SECONDS", "").strip()
if _HSTS and not _HSTS.isdigit():
    raise ImproperlyConfigured(f"SECURE_HSTS_SECONDS={_HSTS!r}: expected a number of seconds")
SECURE_HSTS_SECONDS = int(_HSTS) if _HSTS else (365 * 24 * 3600 if _SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_SECURE)
SECURE_HSTS_PRELOAD = _flag("SECURE_HSTS_PRELOAD", default=_SECURE)

# A player whose opponent has been offline this long may claim the game (services.presence).
ABANDON_SECONDS = int(os.environ.get("ABANDON_SECONDS", "60"))
# In a game with a clock (not correspondence), each side's first move is due within this
# many seconds from the start of its turn, else the game is aborted (services.clock).
FIRST_MOVE_SECONDS = int(os.environ.get("FIRST_MOVE_SECONDS", "30"))
# A server process that has not been seen for this long was killed: its sockets are
# offline (games.workers.clockwatch; tests shorten it).
PROCESS_TIMEOUT = float(os.environ.get("PROCESS_TIMEOUT", "20"))
# Pairing (pairing.services): a seek lives while a lobby socket of its session is open on
# a process seen this recently (the heartbeat is written every second).
SEEK_PROCESS_TIMEOUT = float(os.environ.get("SEEK_PROCESS_TIMEOUT", "4"))

# The computer opponent (games.workers.engines): engines thinking at once in each process, and
# GNU Go (Debian's gnugo).
COMPUTER_ENGINES = int(os.environ.get("COMPUTER_ENGINES", "2"))
# The engines' processes run this many steps below the server's priority (os.nice), so
# that a page never waits for an engine's CPU: bench/explore.py.
ENGINE_NICENESS = int(os.environ.get("ENGINE_NICENESS", "10"))
GNUGO_PATH = os.environ.get("GNUGO_PATH", "/usr/games/gnugo")
# The review's Go engine (gameengine.go_review): a GTP command line answering GNU Go's
# top_moves_black/white and estimate_score; empty: GNU Go at GNUGO_PATH.
REVIEW_GO_COMMAND = shlex.split(os.environ.get("REVIEW_GO_COMMAND", ""))
# KataGo (gameengine.katago, docs/engines/katago.md): the computer's Go, the Go review and
# the explore board use it when it is installed (sh scripts/katago.sh puts it in .katago/)
# or KATAGO_COMMAND names it; KATAGO_COMMAND="" keeps GNU Go.
KATAGO_DIR = Path(os.environ.get("KATAGO_DIR", BASE_DIR / ".katago"))
_katago_installed = KATAGO_DIR / "katago"
_katago_command = shlex.split(
    os.environ.get("KATAGO_COMMAND", str(_katago_installed) if _katago_installed.exists() else "")
)


def _visits(name: str, default: str) -> int:
    try:
        visits = int(os.environ.get(name, default))
    except ValueError:
        visits = 0
    if visits < 1:
        raise ImproperlyConfigured(f"{name} needs a whole number of visits, at least 1")
    return visits


KATAGO: dict[str, Any] | None = (
    {
        "command": _katago_command,
        "model": os.environ.get("KATAGO_MODEL", str(KATAGO_DIR / "model.bin.gz")),
        "analysis_config": os.environ.get(
            "KATAGO_ANALYSIS_CONFIG", str(KATAGO_DIR / "analysis.cfg")
        ),
        "gtp_config": os.environ.get("KATAGO_GTP_CONFIG", str(KATAGO_DIR / "gtp.cfg")),
        # Visits a reviewed position gets: 1 reviews a 9x9 game of 100 moves in about 50 s
        # and a 19x19 game of 250 in about 2.5 minutes on two cores without a GPU.
        "review_visits": _visits("KATAGO_REVIEW_VISITS", "1"),
        # The computer's level 10 (the levels below look once: gameengine.katago_levels).
        "top_visits": _visits("KATAGO_TOP_VISITS", "16"),
    }
    if _katago_command
    else None
)

# games.limits: on unless RATE_LIMITS=off (django-ratelimit reads RATELIMIT_ENABLE).
RATE_LIMITS = os.environ.get("RATE_LIMITS", "").strip().lower() != "off"
RATELIMIT_ENABLE = RATE_LIMITS

# puzzles: each finished game mined in the background by the engines unless PUZZLE_MINING=off.
PUZZLE_MINING = os.environ.get("PUZZLE_MINING", "").strip().lower() != "off"

INSTALLED_APPS = [
    # daphne first: its runserver serves websockets as well as HTTP.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    # django-allauth: sign-up, log-in and password reset with their limits, and the
    # accounts' e-mail addresses and their verification (accounts.adapter).
    "allauth",
    "allauth.account",
    "accounts",
    "notifications",
    "games",
    "pairing",
    "players",
    "challenges",
    "bots",
    "tournaments",
    "moderation",
    "puzzles",
    "home",
    "manual",
    "live",
]

# An account's page is its profile (the players app): the games app's templates link a
# seat's name with ``account.get_absolute_url`` without naming an app above theirs.
ABSOLUTE_URL_OVERRIDES = {
    "auth.user": lambda user: reverse("profile", args=[user.get_username()]),
}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The request's address, for the links of the e-mails it causes (notifications.site).
    "notifications.site.RequestSite",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.middleware.SessionForEveryVisitor",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The visitor's language: the one chosen (the session, kept from the account's own
    # choice at login), else the browser's Accept-Language (accounts.middleware).
    "accounts.middleware.ChosenLanguage",
    # A body over 2 MiB, which daphne did not read (othello_site.body_limit): 413.
    "othello_site.body_limit.TooLargeBodies",
    # Authorization: Bearer <token> acts as the token's account (bots.middleware).
    "bots.middleware.BearerTokenMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "games.middleware.DatabaseUnavailableMiddleware",
]

# Content-Security-Policy (django-csp): the site's own scripts, styles and websocket only;
# no inline script or style. CSP level 3's 'self' covers ws:// and wss:// to this host.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: for the favicon, drawn inline in templates/base.html, and base.css's icons.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "othello_site.urls"
ASGI_APPLICATION = "othello_site.asgi.application"
WSGI_APPLICATION = "othello_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                # The bell in the header: the account's unread notifications.
                "notifications.context.unread",
            ],
        },
    },
]


def _database() -> dict[str, Any]:
    url = os.environ.get("DATABASE_URL", "").strip()
    if url:
        # Persistent connections stay off (conn_max_age=0): under ASGI, Django's docs
        # advise a pool rather than per-thread persistent connections. psycopg's pool
        # (below) saves a new PostgreSQL connection per websocket message: measured with
        # bench/load.py, 100 games went from 129 to 209 moves/s (p50 851 to 446 ms).
        database: dict[str, Any] = dj_database_url.parse(url, conn_health_checks=True)
    else:
        database = {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
    if database["ENGINE"] == "django.db.backends.postgresql":
        # At most 20 connections a process: PostgreSQL's default limit is 100. With
        # conn_health_checks (above), Django has the pool try a connection before handing
        # it out (ConnectionPool.check_connection), so after PostgreSQL was unreachable
        # the pool's dead connections are replaced instead of failing a request each.
        # `timeout`: how long a request waits for a connection before it fails (a
        # websocket message is then answered `unavailable`).
        # connect_timeout and tcp_user_timeout (ms): a PostgreSQL that stops answering
        # without closing the connection (a network cut) fails a request in seconds instead
        # of holding the process's database thread for as long as the kernel waits.
        database["OPTIONS"] = {
            "pool": {"min_size": 2, "max_size": 20, "timeout": 5},
            "connect_timeout": 5,
            "tcp_user_timeout": 15000,
        }
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database["OPTIONS"] = {
            # WAL: readers never block the writer nor the writer the readers.
            # IMMEDIATE: a transaction takes the write lock at BEGIN, so concurrent
            # writers queue for up to `timeout` seconds (SQLite's busy timeout) instead of
            # failing with "database is locked" when a read lock cannot be upgraded.
            # SQLite has no SELECT ... FOR UPDATE: this lock is what serialises two moves
            # racing for one game.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            **database.get("OPTIONS", {}),
        }
        # Persistent: opening and closing a SQLite connection for every websocket message
        # was a quarter of the move path's CPU (bench/speed.py). Safe here: a connection
        # belongs to one thread, and the consumers' database work shares one thread of the
        # process (games.realtime.sockets.database, which keeps a PostgreSQL connection
        # between calls the same way), the clock watch's runs on another;
        # each HTTP request runs on a thread of its own (Django's ASGI handler gives each
        # its own ThreadSensitiveContext), with its own connection (docs/operations.md).
        database["CONN_MAX_AGE"] = None
        # A file, not Django's in-memory default: channels' live server runs in another
        # process.
        test_name = str(Path(tempfile.gettempdir()) / f"othello-test-{os.getpid()}.sqlite3")
    else:
        test_name = f"test_{database['NAME']}_{os.getpid()}"
    # One test database per test run, so that concurrent runs (on one machine, on one
    # PostgreSQL server) never share one. Named once, in the environment, so that every
    # process the run starts (fork or spawn: channels' live server) finds the same one.
    database["TEST"] = {"NAME": os.environ.setdefault("OTHELLO_TEST_DATABASE", test_name)}
    return database


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def _channel_layer() -> dict[str, Any]:
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        return {"BACKEND": "othello_site.memory_layer.SweepingInMemoryChannelLayer"}
    # channels-redis's defaults lose messages under load (docs/operations.md). The limits are per
    # daphne process, budgeted for 1,000 open websockets (500 two-player games), and
    # bench/load.py measures them (docs/benchmarks.md#load):
    # - capacity: every consumer of one process shares that process's one Redis list, and
    #   a message beyond `capacity` is dropped silently. A group_send puts one entry per
    #   process in it (naming that process's sockets of the game), so the worst burst is
    #   every game moving at once (a move and its automatic pass are one event): 500;
    #   2,000 leaves three times as much again for a process that stops reading. Measured
    #   at 200 games: 10 entries at most (the default, 100, was never reached). Unread
    #   messages expire after `expiry` seconds, so the allowance costs Redis memory only
    #   while a process is stalled.
    # - max_connections: redis-py's pool (default 100) raises "Too many connections" when
    #   exhausted, and each command in flight (group_add, group_send, group_discard) holds
    #   one connection. The worst burst is every socket closing at once: one group_discard
    #   each, so up to 1,000. Measured at 200 games (400 sockets closing): up to 391
    #   connections for both processes; with the default, up to 194 group_discard
    #   failed. Redis's default maxclients (10,000) leaves room for nine such processes
    #   plus tools.
    # - socket_timeout: longer than channels-redis's blocking read. A process waits for
    #   its list with BZPOPMIN, which Redis answers after `brpop_timeout` (5 s) when
    #   nothing comes, and redis-py 8 (installed here) gives every read a 5 s timeout by
    #   default: on a busy event loop the timeout wins the race, the consumer that was
    #   reading dies (close 1011), its game stalls, and a message Redis pops at that
    #   moment would go with the connection (measured at 200 games: 1 or 2 stalled
    #   games a run, with our limits as with the defaults).
    #   15 s leaves 10 s for a busy loop; a Redis that does not answer is still an error.
    # - socket_connect_timeout: a Redis that does not accept is an error within seconds.
    # - othello_site.channel_layer: channels-redis that outlives a Redis restart.
    return {
        "BACKEND": "othello_site.channel_layer.ResilientRedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "max_connections": 1000,
                    "socket_timeout": 15,
                    "socket_connect_timeout": 5,
                }
            ],
            "capacity": 2000,
            "expiry": 60,
        },
    }


CHANNEL_LAYERS = {"default": _channel_layer()}


def _cache() -> dict[str, Any]:
    # The rate limits' counts (games.limits) live here. One process: its own memory. Several:
    # Redis, so that they count together.
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "othello",
        "OPTIONS": {"socket_timeout": 5, "socket_connect_timeout": 5},
    }


CACHES = {"default": _cache()}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Accounts (django-allauth, adapted in accounts.adapter; docs/api/http.md, "Accounts"): a
# username and a password log in; sign-up asks for a username, an e-mail address (unique
# among accounts, in any case) and a password twice, and mails a link that verifies the
# address; until then the account plays as usual but gets no e-mail but password resets.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "accounts.forms.LoginForm",
    "signup": "accounts.forms.SignupForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
}
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
# Stored confirmations (not HMAC links): an account's address that was ever sent a link
# is not sent one again at log-in (accounts.emails).
ACCOUNT_EMAIL_CONFIRMATION_HMAC = False
ACCOUNT_PREVENT_ENUMERATION = True
# A password reset for an unknown address mails nobody (allauth would tell the address
# that it has no account: a way to make the site mail anyone).
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
# Logged in until logging out, as with Django's own login (no "remember me" box).
ACCOUNT_SESSION_REMEMBER = True
# Failed logins (accounts.adapter: the "key" is the pair of address and username): 5 for
# one username from one address within 15 minutes lock that pair, 30 from one address
# lock the address. A password reset mails one address at most 3 times an hour. Every
# log-in is counted by login_failed alone (allauth's "login", every attempt from an
# address, would refuse the 31st attempt before the form could say why).
ACCOUNT_RATE_LIMITS: dict[str, str | None] | bool = {
    "login_failed": "30/15m/ip,5/15m/key",
    "login": None,
    "reset_password": "20/m/ip,3/h/key",
}
if not RATE_LIMITS:
    ACCOUNT_RATE_LIMITS = False


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Django's e-mail settings (password resets, notifications) from ``environ``:
    ``EMAIL_BACKEND`` when set (with ``EMAIL_FILE_PATH`` for Django's file backend), else
    SMTP when EMAIL_HOST is set, else the console backend, which prints each mail on the
    server's output (enough for one person running the server)."""
    sender = environ.get("DEFAULT_FROM_EMAIL", "").strip() or "Othello & Go <noreply@localhost>"
    host = environ.get("EMAIL_HOST", "").strip()
    backend = environ.get("EMAIL_BACKEND", "").strip()
    if backend:
        chosen: dict[str, Any] = {
            "EMAIL_BACKEND": backend,
            "DEFAULT_FROM_EMAIL": sender,
            "SERVER_EMAIL": sender,
        }
        if environ.get("EMAIL_FILE_PATH", "").strip():
            chosen["EMAIL_FILE_PATH"] = environ["EMAIL_FILE_PATH"].strip()
        if host:
            chosen.update(_smtp(environ, host))
        return chosen
    if not host:
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
            "DEFAULT_FROM_EMAIL": sender,
            "SERVER_EMAIL": sender,
        }
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        **_smtp(environ, host),
        "DEFAULT_FROM_EMAIL": sender,
        "SERVER_EMAIL": sender,
    }


def _smtp(environ: Mapping[str, str], host: str) -> dict[str, Any]:
    port = environ.get("EMAIL_PORT", "").strip() or "25"
    if not port.isdigit():
        raise ImproperlyConfigured(f"EMAIL_PORT={port!r}: expected a port number")
    return {
        "EMAIL_HOST": host,
        "EMAIL_PORT": int(port),
        "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": _flag("EMAIL_USE_TLS", default=False, environ=environ),
        "EMAIL_USE_SSL": _flag("EMAIL_USE_SSL", default=False, environ=environ),
        "EMAIL_TIMEOUT": 10,
    }


globals().update(email_settings(os.environ))

# Notifications (the notifications app): the address the site's links in e-mails start
# with ("": the address of the request that caused each, notifications.site), and Web
# Push's VAPID key pair (made once and kept beside the database when not given) and the
# contact a push service may write to.
SITE_URL = os.environ.get("SITE_URL", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", "").strip() or BASE_DIR / "vapid_key.pem")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "").strip() or "mailto:noreply@localhost"
# Where the server may send pushes (notifications.endpoints): https on hosts whose
# addresses are all public; the hosts named here (comma-separated, none by default) are
# exempt, and may be plain http: a private deployment's own push service, the tests'.
PUSH_ENDPOINT_ALLOW = [host.lower().strip("[]") for host in _list("PUSH_ENDPOINT_ALLOW")]

# The players' languages (docs/api/http.md; Django's own internationalisation: the catalogues
# in locale/, compiled by the two README commands). URLs carry no language: the visitor's
# choice (session, account) or the browser's Accept-Language decides.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("ko", "한국어"),
    ("zh-hans", "简体中文"),
    ("fr", "Français"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and numbers in the visitor's locale; English keeps its ISO-like dates.
FORMAT_MODULE_PATH = ["othello_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves static files under daphne with DEBUG off. It finds them where they
# are, so `collectstatic` is optional (it compresses them into STATIC_ROOT); no manifest,
# which would refuse every page until `collectstatic` has run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# ...so a STATIC_ROOT that `collectstatic` never filled is normal, not worth a warning.
warnings.filterwarnings("ignore", message=f"No directory at: {re.escape(str(STATIC_ROOT))}")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
