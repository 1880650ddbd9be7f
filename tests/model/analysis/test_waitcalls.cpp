// SPDX-License-Identifier: MIT
#include "model/analysis/waitcalls.h"

#include <gtest/gtest.h>

using namespace strobe;

TEST(WaitCalls, BlockingCallsAreWaits) {
    for (const char* name : {"pthread_cond_wait",
                             "pthread_cond_timedwait",
                             "futex",
                             "poll",
                             "ppoll",
                             "epoll_wait",
                             "select",
                             "pselect",
                             "read",
                             "recv",
                             "recvfrom",
                             "recvmsg",
                             "sem_wait",
                             "sem_timedwait",
                             "nanosleep",
                             "usleep",
                             "sched_yield",
                             "pthread_mutex_lock",
                             "waitpid",
                             "accept"})
        EXPECT_TRUE(isOsWaitCall(name)) << name;
}

TEST(WaitCalls, UnderscoresAndTime64SuffixAreIgnored) {
    EXPECT_TRUE(isOsWaitCall("__poll"));
    EXPECT_TRUE(isOsWaitCall("__pthread_cond_wait"));
    EXPECT_TRUE(isOsWaitCall("ppoll_time64"));
    EXPECT_TRUE(isOsWaitCall("__nanosleep_time64"));
}

TEST(WaitCalls, WorkingCallsAreNot) {
    for (const char* name : {"write", "ioctl", "open64", "mmap", "fopen", "fwrite", "pread",
                             "pthread_create", "pthread_cond_broadcast", "readlink", "reader",
                             "Read", "", "_", "_time64", "poll_time32"})
        EXPECT_FALSE(isOsWaitCall(name)) << name;
}
