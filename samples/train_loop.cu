// SPDX-License-Identifier: MIT
// A CUDA program shaped like a training loop, to capture with strobe-capture and open in Strobe.
//
//   train_loop [EPOCHS [ITERATIONS]]      (defaults: 2 epochs x 10 iterations)
//
// Per iteration, inside NVTX ranges Epoch > Iteration > {Data Load, Forward, Backward, Optimizer}:
//   Data Load  CPU work (~5 ms, GPU idle), a pageable (malloc) host-to-device copy
//   Forward    conv2d_forward_kernel, gemm_tiled_kernel, softmax_kernel (grid of 4 blocks) on the
//              compute stream, while the copy stream brings the next batch from pinned memory
//   Backward   gemm_tiled_kernel x2
//   Optimizer  cudaMemsetAsync (zero gradients), sgd_update_kernel, a pinned device-to-host copy
//              of the loss, cudaDeviceSynchronize
// Once before the loop: init_weights_kernel. After each epoch: an NVTX mark "Epoch done".
// The exact counts are what capture/device-check.sh expects.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        const cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "train_loop: %s failed: %s (%s:%d)\n", #call,                     \
                         cudaGetErrorString(err_), __FILE__, __LINE__);                            \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

namespace {

constexpr int kBatch = 8, kChannels = 32, kImage = 64, kKernel = 3; // convolution
constexpr int kN = 768;                                             // square GEMM size
constexpr int kTile = 16;
constexpr size_t kBatchFloats = size_t(kBatch) * kChannels * kImage * kImage; // 4 MiB of floats
constexpr size_t kPrefetchBytes = 32u << 20;

__global__ void init_weights_kernel(float* w, size_t n, float scale) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
         i += size_t(gridDim.x) * blockDim.x)
        w[i] = scale * float((i * 2654435761u) % 1000) / 1000.0f - scale / 2;
}

// Direct 3x3 convolution, one thread per output element, "same" padding.
__global__ void conv2d_forward_kernel(const float* in, const float* weights, float* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int bc = blockIdx.z; // batch * channels
    if (x >= kImage || y >= kImage)
        return;
    const int b = bc / kChannels, co = bc % kChannels;
    float acc = 0.0f;
    for (int ci = 0; ci < kChannels; ++ci)
        for (int ky = 0; ky < kKernel; ++ky)
            for (int kx = 0; kx < kKernel; ++kx) {
                const int ix = x + kx - 1, iy = y + ky - 1;
                if (ix < 0 || iy < 0 || ix >= kImage || iy >= kImage)
                    continue;
                acc += in[((b * kChannels + ci) * kImage + iy) * kImage + ix] *
                       weights[((co * kChannels + ci) * kKernel + ky) * kKernel + kx];
            }
    out[((b * kChannels + co) * kImage + y) * kImage + x] = fmaxf(acc, 0.0f);
}

// C = A * B for n x n matrices, shared-memory tiles.
__global__ void gemm_tiled_kernel(const float* a, const float* b, float* c, int n) {
    __shared__ float ta[kTile][kTile];
    __shared__ float tb[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += kTile) {
        ta[threadIdx.y][threadIdx.x] =
            row < n && t + threadIdx.x < n ? a[row * n + t + threadIdx.x] : 0;
        tb[threadIdx.y][threadIdx.x] =
            col < n && t + threadIdx.y < n ? b[(t + threadIdx.y) * n + col] : 0;
        __syncthreads();
        for (int k = 0; k < kTile; ++k)
            acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n)
        c[row * n + col] = acc;
}

// Row-wise softmax; deliberately launched with only 4 blocks, so most SMs sit idle.
__global__ void softmax_kernel(const float* in, float* out, int rows, int cols) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        if (threadIdx.x != 0)
            continue;
        float maxv = in[r * cols];
        for (int c = 1; c < cols; ++c)
            maxv = fmaxf(maxv, in[r * cols + c]);
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c)
            sum += expf(in[r * cols + c] - maxv);
        for (int c = 0; c < cols; ++c)
            out[r * cols + c] = expf(in[r * cols + c] - maxv) / sum;
    }
}

__global__ void sgd_update_kernel(float* w, const float* grad, size_t n, float lr) {
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n)
        w[i] -= lr * grad[i];
}

void pushColored(const char* name, uint32_t argb) {
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = argb;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = name;
    nvtxRangePushEx(&attr);
}

