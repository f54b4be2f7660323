#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT (SQLite copies a bound string before the bind call returns): the macro casts -1 to a function
/// pointer, which Swift cannot import.
static inline sqlite3_destructor_type axon_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
