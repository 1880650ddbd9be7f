// SPDX-License-Identifier: MIT
#include "render/paint/timelinecolors.h"

#include "model/cudaapi.h"
#include "model/kernelclass.h"

#include <QPalette>
#include <algorithm>
#include <array>

namespace strobe {

namespace {
struct HueBand {
    int hue;    // centre, degrees
    int spread; // +- degrees by name hash
    int sat;
};

HueBand bandOf(ColorCategory c) {
    switch (c) {
    case ColorCategory::Gemm:
        return {215, 12, 170};
    case ColorCategory::Convolution:
        return {275, 12, 140};
    case ColorCategory::Elementwise:
        return {125, 15, 130};
    case ColorCategory::ReductionSoftmax:
        return {32, 8, 190};
    case ColorCategory::OtherKernel:
        return {180, 20, 90};
    case ColorCategory::MemcpyHtoD:
        return {160, 0, 200};
    case ColorCategory::MemcpyDtoH:
        return {330, 0, 170};
    case ColorCategory::MemcpyDtoD:
        return {55, 0, 200};
    case ColorCategory::MemcpyPeer:
        return {15, 0, 120};
    case ColorCategory::MemcpyOther:
        return {90, 0, 80};
    case ColorCategory::Memset:
        return {0, 0, 0};
    case ColorCategory::Sync:
        return {0, 4, 200};
    case ColorCategory::CpuCall:
        return {200, 30, 45};
    case ColorCategory::Nvtx:
        return {0, 180, 110};
    }
    return {0, 0, 0};
}
} // namespace

ColorCategory colorCategoryOf(KernelClass cls) {
    switch (cls) {
    case KernelClass::Gemm:
    case KernelClass::Attention: // tensor-core matrix products too
        return ColorCategory::Gemm;
    case KernelClass::Convolution:
        return ColorCategory::Convolution;
    case KernelClass::Normalization:
    case KernelClass::Softmax:
        return ColorCategory::ReductionSoftmax;
    case KernelClass::ElementwiseReduction:
        return ColorCategory::Elementwise;
    case KernelClass::Other:
        break;
    }
    return ColorCategory::OtherKernel;
}

ColorCategory classifyKernel(std::string_view name) {
    return colorCategoryOf(KernelClassTable::active().classify(name));
}

ColorCategory classifyKernel(std::string_view shortName, std::string_view fullName) {
    return colorCategoryOf(KernelClassTable::active().classify(shortName, fullName));
}

ColorCategory classifyApiCall(std::string_view name) {
    return cudaapi::syncRole(name) != cudaapi::SyncRole::None ? ColorCategory::Sync
                                                              : ColorCategory::CpuCall;
}

ColorCategory classifyMemcpy(MemcpyKind kind) {
    switch (kind) {
    case MemcpyKind::HtoD:
    case MemcpyKind::HtoA:
    case MemcpyKind::UnifiedHtoD:
        return ColorCategory::MemcpyHtoD;
    case MemcpyKind::DtoH:
    case MemcpyKind::AtoH:
    case MemcpyKind::UnifiedDtoH:
        return ColorCategory::MemcpyDtoH;
    case MemcpyKind::DtoD:
    case MemcpyKind::AtoA:
    case MemcpyKind::AtoD:
    case MemcpyKind::DtoA:
    case MemcpyKind::UnifiedDtoD:
        return ColorCategory::MemcpyDtoD;
    case MemcpyKind::PtoP:
        return ColorCategory::MemcpyPeer;
    default:
        return ColorCategory::MemcpyOther;
    }
}

std::uint32_t stableNameHash(std::string_view name) {
    std::uint32_t h = 2166136261u;
    for (unsigned char c : name) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

TimelinePalette TimelinePalette::light() {
    TimelinePalette p;
    p.dark = false;
    p.background = QColor(0xfb, 0xfb, 0xfc);
    p.rowAlternate = QColor(0xf1, 0xf2, 0xf5);
    p.groupHeader = QColor(0xe2, 0xe5, 0xeb);
    p.text = QColor(0x1f, 0x23, 0x28);
    p.textOnBar = QColor(0x10, 0x10, 0x10);
    p.grid = QColor(0xd5, 0xd8, 0xde);
    p.folded = QColor(0x8a, 0x93, 0xa3);
    p.utilKernel = QColor(0x2e, 0x8b, 0x57);
    p.utilCopy = QColor(0x3a, 0x6e, 0xc8);
    p.utilIdle = QColor(0xe6, 0xe8, 0xec);
    p.idleMark = QColor(0xe0, 0x40, 0x30, 150);
    p.selection = QColor(0xff, 0x8c, 0x00);
    p.partner = QColor(0xd0, 0x20, 0xb0);
    p.cursor = QColor(0x30, 0x30, 0x30, 160);
    p.measure = QColor(0x30, 0x80, 0xff, 50);
    p.pinnedLabel = QColor(0xb6, 0x64, 0x00);
    p.rulerMeasure = QColor(0x28, 0x6b, 0xd4, 50);
    p.minorTick = QColor(0xa4, 0xa6, 0xab);
    return p;
}

TimelinePalette TimelinePalette::darkPalette() {
    TimelinePalette p;
    p.dark = true;
    p.background = QColor(0x1e, 0x20, 0x24);
    p.rowAlternate = QColor(0x25, 0x28, 0x2d);
    p.groupHeader = QColor(0x31, 0x35, 0x3c);
    p.text = QColor(0xdd, 0xe1, 0xe6);
    p.textOnBar = QColor(0x10, 0x10, 0x10); // event colours stay light in the dark theme
    p.grid = QColor(0x3a, 0x3e, 0x45);
    p.folded = QColor(0x6b, 0x73, 0x80);
    p.utilKernel = QColor(0x3c, 0xb3, 0x71);
    p.utilCopy = QColor(0x5b, 0x9b, 0xf0);
    p.utilIdle = QColor(0x2c, 0x2f, 0x35);
    p.idleMark = QColor(0xff, 0x55, 0x44, 150);
    p.selection = QColor(0xff, 0xa5, 0x20);
    p.partner = QColor(0xff, 0x60, 0xe0);
    p.cursor = QColor(0xe0, 0xe0, 0xe0, 160);
    p.measure = QColor(0x50, 0x9a, 0xff, 60);
    p.pinnedLabel = QColor(0xb6, 0x76, 0x17);
    p.rulerMeasure = QColor(0x43, 0x80, 0xd4, 60);
    p.minorTick = QColor(0x2d, 0x30, 0x35);
    return p;
}

TimelinePalette TimelinePalette::forPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128 ? darkPalette() : light();
}

QColor TimelinePalette::eventColor(ColorCategory category, std::uint32_t nameHash) const {
    const HueBand b = bandOf(category);
    const int span = 2 * b.spread + 1;
    const int hue = (b.hue + int(nameHash % std::uint32_t(span)) - b.spread + 360) % 360;
    // Lightness varies a little by name so neighbours of one category stay distinguishable.
    const int shade = int((nameHash >> 8) % 40u);
    const int value = dark ? 150 + shade : 190 + shade / 2;
    const int sat = dark ? b.sat * 4 / 5 : b.sat;
    return QColor::fromHsv(hue, std::clamp(sat, 0, 255), std::clamp(value, 0, 255));
}

} // namespace strobe
