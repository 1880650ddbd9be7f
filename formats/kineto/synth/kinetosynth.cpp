// SPDX-License-Identifier: MIT
#include "formats/kineto/synth/kinetosynth.h"

#include "formats/kineto/synth/synthwriter.h"
#include "formats/kineto/synth/trainingloop.h"

#include <cstdio>

namespace strobe::kinetosynth {

bool writeKinetoTrace(const std::string& path, const KinetoSynthOptions& options,
                      std::string* error, KinetoSynthStats* stats) {
    // Written beside the target and renamed at the end: the file appears only when complete.
    const std::string part = path + ".part";
    SynthWriter w(part, path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0, options);
    if (!w.ok()) {
        if (error)
            *error = "cannot create " + path;
        return false;
    }
    w.header();
    TrainingLoop loop(w);
    loop.run(4458676000000000); // monotonic ns, as current PyTorch writes
    w.footer();
    if (!w.close() || std::rename(part.c_str(), path.c_str()) != 0) {
        std::remove(part.c_str());
        if (error)
            *error = "cannot write " + path + " (disk full?)";
        return false;
    }
    if (stats)
        *stats = w.stats();
    return true;
}

} // namespace strobe::kinetosynth
