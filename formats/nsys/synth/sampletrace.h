// SPDX-License-Identifier: MIT
#pragma once

// The sample trace the viewer opens when started without a file: a small, deterministic nsys
// export (3.25 schema) of two epochs of a ResNet-style CNN training loop, `python train.py`
// (pid 4242) on one "NVIDIA H100 80GB HBM3". Qt-free.
//
// The story its numbers tell (measured on the file it writes; test_synthtrace checks them):
// - 2 epochs x 10 iterations; NVTX ranges Epoch > Iteration > Data Load / Forward / Backward /
//   Optimizer on the main thread, and ranges per layer and per op beneath Forward/Backward.
// - The data loader is the bottleneck: "Data Load" takes 27.5% of every iteration (15.7 ms of
//   57.2 ms on average). The main thread waits in pthread_cond_wait while the DataLoader thread
//   reads files (OSRT `read`), so the GPU sits idle for about 15.6 ms per iteration (27.6% of
//   the 1.13 s from first to last GPU activity), followed by a pageable (srcKind 0) host-to-
//   device copy of the batch.
// - On the GPU, convolutions (implicit_convolve_sgemm, cudnn fprop/dgrad/wgrad: 86%) and GEMMs
//   (3%) take 89% of kernel time; batch norm, ReLU, softmax and the optimizer share the rest.
// - `softmax_warp_forward` runs with grid (4,1,1) x block (128,1,1): 4 blocks on a 132-SM GPU,
//   an occupancy lesson waiting in the kernel table.
// - Two streams overlap: 7 computes, 13 copies the batch and runs a metrics kernel during the
//   backward pass. One cudaDeviceSynchronize (with its SYNCHRONIZATION row) ends each
//   iteration.
// 23,050 events in all (7,260 on the GPU).
//
// The "after" variant is the same program with its data loader fixed (a prefetching worker and
// pinned host memory, as DataLoader(num_workers=1, pin_memory=True) would do): the DataLoader
// thread loads batch i+1 while the GPU computes batch i, so only the first iteration waits for
// data, and the batch is copied from pinned memory (srcKind 6, ~25 GB/s). Every other event is
// drawn from the same random sequence, so kernels keep their exact durations: a comparison of
// the two shows the data-loading time and the GPU idle time gone, and nothing else changed.

#include <string>

namespace strobe::sample {

enum class SampleVariant {
    Before, // the data-loader stall the tutorial finds
    After,  // the same loop with the stall fixed
};

// Writes the sample to `path`. False with `error` (one sentence naming the path) on failure.
bool writeSampleTrace(const std::string& path, std::string* error,
                      SampleVariant variant = SampleVariant::Before);

} // namespace strobe::sample
