/*
 * analyze.c — a recording through Axon's EEG engine from C: the first channel's dominant frequencies per window,
 * then the activity zones, with the engine configured as `axon analyze` configures it.
 *
 * Build (from the repository root; docs/c-api.md has the details):
 *   swift build -c release --product AxonC
 *   gcc -std=c99 -Wall -Werror -I include examples/c/analyze.c -o analyze \
 *       -L .build/release -lAxonC -Wl,-rpath,"$PWD/.build/release"
 *   ./analyze datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt
 *
 * Output: a header line; one line per window of the first channel: "window", its number, the index of its last
 * sample, the seconds from the first sample to the window's end, then the dominant frequency of each band in Hz
 * ("nan" when the band has no peak of its own); and one line per indicator: "zone", its number, the seconds to the
 * end of its period, the zone, its percent. Times are counted as `axon analyze` counts them; numbers have 17
 * significant digits, so they read back exactly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "axon.h"

/* Frames read and pushed per step. */
#define CHUNK 1000
/* Spectrum rows and indicators taken per call. */
#define ROWS 256

/* Prints the failed call's status and message, and says to stop. */
static int failed(const char *call, int status) {
    fprintf(stderr, "analyze: %s: %s: %s\n", call, axon_status_name(status), axon_last_error());
    return 1;
}

/* Takes every waiting spectrum row and prints the first channel's. */
static int print_spectra(axon_engine *engine, axon_spectrum_row *rows, double rate) {
    size_t count = 0;
    do {
        int status = axon_engine_take_spectra(engine, rows, ROWS, &count);
        if (status != AXON_OK) return failed("axon_engine_take_spectra", status);
        for (size_t r = 0; r < count; r++) {
            const axon_spectrum_row *row = &rows[r];
            if (row->channel != 0) continue;
            printf("window %lld %lld %.17g", (long long)row->window, (long long)row->sample_index,
                   (double)(row->sample_index + 1) / rate);
            for (size_t b = 0; b < row->band_count; b++) printf(" %.17g", row->dominant_hz[b]);
            printf("\n");
        }
    } while (count > 0);
    return 0;
}

/* Takes every waiting indicator and prints its overall zone. */
static int print_indicators(axon_engine *engine, double rate) {
    axon_indicator indicators[ROWS];
    size_t count = 0;
    do {
        int status = axon_engine_take_indicators(engine, indicators, ROWS, NULL, 0, &count);
        if (status != AXON_OK) return failed("axon_engine_take_indicators", status);
        for (size_t i = 0; i < count; i++) {
            printf("zone %lld %.17g %s %.17g\n", (long long)indicators[i].index,
                   (double)(indicators[i].sample_index + 1) / rate, axon_zone_name(indicators[i].zone),
                   indicators[i].percent);
        }
    } while (count > 0);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s RECORDING\n", argv[0]);
        return 2;
    }
    if (axon_abi_version() != AXON_ABI_VERSION) {
        fprintf(stderr, "analyze: libAxonC implements interface %d, this program was built for %d\n",
                axon_abi_version(), AXON_ABI_VERSION);
        return 1;
    }

    axon_recording *recording = NULL;
    int status = axon_recording_open(argv[1], &recording);
    if (status != AXON_OK) return failed("axon_recording_open", status);

    axon_recording_info info;
    status = axon_recording_get_info(recording, &info);
    if (status != AXON_OK) return failed("axon_recording_get_info", status);
    char label[256];
    status = axon_recording_channel_label(recording, 0, label, sizeof label, NULL);
    if (status != AXON_OK) return failed("axon_recording_channel_label", status);

    /* The engine as `axon analyze RECORDING` runs it: defaults, fitted to the recording. */
    axon_engine_config config;
    axon_engine_config_default(&config);
    status = axon_engine_config_for_recording(recording, &config);
    if (status != AXON_OK) return failed("axon_engine_config_for_recording", status);
    axon_engine *engine = NULL;
    status = axon_engine_create(&config, &engine);
    if (status != AXON_OK) return failed("axon_engine_create", status);

    printf("axon %s: %zu channels at %.17g Hz, %lld frames; channel 0 is %s; bands", axon_version(),
           info.channel_count, info.sample_rate, (long long)info.frame_count, label);
    for (size_t b = 0; b < config.band_count; b++) printf(" %g-%g", config.bands[b].low_hz, config.bands[b].high_hz);
    printf(" Hz\n");

    double *samples = malloc(sizeof(double) * info.channel_count * CHUNK);
    double *times = malloc(sizeof(double) * CHUNK);
    axon_spectrum_row *rows = malloc(sizeof(axon_spectrum_row) * ROWS);
    if (samples == NULL || times == NULL || rows == NULL) {
        fprintf(stderr, "analyze: out of memory\n");
        return 1;
    }
    for (int64_t from = 0; from < info.frame_count;) {
        /* The channel-major stride is the count asked for: ask for exactly what is left at the end. */
        size_t want = info.frame_count - from < CHUNK ? (size_t)(info.frame_count - from) : CHUNK;
        size_t read = 0;
        status = axon_recording_read(recording, from, want, samples, info.channel_count * CHUNK, times, &read);
        if (status != AXON_OK) return failed("axon_recording_read", status);
        status = axon_engine_push_timed(engine, samples, times, info.channel_count, read);
        if (status != AXON_OK) return failed("axon_engine_push_timed", status);
        if (print_spectra(engine, rows, info.sample_rate) != 0) return 1;
        if (print_indicators(engine, info.sample_rate) != 0) return 1;
        from += (int64_t)read;
    }

    free(rows);
    free(times);
    free(samples);
    if ((status = axon_engine_destroy(&engine)) != AXON_OK) return failed("axon_engine_destroy", status);
    if ((status = axon_recording_close(&recording)) != AXON_OK) return failed("axon_recording_close", status);
    return 0;
}
