// CLinux — the Linux calls Axon needs that Swift's Glibc module does not declare (GNU extensions).
#ifndef AXON_CLINUX_H
#define AXON_CLINUX_H

/// A non-blocking, close-on-exec eventfd with its counter at 0, or -1 with errno set (the ring's wake-ups).
int axon_eventfd(void);

/// Names the calling thread for the system (`/proc/self/task/*/comm`, `top -H`); at most 15 bytes are kept.
/// Returns 0, or an error number.
int axon_name_current_thread(const char *name);

/// Restricts thread `tid` (0: the calling thread) to the CPUs whose numbers are in `cpus` (`count` of them, each
/// below CPU_SETSIZE). Returns 0, or an error number.
int axon_set_thread_cpus(int tid, const int *cpus, int count);

/// Writes the CPUs the calling thread may run on into `cpus` (at most `capacity`); returns how many, or -1 with
/// errno set.
int axon_thread_cpus(int *cpus, int capacity);

/// Makes standard output line-buffered, whatever it is connected to: each line reaches a pipe (`axon demo | tee`)
/// as soon as it is printed. Call before anything is written to it.
void axon_line_buffer_stdout(void);

/// Bytes the process's heap has handed out and not had back (glibc `mallinfo2`: allocated chunks in every arena,
/// mmapped ones included). Unlike resident memory it falls once freed memory is freed, whether or not the allocator
/// returns it to the system — what a leak check wants.
unsigned long long axon_heap_bytes_in_use(void);

/// Tells the CPU the caller is in a spin-wait loop (x86 `pause`, Arm `yield`): the loop backs off the core's
/// pipeline and its sibling hyper-thread instead of hammering the line it polls.
static inline void axon_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
