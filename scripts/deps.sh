#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages Strobe needs to build, test and run, when they are missing.
# Sourced by run.sh and test.sh; safe to run again (it only installs what is absent).
set -euo pipefail

STROBE_PACKAGES=(
    build-essential cmake ninja-build ccache pkg-config clang-format clang-tidy file dpkg-dev
    qt6-base-dev qt6-svg-dev libqt6svg6 qt6-qpa-plugins libgl-dev fonts-dejavu-core
    libsqlite3-dev sqlite3
    libsimdjson-dev libdeflate-dev zlib1g-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    xvfb xauth
)

strobe_install_deps() {
    local missing=()
    for p in "${STROBE_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing missing packages: ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The CUDA toolkit (for strobe-capture) is optional: CMake builds capture only when it finds it.
strobe_cuda_args() {
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        echo "-DCUDAToolkit_ROOT=/usr/local/cuda -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc"
    fi
}
