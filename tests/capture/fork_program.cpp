// SPDX-License-Identifier: MIT
// A CPU-only NVTX user that forks a worker the way DataLoader workers and multiprocessing (fork)
// do, then stops it with SIGTERM. Run by test_launcher under strobe-capture: the worker must die
// of the signal, and the parent must go on, record "after worker" and exit 0.
//   exit 0  the worker died of SIGTERM
//   exit 3  the worker survived SIGTERM (it was killed with SIGKILL after 5 s)
//   exit 4  fork or waitpid failed

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

int main() {
    nvtxRangePushA("before fork");
    nvtxRangePop();

    int ready[2];
    if (::pipe(ready) != 0)
        return 4;
    const pid_t worker = ::fork();
    if (worker < 0)
        return 4;
    if (worker == 0) {
        nvtxRangePushA("in worker"); // not recorded: only the launched process is
        nvtxRangePop();
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(ready[1], &byte, 1);
        for (int i = 0; i < 300; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ::_exit(0);
    }
    char byte = 0;
    if (::read(ready[0], &byte, 1) != 1)
        return 4;
    ::kill(worker, SIGTERM);

    int status = 0;
    bool ended = false;
    for (int i = 0; i < 500 && !ended; ++i) {
        const pid_t r = ::waitpid(worker, &status, WNOHANG);
        if (r < 0)
            return 4;
        ended = r == worker;
        if (!ended)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!ended) {
        std::puts("fork_program: the worker survived SIGTERM");
        ::kill(worker, SIGKILL);
        ::waitpid(worker, &status, 0);
        return 3;
    }
    if (WIFSIGNALED(status))
        std::printf("fork_program: worker ended by signal %d\n", WTERMSIG(status));
    else
        std::printf("fork_program: worker exited with %d\n", WEXITSTATUS(status));

    nvtxRangePushA("after worker");
    nvtxRangePop();
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : 3;
}
