#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ./scripts/screenshots.sh [BUILD_DIR]: regenerates every image in docs/images from the real
# widgets, offscreen (no display needed). Each program waits for the panels' and the timeline's
# worker threads before it takes a picture, so no image shows "Computing…".
# BUILD_DIR defaults to build/release (configured with tests and benchmarks on); the fixtures
# are read from STROBE_FIXTURES_DIR, default ../shared/fixtures beside the clone.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/release}"
fixtures="${STROBE_FIXTURES_DIR:-$root/../shared/fixtures}"
images="$root/docs/images"
h100="$fixtures/nsys/nsys2026.2-h100-2gpu-nvtx.sqlite"
cloverleaf="$fixtures/nsys/nsys2024.5-cloverleaf.sqlite"
kineto="$fixtures/kineto/hta-a100-nccl-ddp.json.gz"
v100="$fixtures/kineto/hta-v100-memory-events.json.gz"
resnet="$fixtures/kineto/resnet50-kineto-2021.pt.trace.json.gz"
for f in "$h100" "$cloverleaf" "$kineto" "$v100" "$resnet"; do
    [ -f "$f" ] || { echo "error: fixture $f not found (set STROBE_FIXTURES_DIR)" >&2; exit 1; }
done

cmake --build "$build" --target mainwindow_screenshots panels_screenshot gaps_screenshot \
    timeline_screenshot compare_screenshots flamegraph_screenshot search_screenshot job_screenshots \
    partial_screenshot strobe-cli
export QT_QPA_PLATFORM=offscreen
mkdir -p "$images"
# README and USER_GUIDE: overview-sample, findings-panel, mainwindow, kernels-by-duration,
# kernel-details, overview-h100, timeline-h100, statistics-nvtx-h100, and the PyTorch trace's
# kineto-timeline and kineto-kernel-details; KERNELS.md: ResNet-50's operators-panel and
# kernel-operator-chain.
"$build/tests/app/gui/mainwindow_screenshots" "$images" "$h100" "$kineto" "$resnet"
# KERNELS.md: the kernel table, detail pane and statistics on CloverLeaf.
"$build/tests/widgets/panels/panels_screenshot" "$cloverleaf" "$images/kernels.png"
# GAPS.md and USER_GUIDE: the gaps panel and the timeline zoomed to the longest gap.
"$build/tests/widgets/panels/gaps_screenshot" "$images/gaps-panel.png" "$images/gap-zoomed.png"
# OPERATORS.md and USER_GUIDE: the flame graph of the ResNet-50 Kineto trace (its steps,
# zoomed) and its step breakdown chart.
"$build/tests/widgets/panels/flamegraph_screenshot" "$fixtures/kineto/resnet50-kineto-2021.pt.trace.json.gz" \
    "$images/flamegraph.png" "$images/step-breakdown.png"
# TIMELINE.md: the timeline alone on the two-GPU export.
"$build/bench/paint/timeline_screenshot" "$h100" "$images/timeline.png" 1600 1000
# USER_GUIDE and TIMELINE.md: the timeline's search bar and its highlighted matches.
"$build/tests/widgets/timeline/search_screenshot" "$h100" "$images/search.png"
# TIMELINE.md: a partial GPU picture, the first sampled pass of a synthetic trace, hatched.
"$build/tests/widgets/timeline/partial_screenshot" "$images/partial-picture.png"
# USER_GUIDE: the sample compared with its data-loader fix: compare-timelines.png,
# compare-panel-nvtx.png and compare-panel-gpus.png.
"$build/tests/app/gui/compare_screenshots" "$images"
# JOBS.md and USER_GUIDE: synthetic jobs of 2 and 8 ranks (rank 5 late), the Overview and the
# Findings tab on the 8, one collective selected, rank 5 expanded: job-2-ranks.png,
# job-8-ranks.png, job-overview.png, job-findings.png, job-collective.png, job-expanded.png.
"$build/tests/app/gui/job_screenshots" "$images"
# TIMELINE.md: the GPU memory counter lane of a Kineto trace with memory events.
"$build/bench/paint/timeline_screenshot" "$v100" "$images/memory-lane.png" 1600 1000
# README: strobe-cli render of one step of the synthetic trace, by the command the README shows.
synth="$(mktemp -d)"
trap 'rm -rf "$synth"' EXIT
"$build/app/strobe-cli" synth -o "$synth/train.sqlite" --events 10k >/dev/null
(cd "$synth" && "$build/app/strobe-cli" render train.sqlite -o "$images/render-step3.png" \
    --range "step 3" --lanes 'python3 \[4101\]|GPU 0' --width 1600 --height 520 >/dev/null)
echo "Regenerated: $(cd "$images" && ls ./*.png | tr '\n' ' ')"
