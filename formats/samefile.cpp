// SPDX-License-Identifier: MIT
#include "formats/samefile.h"

#include "formats/nativepath.h"

#include <sys/stat.h>

namespace strobe {

bool isSameFile(const QString& a, const QString& b) {
    if (a.isEmpty() || b.isEmpty())
        return false;
    struct stat sa {
    }, sb{};
    return ::stat(nativePath(a).constData(), &sa) == 0 &&
           ::stat(nativePath(b).constData(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

} // namespace strobe
