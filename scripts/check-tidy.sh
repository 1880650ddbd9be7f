#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/check-tidy.sh BUILD_DIR: clang-tidy (the checks in .clang-tidy) over the product code,
# every .cpp in app/, widgets/, render/, model/, formats/ and capture/ that BUILD_DIR's
# compile_commands.json compiles (not tests/ or bench/), with the headers of those folders. Any
# finding fails the run; each is printed once as FILE:LINE: message [check]. Run by
# scripts/test.sh after the release build (the build makes the moc and resource files that the
# sources include). STROBE_TIDY_JOBS sets the parallelism (default: nproc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: scripts/check-tidy.sh BUILD_DIR}"
build="$(cd "$build" && pwd)"
tidy="$(command -v clang-tidy-14 || command -v clang-tidy || true)"
[ -n "$tidy" ] || { echo "error: clang-tidy not found (Debian package clang-tidy)" >&2; exit 1; }
[ -f "$build/compile_commands.json" ] || {
    echo "error: $build/compile_commands.json missing: configure with a preset first" >&2
    exit 1
}

product='app|widgets|render|model|formats|capture'
# Sources compiled by the host compiler only: a file nvcc compiles (its flags are not clang's)
# is left to nvcc's own warnings.
mapfile -t files < <(python3 - "$build/compile_commands.json" "$root" "$product" <<'EOF'
import json, re, sys
entries = json.load(open(sys.argv[1]))
root, product = sys.argv[2], sys.argv[3]
pattern = re.compile(r"^" + re.escape(root) + r"/(" + product + r")/.*\.cpp$")
files = set()
for e in entries:
    command = e.get("command") or " ".join(e.get("arguments", []))
    if pattern.match(e["file"]) and "nvcc" not in command.split(" ", 1)[0]:
        files.add(e["file"])
print("\n".join(sorted(files)))
EOF
)
[ ${#files[@]} -gt 0 ] || { echo "error: no product sources in $build/compile_commands.json" >&2; exit 1; }

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
jobs="${STROBE_TIDY_JOBS:-$(nproc)}"
start=$SECONDS
# One clang-tidy per file, in parallel; each writes its own log. GCC-only warning flags in the
# compile commands (-Wno-restrict) are unknown to clang: not a finding.
printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} sh -c '
    log="$1/$(echo "$2" | tr / _).log"
    "$3" -p "$4" --quiet --header-filter="^$5/($6)/" --warnings-as-errors="*" \
        --extra-arg=-Wno-unknown-warning-option "$2" >"$log" 2>&1 || echo "$2" >>"$1/failed"
' _ "$out" {} "$tidy" "$build" "$root" "$product"

# A header's finding is reported by every source that includes it: print each once, relative
# to the root.
findings="$(cat "$out"/*.log | { grep -E '^/[^:]+:[0-9]+:[0-9]+: (warning|error): ' || true; } |
    sed -E "s#^$root/##; s#^([^:]+:[0-9]+):[0-9]+: (warning|error): #\1: #; s#,-warnings-as-errors\]\$#]#" |
    sort -u -t: -k1,1 -k2,2n -k3)"
seconds=$((SECONDS - start))
if [ -n "$findings" ]; then
    echo "$findings"
    echo "clang-tidy: $(echo "$findings" | wc -l) finding(s) in ${#files[@]} files (${seconds} s); see .clang-tidy" >&2
    exit 1
fi
if [ -f "$out/failed" ]; then
    # A failure without a finding line (a crash, a missing header): show its log.
    while read -r f; do cat "$out/$(echo "$f" | tr / _).log"; done <"$out/failed"
    echo "clang-tidy failed on $(wc -l <"$out/failed") file(s)" >&2
    exit 1
fi
echo "clang-tidy: no findings in ${#files[@]} files (${seconds} s)"
