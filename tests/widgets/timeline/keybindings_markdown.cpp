// SPDX-License-Identifier: MIT
// Not a test: prints the controls table of docs/TIMELINE.md (between its key-bindings markers),
// generated from the list the F1 dialog shows. scripts/check-docs.sh compares the two.
#include "widgets/timeline/keybindings.h"

#include <cstdio>

int main() {
    std::fputs(strobe::keyBindingsMarkdown().toUtf8().constData(), stdout);
    return std::ferror(stdout) || std::fflush(stdout) != 0 ? 1 : 0;
}
