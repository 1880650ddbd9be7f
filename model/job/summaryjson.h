// SPDX-License-Identifier: MIT
#pragma once

// The rank summary file (`*.summary.json`): RankSummary as versioned JSON, documented field by
// field in docs/JOBS.md. Writing is deterministic (keys sorted, one line); reading treats the file
// as untrusted: every field is checked, and anything else is one sentence.

#include "model/job/ranksummary.h"

#include <QByteArray>
#include <optional>

namespace strobe {

inline constexpr int kRankSummaryVersion = 1;
// The "format" member every summary file starts with.
inline constexpr char kRankSummaryFormat[] = "strobe-rank-summary";
// Larger files are refused before parsing: a real summary is a few MB.
inline constexpr qint64 kMaxRankSummaryBytes = 256ll << 20;

QByteArray rankSummaryToJson(const RankSummary& s);
// nullopt with one sentence (without the file's name) in `error` on anything but a summary of
// this version.
std::optional<RankSummary> rankSummaryFromJson(const QByteArray& json, QString* error);

// The same through a file; the sentence names the file. Writing goes through a temporary file,
// so a summary appears only when complete.
bool writeRankSummaryFile(const QString& path, const RankSummary& s, QString* error);
std::optional<RankSummary> readRankSummaryFile(const QString& path, QString* error);

} // namespace strobe
