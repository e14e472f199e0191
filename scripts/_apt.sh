# Sourced by the other scripts: need_package BINARY PACKAGE WHAT installs Debian's PACKAGE
# with apt when BINARY is missing; without apt it says what will not work, and goes on.
need_package() {
    [ -x "$1" ] && return 0
    if command -v apt-get >/dev/null 2>&1; then
        sudo_cmd=""
        [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
        echo "Installing Debian's $2 ($3)..."
        $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "$2" >/dev/null && return 0
        echo "Could not install $2 with apt: $3 will not work." >&2
    else
        echo "No apt on this machine: install $2 yourself ($1); until then $3 will not work." >&2
    fi
    return 0
}
