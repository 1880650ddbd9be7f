// SPDX-License-Identifier: MIT
// The one home of CUDA API naming rules and the sync predicate.
#include "model/cudaapi.h"

#include <gtest/gtest.h>
#include <utility>

using namespace strobe;
using cudaapi::SyncRole;

TEST(CudaApi, HostBlockingCallsAreTheGapSyncCauses) {
    for (const char* n :
         {"cudaDeviceSynchronize_v3020", "cudaStreamSynchronize_ptsz_v7000", "cudaEventSynchronize",
          "cudaMemcpy_v3020", "cudaMemcpy2D_v3020", "cuCtxSynchronize", "cuStreamSynchronize",
          "cuEventSynchronize", "cuMemcpyDtoH_v2"})
        EXPECT_EQ(cudaapi::syncRole(n), SyncRole::BlocksHost) << n;
    for (const char* n : {"cudaMemcpyAsync_v3020", "cuMemcpyHtoDAsync_v2", "cudaLaunchKernel",
                          "cudaStreamWaitEvent_v3020", "cudaMalloc_v3020"})
        EXPECT_NE(cudaapi::syncRole(n), SyncRole::BlocksHost) << n;
}

TEST(CudaApi, StreamWaitsOrderTheGpuAndQueriesPoll) {
    EXPECT_EQ(cudaapi::syncRole("cudaStreamWaitEvent_v3020"), SyncRole::OrdersGpu);
    EXPECT_EQ(cudaapi::syncRole("cuStreamWaitEvent_ptsz"), SyncRole::OrdersGpu);
    EXPECT_EQ(cudaapi::syncRole("cuStreamWaitValue32_v2"), SyncRole::OrdersGpu);
    EXPECT_EQ(cudaapi::syncRole("cudaEventQuery_v3020"), SyncRole::Polls);
    EXPECT_EQ(cudaapi::syncRole("cuStreamQuery"), SyncRole::Polls);
    for (const char* n : {"cudaLaunchKernel_v7000", "cudaMalloc_v3020", "pthread_cond_wait", "",
                          "cudaMemcpyAsync_v3020", "Synchronize"})
        EXPECT_EQ(cudaapi::syncRole(n), SyncRole::None) << n;
}

TEST(CudaApi, BaseNameDropsEveryVersionAndPerThreadSuffix) {
    EXPECT_EQ(cudaapi::baseName("cudaStreamSynchronize_ptsz_v7000"), "cudaStreamSynchronize");
    EXPECT_EQ(cudaapi::baseName("cudaLaunchKernelExC_v11060"), "cudaLaunchKernelExC");
    EXPECT_EQ(cudaapi::baseName("cuMemcpyDtoH_v2"), "cuMemcpyDtoH");
    EXPECT_EQ(cudaapi::baseName("cuLaunchKernel_ptds"), "cuLaunchKernel");
    // Not suffixes: "_v" alone, letters after v, a leading underscore.
    EXPECT_EQ(cudaapi::baseName("cudaFoo_v"), "cudaFoo_v");
    EXPECT_EQ(cudaapi::baseName("cudaFoo_vx2"), "cudaFoo_vx2");
    EXPECT_EQ(cudaapi::baseName("_v2"), "_v2");
}

TEST(CudaApi, DisplayNameDropsEveryTrailingVersionSuffix) {
    const std::pair<const char*, const char*> cases[] = {
        {"cudaLaunchKernel_v7000", "cudaLaunchKernel"},
        {"cudaLaunchKernelExC_v11060", "cudaLaunchKernelExC"},
        {"cuMemcpyDtoH_v2", "cuMemcpyDtoH"},
        {"cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync"},
        {"cuFoo_v2_v3", "cuFoo"},
        // The per-thread suffixes stay, only the version after them goes.
        {"cudaStreamSynchronize_ptsz_v7000", "cudaStreamSynchronize_ptsz"},
        {"cudaMemcpyAsync_ptds", "cudaMemcpyAsync_ptds"},
        {"cudaFoo_v2_ptsz", "cudaFoo_v2_ptsz"},
        // Not suffixes: no digits, letters after v, only a suffix, digits without "_v".
        {"cudaFoo_v", "cudaFoo_v"},
        {"cudaFoo_vx2", "cudaFoo_vx2"},
        {"_v1234", "_v1234"},
        {"x_v1", "x"},
        {"cuda3D", "cuda3D"},
        {"cudaFoo_2", "cudaFoo_2"},
        {"", ""},
    };
    for (const auto& [in, out] : cases)
        EXPECT_EQ(cudaapi::displayName(QString::fromLatin1(in)), QString::fromLatin1(out)) << in;
}
