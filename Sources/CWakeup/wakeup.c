// CWakeup — eventfd(2) for the SPSC ring's consumer wake-ups.
#include "CWakeup.h"

#include <sys/eventfd.h>

int axon_wakeup_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
