# Sourced by scripts/test.sh: the checks of the browser's modules (static/js/, no build
# step), whose tools come from npm (package.json, pinned by package-lock.json) into
# node_modules/: JSDoc types checked by TypeScript (tsconfig.json; the service worker
# in its own lib, tsconfig.sw.json; the game page and what it imports under strict
# rules, tsconfig.strict.json), then the linter
# (eslint.config.js).
command -v npm >/dev/null 2>&1 || need_package /usr/bin/npm npm "the JavaScript's type check and linter"
if command -v npm >/dev/null 2>&1; then
    npm ci --no-audit --no-fund --loglevel=error
    npx --no-install tsc -p . --noEmit
    npx --no-install tsc -p tsconfig.sw.json --noEmit
    npx --no-install tsc -p tsconfig.strict.json --noEmit
    npx --no-install eslint .
else
    echo "No npm on this machine: the JavaScript's type check and linter did not run." >&2
fi