int parseCount(const char* arg, const char* what) {
    char* end = nullptr;
    const long v = std::strtol(arg, &end, 10);
    if (*end != '\0' || v <= 0 || v > 100000) {
        std::fprintf(stderr, "train_loop: invalid %s '%s' (expected a positive integer)\n", what,
                     arg);
        std::exit(2);
    }
    return int(v);
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
        std::printf("Usage: train_loop [EPOCHS [ITERATIONS]]  (defaults: 2 10)\n");
        return 0;
    }
    const int epochs = argc > 1 ? parseCount(argv[1], "epoch count") : 2;
    const int iterations = argc > 2 ? parseCount(argv[2], "iteration count") : 10;

    cudaStream_t compute = nullptr, copy = nullptr;
    CUDA_CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
    cudaEvent_t batchReady = nullptr;
    CUDA_CHECK(cudaEventCreateWithFlags(&batchReady, cudaEventDisableTiming));

    const size_t gemmFloats = size_t(kN) * kN;
    const size_t convWeights = size_t(kChannels) * kChannels * kKernel * kKernel;
    float *dInput = nullptr, *dConvW = nullptr, *dConvOut = nullptr, *dA = nullptr, *dB = nullptr,
          *dC = nullptr, *dGrad = nullptr, *dProbs = nullptr, *dPrefetch = nullptr;
    CUDA_CHECK(cudaMalloc(&dInput, kBatchFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dConvW, convWeights * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dConvOut, kBatchFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dA, gemmFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, gemmFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, gemmFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dGrad, gemmFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dProbs, gemmFloats * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPrefetch, kPrefetchBytes));

    // Pageable batch buffer (what a naive data loader hands over) and pinned staging buffers.
    std::vector<float> hostBatch(kBatchFloats);
    void* pinnedNext = nullptr;
    float* pinnedLoss = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinnedNext, kPrefetchBytes));
    CUDA_CHECK(cudaMallocHost(&pinnedLoss, kN * sizeof(float)));
    std::memset(pinnedNext, 0, kPrefetchBytes);

    init_weights_kernel<<<256, 256, 0, compute>>>(dA, gemmFloats, 0.1f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    const dim3 convBlock(16, 16), convGrid(kImage / 16, kImage / 16, kBatch * kChannels);
    const dim3 gemmBlock(kTile, kTile), gemmGrid(kN / kTile, kN / kTile);
    const auto t0 = std::chrono::steady_clock::now();
    for (int epoch = 0; epoch < epochs; ++epoch) {
        nvtxRangePushA("Epoch");
        for (int it = 0; it < iterations; ++it) {
            nvtxRangePushA("Iteration");

            pushColored("Data Load", 0xFF4E79A7);
            // CPU-side decoding and augmentation: the GPU has nothing to do meanwhile.
            std::memset(hostBatch.data(), (epoch + it) & 0x7F, kBatchFloats * sizeof(float));
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            CUDA_CHECK(cudaMemcpyAsync(dInput, hostBatch.data(), kBatchFloats * sizeof(float),
                                       cudaMemcpyHostToDevice, copy));
            CUDA_CHECK(cudaEventRecord(batchReady, copy));
            CUDA_CHECK(cudaStreamWaitEvent(compute, batchReady, 0));
            nvtxRangePop();

            pushColored("Forward", 0xFF59A14F);
            conv2d_forward_kernel<<<convGrid, convBlock, 0, compute>>>(dInput, dConvW, dConvOut);
            // The next batch streams in from pinned memory while the forward pass computes.
            CUDA_CHECK(cudaMemcpyAsync(dPrefetch, pinnedNext, kPrefetchBytes,
                                       cudaMemcpyHostToDevice, copy));
            gemm_tiled_kernel<<<gemmGrid, gemmBlock, 0, compute>>>(dA, dB, dC, kN);
            softmax_kernel<<<4, 128, 0, compute>>>(dC, dProbs, kN, kN);
            CUDA_CHECK(cudaGetLastError());
            nvtxRangePop();

            pushColored("Backward", 0xFFE15759);
            gemm_tiled_kernel<<<gemmGrid, gemmBlock, 0, compute>>>(dProbs, dB, dGrad, kN);
            gemm_tiled_kernel<<<gemmGrid, gemmBlock, 0, compute>>>(dA, dGrad, dC, kN);
            CUDA_CHECK(cudaGetLastError());
            nvtxRangePop();

            pushColored("Optimizer", 0xFFF28E2B);
            CUDA_CHECK(cudaMemsetAsync(dGrad, 0, gemmFloats * sizeof(float) / 4, compute));
            sgd_update_kernel<<<unsigned((gemmFloats + 255) / 256), 256, 0, compute>>>(
                dA, dC, gemmFloats, 1e-3f);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpyAsync(pinnedLoss, dProbs, kN * sizeof(float),
                                       cudaMemcpyDeviceToHost, compute));
            CUDA_CHECK(cudaDeviceSynchronize());
            nvtxRangePop();

            nvtxRangePop(); // Iteration
        }
        nvtxMarkA("Epoch done");
        nvtxRangePop(); // Epoch
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("train_loop: %d epochs x %d iterations in %.3f s, loss[0] = %g\n", epochs,
                iterations, seconds, double(pinnedLoss[0]));

    CUDA_CHECK(cudaFreeHost(pinnedNext));
    CUDA_CHECK(cudaFreeHost(pinnedLoss));
    for (float* p : {dInput, dConvW, dConvOut, dA, dB, dC, dGrad, dProbs, dPrefetch})
        CUDA_CHECK(cudaFree(p));
    CUDA_CHECK(cudaEventDestroy(batchReady));
    CUDA_CHECK(cudaStreamDestroy(compute));
    CUDA_CHECK(cudaStreamDestroy(copy));
    return 0;
}
