// CLinux — the Linux calls Axon needs that Swift's Glibc module does not declare (GNU extensions).
#ifndef AXON_CLINUX_H
#define AXON_CLINUX_H

/// A non-blocking, close-on-exec eventfd with its counter at 0, or -1 with errno set (the ring's wake-ups).
int axon_eventfd(void);

/// Names the calling thread for the system (`/proc/self/task/*/comm`, `top -H`); at most 15 bytes are kept.
/// Returns 0, or an error number.
int axon_name_current_thread(const char *name);

#endif
