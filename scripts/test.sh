#!/bin/sh
# Command 2: install everything the tests need and run the whole suite.
EXTRAS=test . "$(dirname "$0")/_venv.sh"
. scripts/_apt.sh
need_package /usr/bin/chromium chromium "the browser tests"
need_package /usr/games/gnugo gnugo "the computer opponent in Go and its tests"
need_package /usr/games/gtp-rhino grhino "the bridge's test with an Othello engine nobody here wrote"
# The proxy recipe's test runs Debian's nginx as a process of its own (never the service).
need_package /usr/sbin/nginx nginx "the proxy recipe's test (tests/site/test_proxy.py)"
# KataGo's own tests run against the real engine when the run opts in (CI does: .ci/run);
# otherwise they are skipped, and the summary says why.
if [ "${WITH_KATAGO:-}" = 1 ]; then sh scripts/katago.sh; fi
. scripts/_messages.sh
# The habits that catch slips: conflict markers, whitespace, big files (.pre-commit-config.yaml).
.venv/bin/pre-commit run --all-files --show-diff-on-failure
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
# The browser's modules (static/js/, no build step): JSDoc types checked by TypeScript
# and the linter, both pinned in package-lock.json and installed into node_modules/.
. scripts/_node.sh
# Playwright's sync fixtures leave an event loop running, which breaks the async
# tests that follow them in one process: the browser tests get their own run.
.venv/bin/pytest -p no:playwright -m "not browser" "$@"
.venv/bin/pytest tests/browser -m browser "$@"
