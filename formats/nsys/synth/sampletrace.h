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

#include <string>

namespace strobe::sample {

// Writes the sample to `path`. False with `error` (one sentence naming the path) on failure.
bool writeSampleTrace(const std::string& path, std::string* error);

} // namespace strobe::sample
