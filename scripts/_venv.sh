# Sourced by the other scripts: makes .venv and installs the project into it,
# with the extras named in $EXTRAS, again only when pyproject.toml or they changed.
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
extras=${EXTRAS:-}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=".venv/.installed${extras:+-$extras}"
want="$(cat pyproject.toml)${extras}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e ".${extras:+[$extras]}"
    printf '%s' "$want" > "$stamp"
fi
