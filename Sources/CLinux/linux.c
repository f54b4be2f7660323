// CLinux — eventfd(2), pthread_setname_np(3), sched_{get,set}affinity(2) and mallinfo2(3), which Swift's Glibc
// module does not declare, and setvbuf(3) on stdout, which Swift 6 cannot name (a mutable C global).
#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>

int axon_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void axon_line_buffer_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

unsigned long long axon_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (unsigned long long)info.uordblks + (unsigned long long)info.hblkhd;
}

int axon_name_current_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    return pthread_setname_np(pthread_self(), cut);
}

int axon_set_thread_cpus(int tid, const int *cpus, int count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE) return EINVAL;
        CPU_SET(cpus[i], &set);
    }
    return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : errno;
}

int axon_thread_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}
