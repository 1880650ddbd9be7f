// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace strobe {

// True when `a` and `b` name one existing file (the same device and inode, through symlinks
// and hard links alike): an output that is a trace being read must be refused, or writing the
// picture would destroy the trace.
bool isSameFile(const QString& a, const QString& b);

} // namespace strobe
