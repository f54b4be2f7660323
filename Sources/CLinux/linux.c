// CLinux — eventfd(2) and pthread_setname_np(3), which Swift's Glibc module does not declare.
#define _GNU_SOURCE
#include "CLinux.h"

#include <pthread.h>
#include <string.h>
#include <sys/eventfd.h>

int axon_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int axon_name_current_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    return pthread_setname_np(pthread_self(), cut);
}
