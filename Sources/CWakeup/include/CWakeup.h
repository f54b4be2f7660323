// CWakeup — the one Linux call the ring's wake-ups need that Swift's Glibc module does not declare.
#ifndef AXON_CWAKEUP_H
#define AXON_CWAKEUP_H

/// A non-blocking, close-on-exec eventfd with its counter at 0, or -1 with errno set.
int axon_wakeup_eventfd(void);

#endif
