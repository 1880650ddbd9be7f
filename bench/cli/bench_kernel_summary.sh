#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# strobe-cli kernel-summary against the SQL that `nsys stats --report cuda_gpu_kern_sum` runs
# (cuda_gpu_kern_sum.sql beside this script) in the sqlite3 shell, on one synthetic trace: three
# alternating runs of each, the median wall and CPU (user + system) time, and the ratio
# kernel-summary / SQL (target <= 0.25 at 10M events; docs/PERFORMANCE.md). Not a test.
#
#   bench/cli/bench_kernel_summary.sh [EVENTS] [STROBE_CLI] [OTHER_STROBE_CLI]
#
# EVENTS: rows of the synthetic trace (default 10M; about 20 s and 600 MB in $TMPDIR, deleted at
# the end). STROBE_CLI: default build/release/app/strobe-cli. OTHER_STROBE_CLI: a second build
# (say, of the previous commit) timed in the same rounds, for a before and after.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
events="${1:-10M}"
cli="${2:-$root/build/release/app/strobe-cli}"
other="${3:-}"
sql="$here/cuda_gpu_kern_sum.sql"
for p in "$cli" ${other:+"$other"}; do
    [ -x "$p" ] || { echo "bench_kernel_summary: $p is not an executable" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || { echo "bench_kernel_summary: no sqlite3 shell" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/bench_kernel_summary.XXXXXX")"
trap 'rm -rf "$work"' EXIT
trace="$work/trace.sqlite"
"$cli" synth -o "$trace" --events "$events"

# The two must agree before their times mean anything: per name, instances and total time.
"$cli" kernel-summary "$trace" | tail -n +2 |
    awk -F, '{ n = NF; printf "%s %s\n", $(n - 6), $(n - 5) }' | sort >"$work/cli.txt"
sqlite3 -csv "$trace" <"$sql" | awk -F, '{ printf "%s %s\n", $2, $3 }' | sort >"$work/sql.txt"
if ! cmp -s "$work/cli.txt" "$work/sql.txt"; then
    echo "bench_kernel_summary: kernel-summary and the SQL disagree on instances or totals" >&2
    exit 1
fi

# Runs "$@" with its output discarded; prints "wall_seconds cpu_seconds".
timed() {
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f '%U %S' -o "$work/time.txt" "$@" >/dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" '{ printf "%.3f %.3f\n", e - s, $1 + $2 }' "$work/time.txt"
}

names=(kernel-summary sql)
[ -n "$other" ] && names+=(other)
for run in 1 2 3; do
    timed "$cli" kernel-summary "$trace" >>"$work/kernel-summary.txt"
    timed sqlite3 -csv "$trace" <"$sql" >>"$work/sql.txt.times"
    [ -n "$other" ] && timed "$other" kernel-summary "$trace" >>"$work/other.txt"
done
mv "$work/sql.txt.times" "$work/sql.txt"

median() { # column $2 of file $1
    awk -v c="$2" '{ print $c }' "$1" | sort -g | sed -n 2p
}
[ -n "$other" ] && echo "other: $other"
printf 'events: %s, kernels: %s\n' "$events" \
    "$(sqlite3 "$trace" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')"
printf '%-24s %-22s %-8s %-22s %s\n' what "wall s (3 runs)" median "cpu s (3 runs)" median
for n in "${names[@]}"; do
    label="$n"
    [ "$n" = sql ] && label="cuda_gpu_kern_sum SQL"
    [ "$n" = other ] && label="other kernel-summary"
    printf '%-24s %-22s %-8s %-22s %s\n' "$label" \
        "$(awk '{ printf "%s ", $1 }' "$work/$n.txt")" "$(median "$work/$n.txt" 1)" \
        "$(awk '{ printf "%s ", $2 }' "$work/$n.txt")" "$(median "$work/$n.txt" 2)"
done
ratio() {
    awk -v a="$(median "$work/$1.txt" "$3")" -v b="$(median "$work/$2.txt" "$3")" \
        'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}
printf 'kernel-summary / SQL: %s wall, %s cpu (target <= 0.25)\n' \
    "$(ratio kernel-summary sql 1)" "$(ratio kernel-summary sql 2)"
if [ -n "$other" ]; then
    printf 'other kernel-summary / SQL: %s wall, %s cpu\n' "$(ratio other sql 1)" \
        "$(ratio other sql 2)"
fi
