#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a source file includes a header of a layer it may not use (docs/ARCHITECTURE.md):
# dependencies point one way, app -> widgets -> render -> model/analysis -> model/lod -> model,
# widgets -> model/itemmodels -> model/reports -> model/analysis, app/cli -> model/reports,
# model/reports -> model/job -> model/analysis, app/cli -> model/job, and
# formats/* -> model; only widgets/ (and app/gui) use the item models. model/ and formats/ use no
# Qt GUI, and no Qt at all where the writer and the generators must stay Qt-free for
# strobe-capture. CMake's link dependencies enforce the same
# arrows for symbols; this check also catches header-only reach-arounds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# folder (longest match wins) -> project include prefixes it may use, and the Qt it may use.
rules=(
    "model/lod|model/lod/ model/[a-z_]*\\.h|core"
    "model/analysis|model/analysis/ model/lod/ model/[a-z_]*\\.h|core"
    "model/reports|model/reports/ model/job/ model/analysis/ model/lod/ model/[a-z_]*\\.h|core"
    "model/job|model/job/ model/analysis/ model/lod/ model/[a-z_]*\\.h|core"
    "model/itemmodels|model/itemmodels/ model/reports/ model/analysis/ model/lod/ model/[a-z_]*\\.h|core"
    "model|model/[a-z_]*\\.h|core"
    "formats/nsys/schema|formats/nsys/schema/|none"
    "formats/nsys/writer|formats/nsys/writer/ formats/nsys/schema/|none"
    "formats/nsys/synth|formats/nsys/synth/ formats/nsys/writer/|none"
    "formats/nsys/reader|formats/nsys/reader/ formats/nsys/schema/ formats/nativepath\\.h model/[a-z_]*\\.h|core"
    "formats/kineto|formats/kineto/ formats/nativepath\\.h model/[a-z_]*\\.h|core"
    "formats|formats/ model/[a-z_]*\\.h model/lod/|core"
    "render/geometry|render/geometry/ model/[a-z_]*\\.h model/lod/ model/analysis/|core"
    "render/paint|render/paint/ render/geometry/ model/[a-z_]*\\.h model/lod/ model/analysis/ model/reports/|gui"
    "render|render/|core"
    "widgets/timeline|widgets/timeline/ widgets/[a-z_]*\\.h render/ model/|any"
    "widgets/panels|widgets/panels/ widgets/[a-z_]*\\.h render/paint/ model/|any"
    "widgets|widgets/[a-z_]*\\.h model/|any"
    "app/cli/render|app/cli/ render/ formats/ model/[a-z_]*\\.h model/lod/ model/analysis/ model/reports/|gui"
    "app/cli|app/cli/ formats/ model/[a-z_]*\\.h model/lod/ model/analysis/ model/reports/ model/job/|core"
    "app/gui|app/gui/ widgets/ render/ formats/ model/|any"
    "capture|capture/ formats/nsys/writer/ formats/nsys/schema/|none"
)
qtcore_dir="$(find /usr/include -maxdepth 3 -type d -path '*qt6/QtCore' | head -n 1)"
qtgui_dir="${qtcore_dir%/QtCore}/QtGui"
qtsvg_dir="${qtcore_dir%/QtCore}/QtSvg"

bad=0
while IFS= read -r f; do
    dir="$(dirname "$f")"
    rule=""
    for r in "${rules[@]}"; do
        folder="${r%%|*}"
        if [ "$dir" = "$folder" ] || [[ "$dir" == "$folder"/* ]]; then
            rule="$r"
            break
        fi
    done
    [ -n "$rule" ] || continue
    rest="${rule#*|}"
    allowed="${rest%%|*}"
    qt="${rest##*|}"
    while IFS= read -r inc; do
        ok=0
        for a in $allowed; do
            if [[ "$inc" =~ ^$a ]]; then ok=1; break; fi
        done
        if [ $ok = 0 ]; then
            echo "$f: includes \"$inc\", outside what ${rule%%|*}/ may use ($allowed)"
            bad=1
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    while IFS= read -r inc; do
        case "$qt" in
        none)
            echo "$f: includes <$inc>, but ${rule%%|*}/ is Qt-free"
            bad=1
            ;;
        core)
            if [ -n "$qtcore_dir" ] && [ ! -e "$qtcore_dir/$inc" ]; then
                echo "$f: includes <$inc>, which is not Qt Core (${rule%%|*}/ links Qt6::Core at most)"
                bad=1
            fi
            ;;
        gui)
            if [ -n "$qtcore_dir" ] && [ ! -e "$qtcore_dir/$inc" ] && [ ! -e "$qtgui_dir/$inc" ] &&
                [ ! -e "$qtsvg_dir/$inc" ]; then
                echo "$f: includes <$inc>, which is not Qt Core, Gui or Svg (${rule%%|*}/ paints without widgets)"
                bad=1
            fi
            ;;
        esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(Q[A-Za-z]*\)>.*/\1/p' "$f")
done < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cpp' | sort -u)
if [ $bad != 0 ]; then
    echo "layer check failed (see docs/ARCHITECTURE.md for the arrows)"
    exit 1
fi
echo "layer check: every include stays within its layer."
