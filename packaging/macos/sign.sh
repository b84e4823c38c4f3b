#!/bin/bash
# Sign ArrayPlanner.app (or a .dmg) with a Developer ID certificate, hardened runtime, time stamp.
#     packaging/macos/sign.sh [dist/ArrayPlanner.app | dist/ArrayPlanner-<version>-macos-<arch>.dmg]
# Variables (GitHub Actions secrets in .github/workflows/release.yml):
#   MACOS_SIGN_IDENTITY          "Developer ID Application: Name (TEAMID)"   (required to sign)
#   MACOS_CERTIFICATE            the certificate + key as a .p12, base64     (CI: imported into a
#   MACOS_CERTIFICATE_PASSWORD   its password                                 temporary keychain)
# Without MACOS_SIGN_IDENTITY the script says so and exits 0 (the bundle keeps PyInstaller's ad-hoc
# signature, which runs locally but is refused by Gatekeeper on other Macs).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TARGET=${1:-"$HERE/../../dist/ArrayPlanner.app"}

if [ -z "${MACOS_SIGN_IDENTITY:-}" ]; then
    echo "sign.sh: MACOS_SIGN_IDENTITY is not set; not signing $TARGET"
    exit 0
fi
[ -e "$TARGET" ] || { echo "sign.sh: $TARGET not found" >&2; exit 2; }

if [ -n "${MACOS_CERTIFICATE:-}" ]; then
    KEYCHAIN="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/arrayplanner-sign.keychain-db"
    KEYCHAIN_PASSWORD=$(uuidgen)
    P12="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/arrayplanner-sign.p12"
    echo "$MACOS_CERTIFICATE" | base64 --decode > "$P12"
    security create-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN" 2>/dev/null || true
    security set-keychain-settings -lut 21600 "$KEYCHAIN"
    security unlock-keychain -p "$KEYCHAIN_PASSWORD" "$KEYCHAIN"
    security import "$P12" -P "${MACOS_CERTIFICATE_PASSWORD:-}" -A -t cert -f pkcs12 -k "$KEYCHAIN"
    security set-key-partition-list -S apple-tool:,apple: -s -k "$KEYCHAIN_PASSWORD" "$KEYCHAIN" >/dev/null
    security list-keychains -d user -s "$KEYCHAIN" $(security list-keychains -d user | tr -d '"')
    rm -f "$P12"
fi

sign() {
    codesign --force --timestamp --options runtime --entitlements "$HERE/entitlements.plist" \
        --sign "$MACOS_SIGN_IDENTITY" "$@"
}

case "$TARGET" in
    *.dmg)
        codesign --force --timestamp --sign "$MACOS_SIGN_IDENTITY" "$TARGET"
        ;;
    *.app)
        # inside out: every Mach-O file (libraries, Python extensions, Qt plugins), then the
        # executables, then the bundle itself (no --deep: it would skip the entitlements)
        while IFS= read -r -d '' f; do
            if file -b "$f" | grep -q "Mach-O"; then sign "$f"; fi
        done < <(find "$TARGET/Contents/Frameworks" "$TARGET/Contents/Resources" -type f -print0 2>/dev/null)
        for exe in "$TARGET"/Contents/MacOS/*; do
            [ "$(basename "$exe")" = ArrayPlanner ] || sign "$exe"
        done
        sign "$TARGET"
        ;;
    *) echo "sign.sh: expected a .app or .dmg, got $TARGET" >&2; exit 2 ;;
esac
codesign --verify --strict --verbose=2 "$TARGET"
echo "sign.sh: signed $TARGET as $MACOS_SIGN_IDENTITY"
