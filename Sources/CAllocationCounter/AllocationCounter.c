// CAllocationCounter — interposes the C allocator's entry points, counts each call with a relaxed atomic and
// forwards it to glibc's own implementation (`__libc_malloc` & co., exported by glibc for exactly this use), so
// the process allocates exactly as it would without the counter.
//
// Linked into the programs that need the count (the `axon` executable through AxonBench, and its tests): the
// dynamic linker binds every shared library's malloc calls (Swift runtime, Foundation, FFTW) to these
// definitions, so allocations from any thread and any library are counted. Sanitizer builds keep their
// runtime's allocator: the interposer is compiled out and `axon_allocation_counting_enabled` returns 0.
#include "AllocationCounter.h"

#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define AXON_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AXON_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(AXON_SANITIZED)

#include <errno.h>

static _Atomic uint64_t allocations = 0;
// The calling thread's own count. Initial-exec TLS: the counter lives in the static TLS block set up with each
// thread, so reaching it never calls into the allocator (the general-dynamic model may allocate lazily).
static _Thread_local uint64_t thread_allocations __attribute__((tls_model("initial-exec"))) = 0;

// glibc's implementations, which these wrappers forward to.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void count_one(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    thread_allocations += 1;
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: a power of two that is a multiple of sizeof(void *), else EINVAL without allocating.
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t axon_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }

uint64_t axon_thread_allocation_count(void) { return thread_allocations; }

int axon_allocation_counting_enabled(void) { return 1; }

#else

uint64_t axon_allocation_count(void) { return 0; }

uint64_t axon_thread_allocation_count(void) { return 0; }

int axon_allocation_counting_enabled(void) { return 0; }

#endif
