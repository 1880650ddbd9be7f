// SPDX-License-Identifier: MIT
#include "model/analysis/findingrules.h"

namespace strobe::findingrules {

// Placeholder until the rules land (issue 43).
void runRecommendationRules(const Context& /*ctx*/, Sink& /*out*/) {}

} // namespace strobe::findingrules
