#!/bin/sh
# Build the one-folder bundle for this OS (Linux or macOS) into dist/:
#     ./packaging/build.sh [--archive] [--smoke] [--clean]
# Uses $PYTHON, else the project's .venv (created by the README's set-up). See docs/packaging.md.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-"$ROOT/.venv/bin/python"}
[ -x "$PY" ] || { echo "build.sh: $PY not found; run the set-up in README.md or set PYTHON" >&2; exit 2; }
exec "$PY" "$ROOT/packaging/build.py" "$@"
