#ifndef CEDFLIB_SHIM_H
#define CEDFLIB_SHIM_H
// EDFlib (Teunis van Beelen), Debian package libedf-dev; no pkg-config file, so the module map links `edf`.
// EDFlib keeps its open files in a process-wide table without a lock: AxonRecording serialises every call.
#include <edflib.h>
#endif
