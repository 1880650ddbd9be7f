// SPDX-License-Identifier: MIT
// CPU-only NVTX user for test_launcher. Modes (argv[1]):
//   ranges    nested push/pop, a start/end range ended on another thread, a mark, a domain with
//             a registered string, colours, a named worker thread; exits 0
//   none      makes no NVTX call; exits 0
//   exit3     one range, exits 3
//   sigterm   one range, then kills itself with SIGTERM
//   duration  range "early", sleeps 1.5 s, range "late"; exits 0
//   abort     range "before abort", then abort()
//   sigkill   range "before kill", then kills itself with SIGKILL

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace {

void rangesMode() {
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    nvtxRangePop();
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = 0xFF112233;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "colored";
    nvtxRangePushEx(&attr);
    nvtxRangePop();
    nvtxRangePushW(L"wide\u00e9");
    nvtxRangePop();
    nvtxRangePop(); // outer

    const nvtxRangeId_t id = nvtxRangeStartA("crossing");
    std::thread worker([id] {
        pthread_setname_np(pthread_self(), "nvtx-worker");
        nvtxRangePushA("worker range");
        nvtxRangePop();
        nvtxRangeEnd(id);
    });
    worker.join();

    nvtxMarkA("a mark");
    nvtxDomainHandle_t domain = nvtxDomainCreateA("MyDomain");
    nvtxStringHandle_t registered = nvtxDomainRegisterStringA(domain, "registered name");
    nvtxEventAttributes_t dattr = {};
    dattr.version = NVTX_VERSION;
    dattr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    dattr.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    dattr.message.registered = registered;
    nvtxDomainRangePushEx(domain, &dattr);
    nvtxDomainRangePop(domain);
}

void oneRange(const char* name) {
    nvtxRangePushA(name);
    nvtxRangePop();
}

} // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "ranges";
    if (std::strcmp(mode, "ranges") == 0) {
        rangesMode();
    } else if (std::strcmp(mode, "none") == 0) {
        std::puts("no NVTX here");
    } else if (std::strcmp(mode, "exit3") == 0) {
        oneRange("failing");
        return 3;
    } else if (std::strcmp(mode, "sigterm") == 0) {
        oneRange("before signal");
        std::raise(SIGTERM);
        std::this_thread::sleep_for(std::chrono::seconds(5)); // the signal ends us first
        return 0;
    } else if (std::strcmp(mode, "abort") == 0) {
        oneRange("before abort");
        std::abort();
    } else if (std::strcmp(mode, "sigkill") == 0) {
        oneRange("before kill");
        std::raise(SIGKILL);
    } else if (std::strcmp(mode, "duration") == 0) {
        oneRange("early");
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        oneRange("late");
    } else {
        std::fprintf(stderr, "nvtx_program: unknown mode '%s'\n", mode);
        return 2;
    }
    return 0;
}
