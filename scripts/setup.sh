#!/usr/bin/env bash
# Set up a development environment in .venv at the repository root (idempotent).
#
#   1. system libraries Qt needs, and a C compiler for step 4 (apt-get, only when running as root
#      and only what is missing)
#   2. uv (installed with pip when it is not on PATH)
#   3. .venv with Python >= 3.11: `uv sync --locked --extra test --extra native`, the versions and
#      hashes of uv.lock exactly (after editing pyproject.toml's dependencies: `uv lock`)
#   4. the native engine: scripts/build_native.py compiles the engine's hot modules with mypyc into
#      build/native when its stamp is missing or stale (about a minute); when it cannot (no
#      compiler, mypyc refuses the sources), the engine runs as pure Python, and the same failure
#      is not tried again until a source, mypy or the compiler changes
#
# A stamp in .venv records the hash of pyproject.toml and uv.lock; when it matches, steps 2-3 are skipped;
# step 4 checks build/native's own stamp (a few ms when nothing changed).
# Environment: ARRAYPLANNER_SKIP_APT=1 skips step 1; ARRAYPLANNER_SKIP_NATIVE=1 skips step 4;
# PYTHON=/path/to/python3.11 picks the interpreter.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
STAMP="$VENV/.arrayplanner-setup"
say() { printf 'setup: %s\n' "$*" >&2; }

# ---------------------------------------------------------------- 1. system libraries
QT_LIBS="libglib2.0-0 libegl1 libgl1 libx11-6 libdbus-1-3 libfontconfig1 libfreetype6 libxkbcommon0 fonts-dejavu-core"
X_LIBS="xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-render-util0 libxcb-shape0 libxkbcommon-x11-0"
REPORT_TOOLS="poppler-utils"
# the native engine's C compiler, only when there is none (a clang or a cc of another package will do)
BUILD_TOOLS=""
command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || BUILD_TOOLS="gcc"

install_system_packages() {
    [ "${ARRAYPLANNER_SKIP_APT:-0}" = "1" ] && return 0
    command -v dpkg-query >/dev/null 2>&1 || { say "not a Debian-like system: skipping system libraries"; return 0; }
    local missing=()
    for pkg in $QT_LIBS $X_LIBS $REPORT_TOOLS $BUILD_TOOLS; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        say "missing system packages (install them as root): ${missing[*]}"
        return 0
    fi
    say "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # a fresh machine has no package lists yet, and a name can be missing from an older/newer
    # release: on failure, update the lists and install what exists
    if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null || say "apt-get update failed"
        local available=()
        for pkg in "${missing[@]}"; do
            if apt-cache show "$pkg" >/dev/null 2>&1; then available+=("$pkg"); else say "not available here: $pkg"; fi
        done
        if [ "${#available[@]}" -gt 0 ]; then
            apt-get install -y -qq --no-install-recommends "${available[@]}" >/dev/null \
                || say "could not install: ${available[*]} (the GUI or report tests may fail, the engine may run as pure Python)"
        fi
    fi
}

# ---------------------------------------------------------------- 2. Python and uv
find_python() {
    local candidates=("${PYTHON:-}" python3.11 python3.12 python3.13 python3)
    for py in "${candidates[@]}"; do
        [ -n "$py" ] || continue
        if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$py"; return 0
        fi
    done
    return 1
}

UV=()
find_uv() {
    if command -v uv >/dev/null 2>&1 && uv --version >/dev/null 2>&1; then UV=(uv); return 0; fi
    if "$PY" -m uv --version >/dev/null 2>&1; then UV=("$PY" -m uv); return 0; fi
    return 1
}

install_uv() {
    say "uv not found: installing it with pip"
    if ! "$PY" -m pip --version >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
            say "installing python3-pip"
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip >/dev/null 2>&1 \
                || { apt-get update -qq >/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip >/dev/null; }
        else
            "$PY" -m ensurepip --user >/dev/null 2>&1 || true
        fi
    fi
    if ! "$PY" -m pip --version >/dev/null 2>&1; then
        say "pip is not available for $PY: install python3-pip (or uv) and run this again"
        exit 1
    fi
    # PEP 668 (Debian's externally managed Python) refuses plain installs; uv is a standalone tool
    PIP_BREAK_SYSTEM_PACKAGES=1 "$PY" -m pip install --quiet --user uv 2>/dev/null \
        || PIP_BREAK_SYSTEM_PACKAGES=1 "$PY" -m pip install --quiet uv
    export PATH="$HOME/.local/bin:$PATH"
}

# ---------------------------------------------------------------- 3. the virtual environment
install_venv() {
    local want
    want="$(cat pyproject.toml uv.lock | "$PY" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] \
            && "$VENV/bin/python" -c 'import app, PySide6, pytest' >/dev/null 2>&1; then
        return 0
    fi
    find_uv || { install_uv; find_uv; } || { say "could not install uv"; exit 1; }
    say "installing ArrayPlanner and its test and build dependencies into .venv (uv.lock)"
    # --locked: exactly the lock's versions, each file checked against its hash; a lock that no
    # longer matches pyproject.toml is an error (run `uv lock`), never a silent re-resolve
    UV_PROJECT_ENVIRONMENT="$VENV" "${UV[@]}" sync --quiet --locked --python "$PY" --compile-bytecode \
        --extra test --extra native
    printf '%s\n' "$want" > "$STAMP"
}

# ---------------------------------------------------------------- 4. the native engine
build_native_engine() {
    [ "${ARRAYPLANNER_SKIP_NATIVE:-0}" = "1" ] && return 0
    local out
    # quiet when up to date; a build prints one line (what, how long), a failure its reason last
    if out="$("$VENV/bin/python" scripts/build_native.py --if-stale --quiet 2>&1)"; then
        [ -z "$out" ] || say "${out##*$'\n'}"
    else
        say "${out##*$'\n'}; the engine runs as pure Python"
    fi
}

main() {
    install_system_packages
    PY="$(find_python)" || { say "Python 3.11 or newer is required (set PYTHON=/path/to/python3.11)"; exit 1; }
    install_venv
    build_native_engine
}

main "$@"
