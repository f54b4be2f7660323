#ifndef CLAPACKE_SHIM_H
#define CLAPACKE_SHIM_H
// Complex types as plain structs so the z*/c* functions import (C99 `double _Complex` does not).
#define LAPACK_COMPLEX_STRUCTURE 1
#include <lapacke.h>
// `lapack_int` is a #define, and Swift does not import type-like macros: re-export it as a typedef.
typedef lapack_int clapack_int;
#endif
