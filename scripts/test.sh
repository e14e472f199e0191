#!/bin/sh
# Command 2: install everything the tests need and run the whole suite.
EXTRAS=test . "$(dirname "$0")/_venv.sh"
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# Playwright's sync fixtures leave an event loop running, which breaks the async
# tests that follow them in one process: the browser tests get their own run.
.venv/bin/pytest -p no:playwright -m "not browser" "$@"
.venv/bin/pytest tests/browser -m browser "$@"
