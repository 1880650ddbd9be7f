// SPDX-License-Identifier: MIT
#pragma once

namespace strobe {
class Trace;
}

namespace strobe::test {

// Expects `b` to hold exactly what `a` holds, through the public API: metadata, counts,
// warnings, strings, processes, threads, GPUs, streams, every lane's events (start, end, name,
// payload), rows and interval queries, every record field and the GPU memory tracks.
void expectTracesEqual(const Trace& a, const Trace& b);

// Touches everything a viewer reads (labels, rows, kernelAt, partners, overlap queries), so that
// a trace that passed validation but indexes out of range fails under the sanitizers.
void exerciseTrace(const Trace& t);

} // namespace strobe::test
