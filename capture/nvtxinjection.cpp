// SPDX-License-Identifier: MIT
// NVTX v3 injection: NVTX loads this library through NVTX_INJECTION64_PATH and calls
// InitializeInjectionNvtx2, which fills the CORE and CORE2 callback slots with the functions
// below. Push/pop ranges are matched per thread and domain, start/end ranges by id (they may end
// on another thread); finished ranges, marks and metadata rows go to the recorder as nsys
// NVTX_EVENTS rows.

#include "capture/recorder.h"

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <cstring>
#include <cwchar>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace strobe::capture {

namespace {

constexpr std::uint32_t kPushPop = 59, kStartEnd = 60, kMark = 34, kDomainCreate = 75,
                        kThreadName = 39, kCategoryName = 33;

struct Message {
    std::string text;
    bool registered = false;
    std::optional<std::uint32_t> color;
    std::optional<std::int32_t> category;
};

struct OpenRange {
    std::int64_t start = 0;
    Message message;
    std::uint64_t domain = 0;
    std::uint32_t tid = 0;
};

// Registered strings and domain names are few; ids are indexes + 1 so a handle is never null.
std::mutex g_mutex;
std::vector<std::string> g_strings;
std::uint64_t g_nextDomain = 1;
std::unordered_map<std::uint64_t, OpenRange> g_startEnd;
std::atomic<std::uint64_t> g_nextRangeId{1};

std::uint32_t currentTid() {
    thread_local const std::uint32_t tid = [] {
        const auto t = std::uint32_t(::syscall(SYS_gettid));
        if (Recorder* r = Recorder::get()) {
            char name[17] = {};
            ::prctl(PR_GET_NAME, name, 0, 0, 0);
            r->noteThread(t, name);
        }
        return t;
    }();
    return tid;
}

// Push/pop stacks of this thread, one per domain.
std::unordered_map<std::uint64_t, std::vector<OpenRange>>& stacks() {
    thread_local std::unordered_map<std::uint64_t, std::vector<OpenRange>> perDomain;
    return perDomain;
}

std::string fromWide(const wchar_t* s) {
    std::string out;
    if (!s)
        return out;
    for (; *s; ++s) {
        // NOLINTNEXTLINE(bugprone-signed-char-misuse): wchar_t is 32-bit UTF-32 here, not a char
        const auto c = std::uint32_t(*s);
        if (c < 0x80) {
            out += char(c);
        } else if (c < 0x800) {
            out += char(0xC0 | (c >> 6));
            out += char(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += char(0xE0 | (c >> 12));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        } else {
            out += char(0xF0 | (c >> 18));
            out += char(0x80 | ((c >> 12) & 0x3F));
            out += char(0x80 | ((c >> 6) & 0x3F));
            out += char(0x80 | (c & 0x3F));
        }
    }
    return out;
}

std::string registeredString(nvtxStringHandle_t handle) {
    const auto index = std::size_t(reinterpret_cast<std::uintptr_t>(handle));
    std::lock_guard lock(g_mutex);
    return index >= 1 && index <= g_strings.size() ? g_strings[index - 1] : std::string();
}

Message messageOf(const nvtxEventAttributes_t* attr) {
    Message m;
    if (!attr)
        return m;
    switch (attr->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        m.text = attr->message.ascii ? attr->message.ascii : "";
        break;
    case NVTX_MESSAGE_TYPE_UNICODE:
        m.text = fromWide(attr->message.unicode);
        break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        m.text = registeredString(attr->message.registered);
        m.registered = true;
        break;
    default:
        break;
    }
    if (attr->colorType == NVTX_COLOR_ARGB)
        m.color = attr->color;
    if (attr->category != 0)
        m.category = std::int32_t(attr->category);
    return m;
}

Message plainMessage(std::string text) {
    Message m;
    m.text = std::move(text);
    return m;
}

std::uint64_t domainId(nvtxDomainHandle_t domain) {
    return std::uint64_t(reinterpret_cast<std::uintptr_t>(domain));
}

void emit(std::uint32_t eventType, std::int64_t start, std::optional<std::int64_t> end,
          const Message& m, std::uint64_t domain, std::uint32_t tid,
          std::optional<std::uint32_t> endTid = std::nullopt,
          std::optional<std::uint64_t> rangeId = std::nullopt) {
    Recorder* r = Recorder::get();
    if (!r || !r->recording())
        return;
    nsys::NvtxRow row;
    row.start = start;
    row.end = end;
    row.eventType = eventType;
    row.tid = tid;
    row.endTid = endTid;
    row.text = m.text;
    row.registered = m.registered;
    row.domainId = domain;
    row.color = m.color;
    row.category = m.category;
    row.rangeId = rangeId;
    r->addNvtx(std::move(row));
}

int push(std::uint64_t domain, Message m) {
    auto& stack = stacks()[domain];
    stack.push_back({monotonicNs(), std::move(m), domain, currentTid()});
    return int(stack.size()) - 1;
}

int pop(std::uint64_t domain) {
    const std::int64_t now = monotonicNs();
    auto& stack = stacks()[domain];
    if (stack.empty())
        return -1;
    OpenRange open = std::move(stack.back());
    stack.pop_back();
    emit(kPushPop, open.start, now, open.message, domain, open.tid);
    return int(stack.size());
}

nvtxRangeId_t rangeStart(std::uint64_t domain, Message m) {
    const nvtxRangeId_t id = g_nextRangeId.fetch_add(1);
    OpenRange open{monotonicNs(), std::move(m), domain, currentTid()};
    std::lock_guard lock(g_mutex);
    g_startEnd.emplace(id, std::move(open));
    return id;
}

void rangeEnd(nvtxRangeId_t id) {
    const std::int64_t now = monotonicNs();
    OpenRange open;
    {
        std::lock_guard lock(g_mutex);
        auto it = g_startEnd.find(id);
        if (it == g_startEnd.end())
            return;
        open = std::move(it->second);
        g_startEnd.erase(it);
    }
    emit(kStartEnd, open.start, now, open.message, open.domain, open.tid, currentTid(), id);
}

void mark(std::uint64_t domain, const Message& m) {
    emit(kMark, monotonicNs(), std::nullopt, m, domain, currentTid());
}

void nameCategory(std::uint64_t domain, std::uint32_t category, std::string name) {
    Message m = plainMessage(std::move(name));
    m.category = std::int32_t(category);
    emit(kCategoryName, monotonicNs(), std::nullopt, m, domain, currentTid());
}

// ---- CORE callbacks ----------------------------------------------------------------------

void markEx(const nvtxEventAttributes_t* attr) {
    mark(0, messageOf(attr));
}
void markA(const char* text) {
    mark(0, plainMessage(text ? text : ""));
}
void markW(const wchar_t* text) {
    mark(0, plainMessage(fromWide(text)));
}
nvtxRangeId_t rangeStartEx(const nvtxEventAttributes_t* attr) {
    return rangeStart(0, messageOf(attr));
}
nvtxRangeId_t rangeStartA(const char* text) {
    return rangeStart(0, plainMessage(text ? text : ""));
}
nvtxRangeId_t rangeStartW(const wchar_t* text) {
    return rangeStart(0, plainMessage(fromWide(text)));
}
void rangeEndCb(nvtxRangeId_t id) {
    rangeEnd(id);
}
int rangePushEx(const nvtxEventAttributes_t* attr) {
    return push(0, messageOf(attr));
}
int rangePushA(const char* text) {
    return push(0, plainMessage(text ? text : ""));
}
int rangePushW(const wchar_t* text) {
    return push(0, plainMessage(fromWide(text)));
}
int rangePop() {
    return pop(0);
}
void nameCategoryA(uint32_t category, const char* name) {
    nameCategory(0, category, name ? name : "");
}
void nameCategoryW(uint32_t category, const wchar_t* name) {
    nameCategory(0, category, fromWide(name));
}
void nameOsThreadA(uint32_t threadId, const char* name) {
    emit(kThreadName, monotonicNs(), std::nullopt, plainMessage(name ? name : ""), 0, threadId);
}
void nameOsThreadW(uint32_t threadId, const wchar_t* name) {
    emit(kThreadName, monotonicNs(), std::nullopt, plainMessage(fromWide(name)), 0, threadId);
}

// ---- CORE2 (domain) callbacks -----------------------------------------------------------------

void domainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* attr) {
    mark(domainId(d), messageOf(attr));
}
nvtxRangeId_t domainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* attr) {
    return rangeStart(domainId(d), messageOf(attr));
}
void domainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id) {
    rangeEnd(id);
}
int domainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* attr) {
    return push(domainId(d), messageOf(attr));
}
int domainRangePop(nvtxDomainHandle_t d) {
    return pop(domainId(d));
}
void domainNameCategoryA(nvtxDomainHandle_t d, uint32_t category, const char* name) {
    nameCategory(domainId(d), category, name ? name : "");
}
void domainNameCategoryW(nvtxDomainHandle_t d, uint32_t category, const wchar_t* name) {
    nameCategory(domainId(d), category, fromWide(name));
}

