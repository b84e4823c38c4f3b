#!/bin/bash
# Notarize a signed .dmg with Apple and staple the ticket to it.
#     packaging/macos/notarize.sh dist/ArrayPlanner-<version>-macos-<arch>.dmg
# Variables (GitHub Actions secrets), either an App Store Connect API key:
#   APPLE_API_KEY_ID, APPLE_API_ISSUER_ID, APPLE_API_KEY (the .p8 file's text, base64)
# or an Apple ID with an app-specific password:
#   APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD
# With neither set the script says so and exits 0. The disk image must have been made from an
# app signed by sign.sh (Developer ID, hardened runtime), or Apple rejects it.
set -euo pipefail
DMG=${1:?usage: notarize.sh FILE.dmg}

if [ -n "${APPLE_API_KEY_ID:-}" ] && [ -n "${APPLE_API_ISSUER_ID:-}" ] && [ -n "${APPLE_API_KEY:-}" ]; then
    KEY_FILE="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/AuthKey_${APPLE_API_KEY_ID}.p8"
    echo "$APPLE_API_KEY" | base64 --decode > "$KEY_FILE"
    trap 'rm -f "$KEY_FILE"' EXIT
    AUTH=(--key "$KEY_FILE" --key-id "$APPLE_API_KEY_ID" --issuer "$APPLE_API_ISSUER_ID")
elif [ -n "${APPLE_ID:-}" ] && [ -n "${APPLE_TEAM_ID:-}" ] && [ -n "${APPLE_APP_PASSWORD:-}" ]; then
    AUTH=(--apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" --password "$APPLE_APP_PASSWORD")
else
    echo "notarize.sh: notarization credentials are not set (APPLE_API_KEY_ID/APPLE_API_ISSUER_ID/APPLE_API_KEY or APPLE_ID/APPLE_TEAM_ID/APPLE_APP_PASSWORD); not notarizing $DMG"
    exit 0
fi
[ -f "$DMG" ] || { echo "notarize.sh: $DMG not found" >&2; exit 2; }

xcrun notarytool submit "$DMG" "${AUTH[@]}" --wait --timeout 1h --output-format json | tee notarize.json
if ! grep -q '"status" *: *"Accepted"' notarize.json; then
    ID=$(sed -n 's/.*"id" *: *"\([^"]*\)".*/\1/p' notarize.json | head -1)
    [ -n "$ID" ] && xcrun notarytool log "$ID" "${AUTH[@]}" || true
    echo "notarize.sh: Apple did not accept $DMG" >&2
    exit 1
fi
xcrun stapler staple "$DMG"
xcrun stapler validate "$DMG"
spctl --assess --type open --context context:primary-signature --verbose=2 "$DMG" || true
echo "notarize.sh: notarized and stapled $DMG"
