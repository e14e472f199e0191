#!/bin/sh
# Command 1: install everything and serve http://127.0.0.1:8000 (SQLite, in-memory layer).
. "$(dirname "$0")/_venv.sh"
. scripts/_apt.sh
need_package /usr/games/gnugo gnugo "the computer opponent in Go"
# Opt in to KataGo (docs/engines/katago.md): WITH_KATAGO=1 sh scripts/serve.sh; a failed
# install leaves GNU Go in charge.
if [ "${WITH_KATAGO:-}" = 1 ]; then sh scripts/katago.sh || true; fi
. scripts/_messages.sh
.venv/bin/python manage.py migrate --noinput
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
