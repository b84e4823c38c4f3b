#!/bin/bash
# Pack dist/ArrayPlanner.app into a compressed disk image with an /Applications link:
#     packaging/macos/make_dmg.sh            -> dist/ArrayPlanner-<version>-macos-<arch>.dmg
# The version comes from pyproject.toml (packaging/spec_common.py). Run after build.py and
# sign.sh; then sign.sh FILE.dmg and notarize.sh FILE.dmg (docs/packaging.md, release.yml).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-"$ROOT/.venv/bin/python"}
command -v "$PY" >/dev/null 2>&1 || PY=python3
APP="$ROOT/dist/ArrayPlanner.app"
[ -d "$APP" ] || { echo "make_dmg.sh: $APP not found; build it with packaging/build.sh" >&2; exit 2; }
VERSION=$("$PY" "$HERE/../spec_common.py" version)
ARCH=${ARRAYPLANNER_TARGET_ARCH:-$(uname -m)}
DMG="$ROOT/dist/ArrayPlanner-$VERSION-macos-$ARCH.dmg"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ditto "$APP" "$STAGE/ArrayPlanner.app"       # ditto keeps symlinks, attributes and signatures
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "ArrayPlanner $VERSION" -srcfolder "$STAGE" -fs HFS+ \
    -format UDZO -imagekey zlib-level=9 -ov "$DMG"
hdiutil verify "$DMG"
echo "disk image: $DMG ($(du -h "$DMG" | cut -f1))"
