// SPDX-License-Identifier: MIT
// Writing the CPU side: CUDA API calls, NVTX events, OS runtime calls.
#include "formats/nsys/writer/nsyswriterimpl.h"

namespace strobe::nsys {

using writer::Table;

void Writer::addApiCall(const ApiCallRow& r) {
    using S = schema::Runtime;
    Table& t = d->runtime;
    if (!d->begin(t))
        return;
    t.i64(S::start, r.start);
    t.i64(S::end, r.end);
    t.i64(S::eventClass, r.eventClass);
    t.i64(S::globalTid, globalTid(r.pid, r.tid));
    t.i64(S::correlationId, r.correlationId);
    t.i64(S::nameId, d->intern(r.name));
    t.i64(S::returnValue, r.returnValue);
    d->finish(t);
}

void Writer::addNvtx(const NvtxRow& r) {
    using S = schema::Nvtx;
    Table& t = d->nvtx;
    if (!d->begin(t))
        return;
    t.i64(S::start, r.start);
    t.opt(S::end, r.end);
    t.i64(S::eventType, r.eventType);
    t.opt(S::rangeId, r.rangeId);
    t.opt(S::category, r.category);
    t.opt(S::color, r.color);
    if (r.registered) {
        t.null(S::text);
        t.i64(S::textId, d->intern(r.text));
    } else {
        t.text(S::text, r.text);
        t.null(S::textId);
    }
    t.i64(S::globalTid, globalTid(r.pid, r.tid));
    if (r.endTid)
        t.i64(S::endGlobalTid, globalTid(r.pid, *r.endTid));
    else
        t.null(S::endGlobalTid);
    // nsys writes 0, not NULL, for the default domain.
    t.i64(S::domainId, std::int64_t(r.domainId.value_or(0)));
    d->finish(t);
}

void Writer::addOsrt(const OsrtRow& r) {
    using S = schema::Osrt;
    Table& t = d->osrt;
    if (!d->begin(t))
        return;
    t.i64(S::start, r.start);
    t.i64(S::end, r.end);
    t.i64(S::eventClass, 27); // OS runtime call
    t.i64(S::globalTid, globalTid(r.pid, r.tid));
    t.i64(S::nameId, d->intern(r.name));
    t.i64(S::returnValue, r.returnValue);
    t.i64(S::nestingLevel, r.nestingLevel);
    t.i64(S::callchainId, 0);
    t.i64(S::argumentsId, 0);
    d->finish(t);
}

} // namespace strobe::nsys
