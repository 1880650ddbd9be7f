// SPDX-License-Identifier: MIT
// Starting and stopping CUPTI with fake entry points (issue 20, items 3, 4, 8 and 11): which
// call enables which kind, what the user is told when everything is refused, the order of the
// final flushes, and which API entries flush before a context goes away.
#include "capture/cuptisession.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace strobe::capture;

namespace {

std::vector<std::string> g_calls;
CUptiResult g_result = CUPTI_SUCCESS;
CUpti_ActivityKind g_failingKind = CUPTI_ACTIVITY_KIND_INVALID;

CUptiResult answer(CUpti_ActivityKind kind) {
    if (kind == g_failingKind)
        return CUPTI_ERROR_NOT_COMPATIBLE;
    return g_result;
}
CUptiResult fakeEnable(CUpti_ActivityKind kind) {
    g_calls.push_back("enable " + std::to_string(int(kind)));
    return answer(kind);
}
CUptiResult fakeEnableAndDump(CUpti_ActivityKind kind) {
    g_calls.push_back("dump " + std::to_string(int(kind)));
    return answer(kind);
}
CUptiResult fakeDisable(CUpti_ActivityKind kind) {
    g_calls.push_back("disable " + std::to_string(int(kind)));
    return CUPTI_SUCCESS;
}
CUptiResult fakeFlush(uint32_t flags) {
    g_calls.push_back("flush " + std::to_string(flags));
    return CUPTI_SUCCESS;
}

CuptiControl fakes() {
    CuptiControl c;
    c.enable = fakeEnable;
    c.enableAndDump = fakeEnableAndDump;
    c.disable = fakeDisable;
    c.flushAll = fakeFlush;
    return c;
}

class CuptiSession : public ::testing::Test {
protected:
    void SetUp() override {
        g_calls.clear();
        g_result = CUPTI_SUCCESS;
        g_failingKind = CUPTI_ACTIVITY_KIND_INVALID;
    }
};

std::string k(CUpti_ActivityKind kind) {
    return std::to_string(int(kind));
}

} // namespace

TEST_F(CuptiSession, DevicesAndContextsAreDumpedTheRestEnabled) {
    const EnableResult r = enableActivityKinds(fakes(), "");
    EXPECT_EQ(g_calls, (std::vector<std::string>{
                           "dump " + k(CUPTI_ACTIVITY_KIND_DEVICE),
                           "dump " + k(CUPTI_ACTIVITY_KIND_CONTEXT),
                           "enable " + k(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                           "enable " + k(CUPTI_ACTIVITY_KIND_MEMCPY),
                           "enable " + k(CUPTI_ACTIVITY_KIND_MEMSET),
                           "enable " + k(CUPTI_ACTIVITY_KIND_RUNTIME),
                           "enable " + k(CUPTI_ACTIVITY_KIND_DRIVER),
                           "enable " + k(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION),
                       }));
    EXPECT_EQ(r.enabled.size(), 8u);
    EXPECT_EQ(r.enabledNames,
              "DEVICE,CONTEXT,CONCURRENT_KERNEL,MEMCPY,MEMSET,RUNTIME,DRIVER,SYNCHRONIZATION");
    EXPECT_EQ(r.failures, "");
    EXPECT_EQ(r.problem, "");
}

TEST_F(CuptiSession, OneRefusedKindIsListedButNotAProblem) {
    g_failingKind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    testing::internal::CaptureStderr();
    const EnableResult r = enableActivityKinds(fakes(), "");
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(r.enabled.size(), 7u);
    EXPECT_EQ(r.failures, "SYNCHRONIZATION: CUPTI_ERROR_NOT_COMPATIBLE");
    EXPECT_EQ(r.problem, "");
    EXPECT_NE(err.find("strobe-inject: cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) "
                       "failed with 14 (CUPTI_ERROR_NOT_COMPATIBLE)"),
              std::string::npos)
        << err;
}

TEST_F(CuptiSession, AnotherSubscriberIsNamed) {
    g_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    testing::internal::CaptureStderr();
    const EnableResult r = enableActivityKinds(fakes(), "");
    testing::internal::GetCapturedStderr();
    EXPECT_TRUE(r.enabled.empty());
    EXPECT_EQ(r.problem, "CUPTI refused every activity kind "
                         "(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED): another CUPTI client "
                         "(Nsight Systems, the PyTorch profiler, ...) is attached to the "
                         "program; run it without that profiler");
    EXPECT_EQ(
        r.failures.rfind("DEVICE: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, CONTEXT: ", 0),
        0u)
        << r.failures;
}

TEST_F(CuptiSession, DriverNoteExplainsAGenericRefusal) {
    g_result = CUPTI_ERROR_NOT_INITIALIZED;
    testing::internal::CaptureStderr();
    const EnableResult r = enableActivityKinds(fakes(), "the NVIDIA driver is too old");
    testing::internal::GetCapturedStderr();
    EXPECT_EQ(r.problem, "CUPTI refused every activity kind (CUPTI_ERROR_NOT_INITIALIZED): the "
                         "NVIDIA driver is too old");
    EXPECT_NE(refusalAdvice(CUPTI_ERROR_UNKNOWN, "").find("no other profiler is attached"),
              std::string::npos);
}

TEST_F(CuptiSession, StopFlushesNormallyThenDisablesThenForces) {
    stopAndFlush(fakes(), {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_RUNTIME});
    EXPECT_EQ(g_calls, (std::vector<std::string>{
                           "flush 0",
                           "disable " + k(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                           "disable " + k(CUPTI_ACTIVITY_KIND_RUNTIME),
                           "flush " + std::to_string(int(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED)),
                       }));
}

TEST_F(CuptiSession, ContextDestructionEntriesFlush) {
    CUpti_CallbackData enter{};
    enter.callbackSite = CUPTI_API_ENTER;
    CUpti_CallbackData exit{};
    exit.callbackSite = CUPTI_API_EXIT;
    EXPECT_TRUE(destroysContext(CUPTI_CB_DOMAIN_RUNTIME_API,
                                CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, &enter));
    EXPECT_FALSE(destroysContext(CUPTI_CB_DOMAIN_RUNTIME_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, &exit));
    EXPECT_TRUE(destroysContext(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2,
                                &enter));
    EXPECT_TRUE(destroysContext(CUPTI_CB_DOMAIN_DRIVER_API,
                                CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2, &enter));
    EXPECT_FALSE(destroysContext(CUPTI_CB_DOMAIN_RUNTIME_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &enter));
    // The same number in the other domain is another call.
    EXPECT_FALSE(destroysContext(CUPTI_CB_DOMAIN_DRIVER_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, &enter));
    EXPECT_FALSE(destroysContext(CUPTI_CB_DOMAIN_RUNTIME_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020, nullptr));
}
