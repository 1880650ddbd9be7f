// SPDX-License-Identifier: MIT
#pragma once

#include "model/kernelclass.h"
#include "model/records.h"

#include <QColor>
#include <QStringView>
#include <cstdint>
#include <string_view>

class QPalette;

namespace strobe {

// What an event is, for colouring: similar work gets similar colours.
enum class ColorCategory : std::uint8_t {
    Gemm,
    Convolution,
    Elementwise,
    ReductionSoftmax,
    OtherKernel,
    MemcpyHtoD,
    MemcpyDtoH,
    MemcpyDtoD,
    MemcpyPeer,
    MemcpyOther,
    Memset,
    Sync,
    CpuCall, // CUDA API and OS runtime calls other than synchronisation
    Nvtx,
};

// The colour of a kernel class (model/kernelclass.h): attention shares GEMM's hues,
// normalisation and softmax share a band, elementwise/reduction has its own.
ColorCategory colorCategoryOf(KernelClass cls);
// Classifies a kernel by its (short or demangled) name through KernelClassTable::active().
ColorCategory classifyKernel(std::string_view name);
// The same from both names (KernelClassTable::classify(shortName, fullName)).
ColorCategory classifyKernel(std::string_view shortName, std::string_view fullName);
// Calls with a cudaapi::SyncRole (they block the host, order streams or poll) are Sync.
ColorCategory classifyApiCall(std::string_view name);
ColorCategory classifyMemcpy(MemcpyKind kind);

// A stable 32-bit hash of a name (FNV-1a; qHash is seeded per process, colours must not be).
std::uint32_t stableNameHash(std::string_view name);

// Colours of the timeline for one palette (light or dark, chosen from the window colour).
struct TimelinePalette {
    bool dark = false;
    QColor background, rowAlternate, groupHeader, text, textOnBar, grid, folded, utilIdle, idleMark,
        selection, partner, cursor, measure;
    QColor utilKernel;   // the utilisation strip's kernel half
    QColor utilCopy;     // its copy (memcpy and memset) half
    QColor pinnedLabel;  // the header name of a pinned lane
    QColor rulerMeasure; // the measured range on the ruler (over the canvas it is `measure`)
    QColor minorTick;    // the ruler's minor ticks

    static TimelinePalette light();
    static TimelinePalette darkPalette();
    // Dark when the palette's window colour is dark (lightness < 128).
    static TimelinePalette forPalette(const QPalette& palette);

    // The fill of an event: hue band by category, shade by name hash.
    QColor eventColor(ColorCategory category, std::uint32_t nameHash) const;
};

} // namespace strobe