nvtxStringHandle_t registerString(std::string text) {
    std::lock_guard lock(g_mutex);
    g_strings.push_back(std::move(text));
    return reinterpret_cast<nvtxStringHandle_t>(std::uintptr_t(g_strings.size()));
}
nvtxStringHandle_t domainRegisterStringA(nvtxDomainHandle_t, const char* text) {
    return registerString(text ? text : "");
}
nvtxStringHandle_t domainRegisterStringW(nvtxDomainHandle_t, const wchar_t* text) {
    return registerString(fromWide(text));
}

nvtxDomainHandle_t createDomain(std::string name) {
    std::uint64_t id = 0;
    {
        std::lock_guard lock(g_mutex);
        id = g_nextDomain++;
    }
    emit(kDomainCreate, monotonicNs(), std::nullopt, plainMessage(std::move(name)), id,
         currentTid());
    return reinterpret_cast<nvtxDomainHandle_t>(std::uintptr_t(id));
}
nvtxDomainHandle_t domainCreateA(const char* name) {
    return createDomain(name ? name : "");
}
nvtxDomainHandle_t domainCreateW(const wchar_t* name) {
    return createDomain(fromWide(name));
}
void domainDestroy(nvtxDomainHandle_t) {}
void initialize(const void*) {}

template <typename Fn> void install(NvtxFunctionTable table, unsigned size, unsigned id, Fn* fn) {
    if (id < size && table[id])
        *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

} // namespace

} // namespace strobe::capture

extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t getExportTable) {
    using namespace strobe::capture;
    // Everything that can fail is decided before Recorder::get(): returning 0 makes NVTX unload
    // this library, which must not happen once the recorder has registered its exit handler and
    // started its watcher thread (both run code of this library).
    const auto config = configFromEnvironment();
    if (!config || !config->traceNvtx || !getExportTable)
        return 0;
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(getExportTable(NVTX_ETID_CALLBACKS));
    if (!callbacks || callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
        !callbacks->GetModuleFunctionTable)
        return 0;
    NvtxFunctionTable core = nullptr, core2 = nullptr;
    unsigned coreSize = 0, core2Size = 0;
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &coreSize) || !core)
        return 0;
    // Without the domain module, the core ranges are still recorded.
    if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2Size))
        core2 = nullptr;
    if (!Recorder::get())
        return 0; // nothing was registered

    install(core, coreSize, NVTX_CBID_CORE_MarkEx, markEx);
    install(core, coreSize, NVTX_CBID_CORE_MarkA, markA);
    install(core, coreSize, NVTX_CBID_CORE_MarkW, markW);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartEx, rangeStartEx);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartA, rangeStartA);
    install(core, coreSize, NVTX_CBID_CORE_RangeStartW, rangeStartW);
    install(core, coreSize, NVTX_CBID_CORE_RangeEnd, rangeEndCb);
    install(core, coreSize, NVTX_CBID_CORE_RangePushEx, rangePushEx);
    install(core, coreSize, NVTX_CBID_CORE_RangePushA, rangePushA);
    install(core, coreSize, NVTX_CBID_CORE_RangePushW, rangePushW);
    install(core, coreSize, NVTX_CBID_CORE_RangePop, rangePop);
    install(core, coreSize, NVTX_CBID_CORE_NameCategoryA, nameCategoryA);
    install(core, coreSize, NVTX_CBID_CORE_NameCategoryW, nameCategoryW);
    install(core, coreSize, NVTX_CBID_CORE_NameOsThreadA, nameOsThreadA);
    install(core, coreSize, NVTX_CBID_CORE_NameOsThreadW, nameOsThreadW);
    if (!core2)
        return 1;
    install(core2, core2Size, NVTX_CBID_CORE2_DomainMarkEx, domainMarkEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeStartEx, domainRangeStartEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangeEnd, domainRangeEnd);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePushEx, domainRangePushEx);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRangePop, domainRangePop);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainNameCategoryA, domainNameCategoryA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainNameCategoryW, domainNameCategoryW);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringA, domainRegisterStringA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainRegisterStringW, domainRegisterStringW);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateA, domainCreateA);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainCreateW, domainCreateW);
    install(core2, core2Size, NVTX_CBID_CORE2_DomainDestroy, domainDestroy);
    install(core2, core2Size, NVTX_CBID_CORE2_Initialize, initialize);
    return 1;
}
