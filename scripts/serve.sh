#!/bin/sh
# Command 1: install everything and serve http://127.0.0.1:8000 (SQLite, in-memory layer).
. "$(dirname "$0")/_venv.sh"
. scripts/_apt.sh
need_package /usr/games/gnugo gnugo "the computer opponent in Go"
. scripts/_messages.sh
.venv/bin/python manage.py migrate --noinput
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
