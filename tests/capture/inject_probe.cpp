// SPDX-License-Identifier: MIT
// Calls libstrobe-inject's entry points the way the CUDA driver and NVTX do, so that
// test_launcher exercises them on a machine without a GPU. Run under strobe-capture. Modes:
//   cuda-init           like cuInit: dlopen(CUDA_INJECTION64_PATH) and InitializeInjection();
//                       then one NVTX range, so that a trace is written; exits 0
//   nvtx-core2-missing  like NVTX, with an export table whose domain (CORE2) module is missing:
//                       prints what InitializeInjectionNvtx2 returned, unloads the library when
//                       it returned 0 (as NVTX does), else records a mark; exits 0

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace {

NvtxFunctionPointer g_core[NVTX_CBID_CORE_SIZE] = {};
NvtxFunctionPointer* g_coreSlots[NVTX_CBID_CORE_SIZE] = {};

int NVTX_API moduleTable(NvtxCallbackModule module, NvtxFunctionTable* table, unsigned* size) {
    if (module != NVTX_CB_MODULE_CORE)
        return 0; // this "NVTX" has no domain module
    for (unsigned i = 0; i < NVTX_CBID_CORE_SIZE; ++i)
        g_coreSlots[i] = &g_core[i];
    *table = g_coreSlots;
    *size = NVTX_CBID_CORE_SIZE;
    return 1;
}

const NvtxExportTableCallbacks kCallbacks = {sizeof(NvtxExportTableCallbacks), moduleTable};

const void* NVTX_API exportTable(uint32_t id) {
    return id == NVTX_ETID_CALLBACKS ? &kCallbacks : nullptr;
}

void* openInjection(const char* variable) {
    const char* path = std::getenv(variable);
    void* lib = path ? ::dlopen(path, RTLD_NOW) : nullptr;
    if (!lib)
        std::fprintf(stderr, "inject_probe: cannot load %s: %s\n", variable,
                     path ? ::dlerror() : "unset");
    return lib;
}

int cudaInit() {
    void* lib = openInjection("CUDA_INJECTION64_PATH");
    if (!lib)
        return 2;
    using Init = int (*)();
    auto init = reinterpret_cast<Init>(::dlsym(lib, "InitializeInjection"));
    if (!init)
        return 2;
    std::printf("inject_probe: InitializeInjection returned %d\n", init());
    void* nvtx = openInjection("NVTX_INJECTION64_PATH");
    using NvtxInit = int (*)(NvtxGetExportTableFunc_t);
    auto nvtxInit =
        nvtx ? reinterpret_cast<NvtxInit>(::dlsym(nvtx, "InitializeInjectionNvtx2")) : nullptr;
    if (!nvtxInit || nvtxInit(exportTable) != 1)
        return 2;
    using MarkA = void (*)(const char*);
    reinterpret_cast<MarkA>(g_core[NVTX_CBID_CORE_MarkA])("after cuda init");
    return 0;
}

int nvtxCore2Missing() {
    void* lib = openInjection("NVTX_INJECTION64_PATH");
    if (!lib)
        return 2;
    using NvtxInit = int (*)(NvtxGetExportTableFunc_t);
    auto init = reinterpret_cast<NvtxInit>(::dlsym(lib, "InitializeInjectionNvtx2"));
    if (!init)
        return 2;
    const int result = init(exportTable);
    std::printf("inject_probe: InitializeInjectionNvtx2 returned %d\n", result);
    std::fflush(stdout);
    if (result == 0) {
        ::dlclose(lib); // what NVTX does with a library that declined
        return 0;
    }
    if (!g_core[NVTX_CBID_CORE_MarkA])
        return 3;
    using MarkA = void (*)(const char*);
    reinterpret_cast<MarkA>(g_core[NVTX_CBID_CORE_MarkA])("core only");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "cuda-init") == 0)
        return cudaInit();
    if (std::strcmp(mode, "nvtx-core2-missing") == 0)
        return nvtxCore2Missing();
    std::fprintf(stderr, "inject_probe: unknown mode '%s'\n", mode);
    return 2;
}
