// SPDX-License-Identifier: MIT
// On every visible GPU d (in order): one launch of fill_kernel with d + 1 blocks and one
// cudaDeviceSynchronize. capture/device-check.sh checks that each context, kernel and sync row
// of the trace names the GPU it ran on.
//
//   multi_gpu        prints "multi_gpu: N devices" and exits 0 (1 on a CUDA error)

#include <cstdio>

__global__ void fill_kernel(int* out, int value) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        std::fprintf(stderr, "multi_gpu: no CUDA device\n");
        return 1;
    }
    for (int d = 0; d < count; ++d) {
        int* buffer = nullptr;
        if (cudaSetDevice(d) != cudaSuccess ||
            cudaMalloc(&buffer, 64 * sizeof(int) * (d + 1)) != cudaSuccess)
            return 1;
        fill_kernel<<<d + 1, 64>>>(buffer, d);
        if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess)
            return 1;
        cudaFree(buffer);
    }
    std::printf("multi_gpu: %d devices\n", count);
    return 0;
}
