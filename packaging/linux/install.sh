#!/bin/sh
# Install the ArrayPlanner bundle this script sits in, with a menu entry and the .arrayplan file type.
#     ./install.sh                  for this user (~/.local)
#     sudo PREFIX=/usr/local ./install.sh
#     ./install.sh --uninstall      (same PREFIX as for installing)
# Puts the bundle in $PREFIX/lib/arrayplanner, links $PREFIX/bin/arrayplanner (command line) and
# $PREFIX/bin/ArrayPlanner (GUI), and adds the desktop entry, MIME type and icons under $PREFIX/share.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -eq 0 ]; then PREFIX=${PREFIX:-/usr/local}; else PREFIX=${PREFIX:-"$HOME/.local"}; fi
LIB="$PREFIX/lib/arrayplanner"
SHARE="$PREFIX/share"

refresh() {
    command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$SHARE/mime" >/dev/null 2>&1 || true
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$SHARE/applications" >/dev/null 2>&1 || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" >/dev/null 2>&1 || true
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$LIB"
    rm -f "$PREFIX/bin/arrayplanner" "$PREFIX/bin/ArrayPlanner" \
        "$SHARE/applications/arrayplanner.desktop" "$SHARE/mime/packages/arrayplanner.xml" \
        "$SHARE/icons/hicolor/256x256/apps/arrayplanner.png" "$SHARE/icons/hicolor/scalable/apps/arrayplanner.svg" \
        "$SHARE/icons/hicolor/256x256/mimetypes/application-x-arrayplanner-project.png"
    refresh
    echo "ArrayPlanner removed from $PREFIX"
    exit 0
fi

[ -x "$HERE/ArrayPlanner" ] && [ -d "$HERE/_internal" ] || { echo "install.sh: run it from the unpacked bundle" >&2; exit 2; }
mkdir -p "$LIB" "$PREFIX/bin" "$SHARE/applications" "$SHARE/mime/packages" \
    "$SHARE/icons/hicolor/256x256/apps" "$SHARE/icons/hicolor/scalable/apps" "$SHARE/icons/hicolor/256x256/mimetypes"
if [ "$HERE" != "$LIB" ]; then
    rm -rf "$LIB"
    cp -a "$HERE" "$LIB"
fi
ln -sf "$LIB/arrayplanner" "$PREFIX/bin/arrayplanner"
ln -sf "$LIB/ArrayPlanner" "$PREFIX/bin/ArrayPlanner"
sed "s|^Exec=ArrayPlanner|Exec=\"$LIB/ArrayPlanner\"|" "$LIB/share/applications/arrayplanner.desktop" \
    > "$SHARE/applications/arrayplanner.desktop"
cp "$LIB/share/mime/packages/arrayplanner.xml" "$SHARE/mime/packages/arrayplanner.xml"
cp "$LIB/share/icons/arrayplanner.png" "$SHARE/icons/hicolor/256x256/apps/arrayplanner.png"
cp "$LIB/share/icons/arrayplanner.png" "$SHARE/icons/hicolor/256x256/mimetypes/application-x-arrayplanner-project.png"
cp "$LIB/share/icons/arrayplanner.svg" "$SHARE/icons/hicolor/scalable/apps/arrayplanner.svg"
refresh
echo "ArrayPlanner installed in $LIB; commands: $PREFIX/bin/arrayplanner, $PREFIX/bin/ArrayPlanner"
case ":$PATH:" in *":$PREFIX/bin:"*) ;; *) echo "note: $PREFIX/bin is not on PATH" ;; esac
