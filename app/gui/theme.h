// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/appsettings.h"

class QApplication;

namespace strobe {

// Applies the light or dark palette (Fusion style), or the platform's own for Theme::System.
void applyTheme(QApplication& app, Theme theme);

} // namespace strobe
