#ifndef CFFTW_SHIM_H
#define CFFTW_SHIM_H
// <complex.h> must not be included before fftw3.h: fftw_complex would become `double _Complex`,
// which Swift cannot import. Without it fftw_complex is `double[2]`, imported as `(Double, Double)`.
#include <fftw3.h>
#endif
