// CAllocationCounter — counts heap allocations of the whole process, for `axon bench`'s allocations-per-hop.
#ifndef AXON_ALLOCATION_COUNTER_H
#define AXON_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by any thread of the
/// process since it started. Relaxed: a statistic read around a measured region, not a synchronisation point.
uint64_t axon_allocation_count(void);
/// Heap allocations made by the calling thread since it started: unaffected by other threads, so a test can check
/// that a region allocates nothing while other tests run.
uint64_t axon_thread_allocation_count(void);

/// 1 when this process's allocations are counted; 0 in a build where the interposer is compiled out (sanitizer
/// builds, whose runtimes own malloc).
int axon_allocation_counting_enabled(void);

#endif
