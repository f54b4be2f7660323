// The ring's peers: boost::lockfree::spsc_queue and moodycamel::ReaderWriterQueue moving the same frames between
// the same two threads as axon bench's ring measurement.
//
// A frame is 5 header lanes + CHANNELS doubles (72 bytes for 4 channels), as a pipeline ring slot holds it; the
// queues hold 8192 frames. A run pushes N frames from the main thread and ends when the consumer thread has
// popped them all. Modes: one frame per push/pop (both queues), and 256 frames per push/pop (boost's array
// push/pop; moodycamel's queue has no bulk operations). Busy-waiting on both sides, yielding after 4096
// fruitless rounds, as axon bench does. With two CPUs or more the producer runs on CPU 0 and the consumer on
// CPU 1, as axon bench places them: left to the scheduler, both threads sometimes share one CPU and the queue
// fills and drains without crossing cores, which makes one run several times faster than the next.
//
// Usage: ring_queues CHANNELS FRAMES REPETITIONS   → one JSON object per queue and mode on stdout.
#include <algorithm>
#include <atomic>
#include <boost/lockfree/spsc_queue.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <readerwriterqueue/readerwriterqueue.h>
#include <pthread.h>
#include <sched.h>
#include <thread>
#include <vector>

namespace {

constexpr int kCapacity = 8192;
constexpr int kBatch = 256;

// A pipeline ring slot: 5 header lanes + the channels, W doubles in all.
template <int W>
struct Frame {
    double lanes[W];
};

struct SpinWait {
    int rounds = 0;
    void wait() {
        if (++rounds > 4096) sched_yield();
    }
    void reset() { rounds = 0; }
};

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Restricts the calling thread to `cpu` when the machine has more than one (nothing otherwise).
void pin(int cpu) {
    if (std::thread::hardware_concurrency() < 2) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

// Pushes `frames` frames from this thread; a consumer thread pops until it has them all. Returns seconds.
template <typename Push, typename Pop>
double run(long frames, Push push, Pop pop) {
    std::atomic<bool> done{false};
    double sum = 0;
    pin(0);
    std::thread consumer([&] {
        pin(1);
        SpinWait spin;
        long count = 0;
        while (count < frames) {
            long got = pop(sum);
            if (got > 0) {
                count += got;
                spin.reset();
            } else {
                spin.wait();
            }
        }
        done.store(true, std::memory_order_release);
    });
    double start = now();
    push(frames);
    SpinWait spin;
    while (!done.load(std::memory_order_acquire)) spin.wait();
    double elapsed = now() - start;
    consumer.join();
    if (sum == -1) std::printf(" ");  // keeps the consumer's reads observable
    return elapsed;
}

void report(const char *system, const char *mode, int batch, int channels, long frames,
            const std::vector<double> &times) {
    std::printf("{\"system\": \"%s\", \"mode\": \"%s\", \"batch\": %d, \"channels\": %d, \"frames\": %ld, "
                "\"repetitions\": %zu, \"itemsPerSecond\": %.1f}\n",
                system, mode, batch, channels, frames, times.size(), frames / median(times));
    std::fflush(stdout);
}

template <int W>
void measure(int channels, long frames, int repetitions) {
    using F = Frame<W>;
    std::vector<F> staging(kBatch);
    for (int i = 0; i < kBatch; i++)
        for (int lane = 0; lane < W; lane++) staging[i].lanes[lane] = i + lane;

    {  // boost, one frame per push and pop
        std::vector<double> times;
        for (int r = 0; r < repetitions + 1; r++) {
            boost::lockfree::spsc_queue<F> queue(kCapacity);  // run-time capacity: storage on the heap
            double t = run(
                frames,
                [&](long n) {
                    for (long i = 0; i < n; i++) {
                        SpinWait spin;
                        while (!queue.push(staging[0])) spin.wait();
                    }
                },
                [&](double &sum) -> long {
                    F frame;
                    if (!queue.pop(frame)) return 0;
                    sum += frame.lanes[0];
                    return 1;
                });
            if (r > 0) times.push_back(t);  // the first run warms up
        }
        report("boost::lockfree::spsc_queue", "single", 1, channels, frames, times);
    }
    {  // boost, 256 frames per push and pop (array overloads)
        std::vector<double> times;
        for (int r = 0; r < repetitions + 1; r++) {
            boost::lockfree::spsc_queue<F> queue(kCapacity);  // run-time capacity: storage on the heap
            std::vector<F> buffer(kBatch);
            double t = run(
                frames,
                [&](long n) {
                    for (long i = 0; i < n; i += kBatch) {
                        size_t done = 0;
                        SpinWait spin;
                        while (done < kBatch) {
                            size_t accepted = queue.push(staging.data() + done, kBatch - done);
                            if (accepted > 0) done += accepted; else spin.wait();
                        }
                    }
                },
                [&](double &sum) -> long {
                    size_t got = queue.pop(buffer.data(), kBatch);
                    if (got > 0) sum += buffer[0].lanes[0];
                    return (long)got;
                });
            if (r > 0) times.push_back(t);
        }
        report("boost::lockfree::spsc_queue", "batch", kBatch, channels, frames, times);
    }
    {  // moodycamel, one frame per enqueue and dequeue (it has no bulk operations)
        std::vector<double> times;
        for (int r = 0; r < repetitions + 1; r++) {
            moodycamel::ReaderWriterQueue<F> queue(kCapacity);
            double t = run(
                frames,
                [&](long n) {
                    for (long i = 0; i < n; i++) {
                        SpinWait spin;
                        while (!queue.try_enqueue(staging[0])) spin.wait();  // bounded: never allocates
                    }
                },
                [&](double &sum) -> long {
                    F frame;
                    if (!queue.try_dequeue(frame)) return 0;
                    sum += frame.lanes[0];
                    return 1;
                });
            if (r > 0) times.push_back(t);
        }
        report("moodycamel::ReaderWriterQueue", "single", 1, channels, frames, times);
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s CHANNELS FRAMES REPETITIONS\n", argv[0]);
        return 2;
    }
    int channels = std::atoi(argv[1]);
    long frames = std::atol(argv[2]);
    int repetitions = std::atoi(argv[3]);
    if (frames < kBatch || repetitions < 1) return 2;
    frames -= frames % kBatch;
    // The element size is a compile-time property of these queues: one instantiation per channel count measured.
    switch (channels) {
        case 4: measure<5 + 4>(channels, frames, repetitions); break;
        case 8: measure<5 + 8>(channels, frames, repetitions); break;
        case 32: measure<5 + 32>(channels, frames, repetitions); break;
        case 64: measure<5 + 64>(channels, frames, repetitions); break;
        default: std::fprintf(stderr, "channels: 4, 8, 32 or 64\n"); return 2;
    }
    return 0;
}
