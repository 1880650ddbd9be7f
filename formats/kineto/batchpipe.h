// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace strobe::kineto {

// Hands batches from a producer (the calling thread) to a consumer thread it starts, through a
// fixed set of buffers: the memory in flight stays bounded whatever the input's size, and the
// producer waits when the consumer falls behind. Batches are consumed in the order handed.
// An exception in the consumer stops it; the producer gets it rethrown at its next hand() or at
// finish(). Destroying the pipe without finish() (the producer failed) stops the consumer
// after its current batch and joins it.
//
// With Consumer::Inline there is no thread: hand() and finish() consume the batch on the
// producer's thread before they return (one buffer; the consumer's exception comes out of them).
// For a caller that keeps every core busy already (a job's files read side by side), where a
// second thread per file only adds the hand-off.
template <typename Batch> class BatchPipe {
public:
    using Consume = std::function<void(Batch&)>;
    enum class Consumer { Thread, Inline };

    BatchPipe(std::size_t buffers, Consume consume, Consumer consumer = Consumer::Thread)
        : m_buffers(consumer == Consumer::Inline ? 1
                    : buffers < 2                ? 2
                                                 : buffers)
        , m_consume(std::move(consume))
        , m_inline(consumer == Consumer::Inline) {
        if (m_inline)
            return;
        for (std::size_t i = 1; i < m_buffers.size(); ++i)
            m_free.push_back(i);
        m_thread = std::thread([this] { run(); });
    }
    ~BatchPipe() {
        if (m_inline)
            return;
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }
    BatchPipe(const BatchPipe&) = delete;
    BatchPipe& operator=(const BatchPipe&) = delete;

    // The batch the producer fills; after hand() a different, emptied-by-the-consumer one.
    Batch& current() { return m_buffers[m_current]; }

    // Queues current() for the consumer and makes another buffer current, waiting for one to
    // be free. Rethrows the consumer's exception.
    void hand() {
        if (m_inline) {
            ++m_handed;
            m_consume(m_buffers[m_current]);
            ++m_consumed;
            return;
        }
        std::unique_lock lock(m_mutex);
        rethrowFailure();
        m_full.push_back(m_current);
        ++m_handed;
        m_wake.notify_all();
        m_wake.wait(lock, [this] { return !m_free.empty() || m_failure; });
        rethrowFailure();
        m_current = m_free.front();
        m_free.pop_front();
    }

    // How many batches hand() has queued so far; waitConsumed(n) waits for the first n.
    std::size_t handed() const { return m_handed; }

    // Waits until the consumer has consumed the first `n` batches handed: the memory they point
    // into may then be reused. Rethrows the consumer's exception.
    void waitConsumed(std::size_t n) {
        if (m_inline)
            return; // consumed when handed
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [this, n] { return m_consumed >= n || m_failure || m_done; });
        rethrowFailure();
    }

    // Queues current(), waits until the consumer has consumed every batch, and stops it.
    // Rethrows the consumer's exception. Nothing may be handed afterwards.
    void finish() {
        if (m_inline) {
            m_consume(m_buffers[m_current]);
            m_done = true;
            return;
        }
        std::unique_lock lock(m_mutex);
        rethrowFailure();
        m_full.push_back(m_current);
        m_closed = true;
        m_wake.notify_all();
        m_wake.wait(lock, [this] { return m_done; });
        rethrowFailure();
    }

private:
    void rethrowFailure() {
        if (m_failure)
            std::rethrow_exception(m_failure);
    }

    void run() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_stop || !m_full.empty() || m_closed; });
            if (m_stop || m_full.empty())
                break; // stopped, or closed and drained
            const std::size_t index = m_full.front();
            m_full.pop_front();
            lock.unlock();
            std::exception_ptr failure;
            try {
                m_consume(m_buffers[index]);
            } catch (...) {
                failure = std::current_exception();
            }
            lock.lock();
            if (failure) {
                m_failure = failure;
                break;
            }
            m_free.push_back(index);
            ++m_consumed;
            m_wake.notify_all();
        }
        m_done = true;
        m_wake.notify_all();
    }

    std::vector<Batch> m_buffers;
    Consume m_consume;
    std::size_t m_current = 0;
    std::size_t m_handed = 0, m_consumed = 0; // m_handed: the producer's; m_consumed: guarded
    std::deque<std::size_t> m_full, m_free;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_inline = false;
    bool m_stop = false, m_closed = false, m_done = false;
    std::exception_ptr m_failure;
    std::thread m_thread;
};

} // namespace strobe::kineto
