#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-package.sh BUILD_DIR: builds the .deb with CPack, unpacks it into a temporary root and
# runs the packaged strobe-cli and strobe from there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: check-package.sh BUILD_DIR}"
fixture="$root/../shared/fixtures/nsys/nsys2024.5-cloverleaf.sqlite"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$build" && cpack -G DEB -B "$tmp/out" >/dev/null)
deb="$(ls "$tmp"/out/*.deb)"
echo "built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
dpkg-deb -x "$deb" "$tmp/root"

fail() { echo "package check failed: $*" >&2; exit 1; }
depends="$(dpkg-deb -f "$deb" Depends)"
for dep in libqt6core6 libqt6widgets6 libsqlite3-0; do
    grep -q "$dep" <<<"$depends" || fail "Depends lacks $dep: $depends"
done
for f in usr/bin/strobe usr/bin/strobe-cli usr/share/applications/io.github.strobe.Strobe.desktop \
         usr/share/metainfo/io.github.strobe.Strobe.metainfo.xml usr/share/mime/packages/io.github.strobe.Strobe.xml \
         usr/share/icons/hicolor/scalable/apps/io.github.strobe.Strobe.svg \
         usr/share/icons/hicolor/48x48/apps/io.github.strobe.Strobe.png; do
    [ -e "$tmp/root/$f" ] || fail "missing $f"
done
cli_version="$("$tmp/root/usr/bin/strobe-cli" --version)"
gui_version="$(QT_QPA_PLATFORM=offscreen "$tmp/root/usr/bin/strobe" --version)"
[ "${cli_version##* }" = "${gui_version##* }" ] || fail "versions differ: '$cli_version' vs '$gui_version'"
info="$("$tmp/root/usr/bin/strobe-cli" info "$fixture" --json)"
grep -q '"kernels": 1312' <<<"$info" || fail "packaged strobe-cli info gave: $info"
# render from the package, with no display and no platform chosen.
env -u DISPLAY -u QT_QPA_PLATFORM "$tmp/root/usr/bin/strobe-cli" render "$fixture" -o "$tmp/render.png" \
    --width 800 --height 600 >/dev/null || fail "packaged strobe-cli render failed"
[ -s "$tmp/render.png" ] || fail "packaged strobe-cli render wrote no picture"
echo "package check: $cli_version; info on $(basename "$fixture") reports 1312 kernels; render drew it"
