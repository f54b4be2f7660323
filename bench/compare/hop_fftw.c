// The floor: one engine hop done by a plain C program with FFTW, the same library Axon's engine calls.
//
// One hop = for every channel, take the last `window` samples of a frame-major recording (strided copy), remove
// the mean, apply a Hann window (0.5 − 0.5·cos(2πn/N)), r2c FFT (FFTW_MEASURE plan), one-sided power spectrum,
// dominant frequency in 3–7, 7–13 and 14–24 Hz (largest bin, log-parabolic refinement, clamped to the band).
// The signal is axon bench's: ten seconds from the same formula and seed, replayed in a loop.
//
// Usage: hop_fftw CHANNELS RATE SECONDS REPETITIONS   → one JSON object on stdout.
#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(double), compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static const double band_edges[3][2] = {{3, 7}, {7, 13}, {14, 24}};

typedef struct {
    int channels, rate, window, hop, frames, bins;
    double *signal;   // frames × channels, frame-major
    double *input;    // fftw_malloc'd, window
    fftw_complex *output;
    double *taper, *power;
    int band_low[3], band_high[3];
    fftw_plan plan;
    double dominant[3];
} Hop;

static double refine(const Hop *h, int k, double lo, double hi) {
    double f = (double)k;
    if (k > 0 && k < h->bins - 1 && h->power[k - 1] > 0 && h->power[k] > 0 && h->power[k + 1] > 0) {
        double a = log(h->power[k - 1]), b = log(h->power[k]), c = log(h->power[k + 1]);
        double d = a - 2 * b + c;
        if (d < 0) {
            double offset = 0.5 * (a - c) / d;
            if (offset > 1) offset = 1;
            if (offset < -1) offset = -1;
            f += offset;
        }
    }
    f *= (double)h->rate / h->window;
    return f < lo ? lo : f > hi ? hi : f;
}

// One hop ending at running sample `end` (exclusive); returns a checksum of the dominant frequencies.
static double hop(Hop *h, long end) {
    double checksum = 0;
    for (int ch = 0; ch < h->channels; ch++) {
        // The window's frames, in at most two runs (the loop may wrap inside it): no division per sample.
        double mean = 0;
        long first = (end - h->window) % h->frames;
        int head = h->frames - first < h->window ? (int)(h->frames - first) : h->window;
        const double *source = h->signal + first * h->channels + ch;
        for (int n = 0; n < head; n++) {
            double v = source[(long)n * h->channels];
            h->input[n] = v;
            mean += v;
        }
        for (int n = head; n < h->window; n++) {
            double v = h->signal[(long)(n - head) * h->channels + ch];
            h->input[n] = v;
            mean += v;
        }
        mean /= h->window;
        for (int n = 0; n < h->window; n++) h->input[n] = (h->input[n] - mean) * h->taper[n];
        fftw_execute(h->plan);
        for (int k = 0; k < h->bins; k++) {
            double re = h->output[k][0], im = h->output[k][1];
            h->power[k] = re * re + im * im;
        }
        for (int b = 0; b < 3; b++) {
            int best = h->band_low[b];
            for (int k = h->band_low[b] + 1; k <= h->band_high[b]; k++)
                if (h->power[k] > h->power[best]) best = k;
            h->dominant[b] = refine(h, best, band_edges[b][0], band_edges[b][1]);
            checksum += h->dominant[b];
        }
    }
    return checksum;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s CHANNELS RATE SECONDS REPETITIONS\n", argv[0]);
        return 2;
    }
    Hop h = {0};
    h.channels = atoi(argv[1]);
    h.rate = atoi(argv[2]);
    int seconds = atoi(argv[3]), repetitions = atoi(argv[4]);
    if (h.channels < 1 || h.rate < 32 || seconds < 1 || repetitions < 1) return 2;
    h.window = 1;
    while (h.window < h.rate) h.window *= 2;
    h.hop = h.rate;
    h.frames = h.rate * 10;
    h.bins = h.window / 2 + 1;
    h.signal = malloc(sizeof(double) * (size_t)h.frames * (size_t)h.channels);
    h.taper = malloc(sizeof(double) * (size_t)h.window);
    h.power = malloc(sizeof(double) * (size_t)h.bins);
    h.input = fftw_malloc(sizeof(double) * (size_t)h.window);
    h.output = fftw_malloc(sizeof(fftw_complex) * (size_t)h.bins);
    if (!h.signal || !h.taper || !h.power || !h.input || !h.output) return 1;
    h.plan = fftw_plan_dft_r2c_1d(h.window, h.input, h.output, FFTW_MEASURE);
    if (!h.plan) return 1;

    // axon bench's signal: the same formula, the same 64-bit LCG and seed.
    uint64_t state = 12345;
    for (int frame = 0; frame < h.frames; frame++) {
        double t = (double)frame / h.rate;
        for (int ch = 0; ch < h.channels; ch++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            double noise = (double)(state >> 11) * 0x1p-53 - 0.5;
            h.signal[frame * h.channels + ch] = 20 * sin(2 * M_PI * 10.3 * t + ch) + 6 * sin(2 * M_PI * 5.1 * t) +
                                                4 * sin(2 * M_PI * 19.7 * t) + 8 * noise + 1000;
        }
    }
    for (int n = 0; n < h.window; n++) h.taper[n] = 0.5 - 0.5 * cos(2 * M_PI * n / h.window);
    double bin_width = (double)h.rate / h.window;
    for (int b = 0; b < 3; b++) {
        h.band_low[b] = (int)ceil(band_edges[b][0] / bin_width);
        h.band_high[b] = (int)floor(band_edges[b][1] / bin_width);
    }

    double checksum = 0;
    long sample = h.window;  // the first hop ends when the first window is full
    for (int i = 0; i < 10; i++, sample += h.hop) checksum += hop(&h, sample);  // warm up
    double *times = malloc(sizeof(double) * (size_t)repetitions);
    for (int r = 0; r < repetitions; r++) {
        double start = now();
        for (int i = 0; i < seconds; i++, sample += h.hop) checksum += hop(&h, sample);
        times[r] = now() - start;
    }
    double per_run = median(times, repetitions);

    // The bare transform, as FFT.r2c256 / axon bench time it.
    int transforms = 200000;
    double *fft_times = malloc(sizeof(double) * 5);
    for (int r = 0; r < 5; r++) {
        double start = now();
        for (int i = 0; i < transforms; i++) fftw_execute(h.plan);
        fft_times[r] = (now() - start) / transforms;
    }
    double fft = median(fft_times, 5);

    // Dominant frequencies of the last channel at the tenth hop, a check that the work was the real one.
    double check = hop(&h, h.window + 9L * h.hop);
    printf("{\"system\": \"C + FFTW\", \"channels\": %d, \"sampleRate\": %d, \"deviceSeconds\": %d, "
           "\"repetitions\": %d, \"hopNanoseconds\": %.1f, \"deviceSecondsPerSecond\": %.1f, "
           "\"fftNanoseconds\": %.2f, \"dominantFrequencies\": [%.3f, %.3f, %.3f], \"checksum\": %.6g}\n",
           h.channels, h.rate, seconds, repetitions, per_run / seconds * 1e9, seconds / per_run, fft * 1e9,
           h.dominant[0], h.dominant[1], h.dominant[2], checksum + check);
    fftw_destroy_plan(h.plan);
    return 0;
}
