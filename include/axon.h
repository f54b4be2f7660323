/*
 * axon.h — the C interface of Axon (libAxonC.so): recordings read from files, the EEG engine, and EDF+/BDF+ files
 * written.
 *
 * This header is the contract. The library implements each function with the exact types declared here (the Swift
 * side is compiled against this file), so a change on either side that breaks the other does not build.
 * docs/c-api.md is the guide; every declaration below says what it does, who owns what, and its threading.
 *
 * Conventions, for every function unless its comment says otherwise:
 *   - Returns an int status: AXON_OK (0) on success, a negative AXON_ERR_* code on failure. On failure
 *     axon_last_error() holds a sentence saying what went wrong, and no output parameter is written except the
 *     ones its comment names (string lengths, counts).
 *   - Handles (axon_recording *, axon_analysis *, axon_source *, axon_engine *, axon_writer *) are opaque: the
 *     library makes them, the caller never dereferences them. A handle stays valid until its close/destroy call,
 *     which also sets the caller's pointer to NULL. Any later call with a copy of a closed handle returns
 *     AXON_ERR_CLOSED_HANDLE: handles are never reused, so a stale one is always detected and never touches freed
 *     memory.
 *   - Every buffer is the caller's: the library writes into arrays the caller passes with their capacity (in
 *     elements) and says how many it wrote. It keeps no pointer to them after the call returns.
 *   - Nothing is called back: no call runs caller code. An axon_source runs threads of its own (the device's, the
 *     pipeline's); they never call the caller, and axon_source_close stops them.
 *
 * Threading:
 *   - Different handles are independent: use them on different threads at the same time.
 *   - An axon_source, axon_engine or axon_writer is used by one thread at a time (calls on it may move between
 *     threads, not overlap).
 *   - An axon_recording or axon_analysis is immutable once made: any number of threads may read it at the same
 *     time. Close it when no other call on it is running.
 *   - axon_last_error() is per thread: it reports the last failure of a call made on the calling thread.
 *   - axon_version(), axon_abi_version(), axon_status_name() and axon_zone_name() may be called from any thread.
 *
 * Layout of samples: channel-major everywhere. For `channels` channels and `count` frames, channel c's value in
 * frame i is samples[c * count + i] — a C array double[channels][count], which is NumPy's (channels, count) array in
 * its default (C) order.
 */
#ifndef AXON_H
#define AXON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------------------------
 * Versions and status codes
 * ------------------------------------------------------------------------------------------------------------- */

/* The version of this interface. It changes when a declaration in this header changes incompatibly; compare it with
 * axon_abi_version() when loading the library at run time. */
#define AXON_ABI_VERSION 1

/* Success. */
#define AXON_OK 0
/* An argument cannot be used: a NULL pointer where one is required, a value out of range, a configuration the
 * engine cannot run, samples of another channel count than the engine's, a non-finite sample or time. */
#define AXON_ERR_INVALID_ARGUMENT (-1)
/* The file does not exist. */
#define AXON_ERR_NOT_FOUND (-2)
/* The file exists but cannot be read (permissions, a folder, a read error). */
#define AXON_ERR_IO (-3)
/* The file is read but is not a recording Axon reads, or is damaged beyond what its reader repairs. */
#define AXON_ERR_FORMAT (-4)
/* The caller's buffer is smaller than the call needs; the length parameter, where there is one, says how much. */
#define AXON_ERR_BUFFER_TOO_SMALL (-5)
/* The handle was closed or destroyed (or is not a handle this library made, or is of the other kind). */
#define AXON_ERR_CLOSED_HANDLE (-6)
/* The source's stream has ended (a simulator's or a replay's end, a device that stopped) and every frame was read. */
#define AXON_ERR_ENDED (-7)
/* A device could not be found or opened, or its stream failed (axon_last_error() says which and why). */
#define AXON_ERR_DEVICE (-8)

/* Axon's version, as `axon --version` prints it without the leading "axon " (for example "0.3.0"). A static string:
 * never free it. */
const char *axon_version(void);

/* AXON_ABI_VERSION of the library that is loaded. */
int axon_abi_version(void);

/* The name of a status code ("AXON_OK", "AXON_ERR_NOT_FOUND", …), or "unknown status". A static string. */
const char *axon_status_name(int status);

/* The message of the last call on this thread that failed (""  when none has). The text stays valid until the next
 * failing call on this thread; copy it to keep it. Successful calls leave it alone, as errno does. */
const char *axon_last_error(void);

/* ---------------------------------------------------------------------------------------------------------------
 * Recordings
 *
 * Every format `axon info` reads: EDF/EDF+/BDF/BDF+, XDF, BrainVision (.vhdr), FIF raw, Axon CSV, OpenBCI GUI text
 * (old and new), BrainFlow CSV, muse-lsl CSV, Mind Monitor CSV. Opening reads the whole file into memory once; every
 * other call reads from that copy. Values are in each channel's unit (µV for EEG).
 * ------------------------------------------------------------------------------------------------------------- */

/* An open recording. */
typedef struct axon_recording axon_recording;

/* What a recording holds. */
typedef struct axon_recording_info {
    /* Channels per frame. */
    size_t channel_count;
    /* Frames (samples per channel). */
    int64_t frame_count;
    /* Nominal samples per second per channel. */
    double sample_rate;
    /* frame_count / sample_rate, seconds (gaps not counted). */
    double duration;
    /* 1 when the file gives each frame a time (then start_time is the first one's), else 0. */
    int32_t has_timestamps;
    /* Unix time of the first frame, seconds; NaN when has_timestamps is 0 or there is no frame. */
    double start_time;
    /* Samples missing between frames (axon_recording_gaps). */
    size_t gap_count;
    /* Event markers and annotations (axon_recording_markers). */
    size_t marker_count;
    /* Things the reader noticed but did not fail on (axon_recording_warning). */
    size_t warning_count;
} axon_recording_info;

/* An event marker or annotation. */
typedef struct axon_marker {
    /* The frame it belongs to, from 0. */
    int64_t frame;
    /* That frame's time: Unix seconds when the recording has timestamps, else seconds from the first frame. */
    double time;
    /* The marker's value as the file wrote it (a stimulus code); 0 for a text annotation without one. */
    double value;
    /* 1 when the marker has a text (an EDF+ annotation: axon_recording_marker_text), else 0. */
    int32_t has_text;
} axon_marker;

/* Samples missing from a recording between two of its frames. */
typedef struct axon_gap {
    /* The first frame after the missing samples (1 … frame_count − 1). */
    int64_t before_frame;
    /* How many samples per channel are missing. */
    int64_t missing_count;
    /* The time the first and the last missing sample would have had, in the recording's time. */
    double start_time;
    double end_time;
} axon_gap;

/* Opens and reads the recording at `path` (UTF-8). On success *recording is a new handle; close it with
 * axon_recording_close.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer), AXON_ERR_NOT_FOUND, AXON_ERR_IO, AXON_ERR_FORMAT. */
int axon_recording_open(const char *path, axon_recording **recording);

/* Closes *recording, frees what it holds and sets *recording to NULL. Closing NULL (*recording == NULL) is AXON_OK.
 * Errors: AXON_ERR_INVALID_ARGUMENT (recording is NULL), AXON_ERR_CLOSED_HANDLE (already closed; *recording is set to
 * NULL all the same). */
int axon_recording_close(axon_recording **recording);

/* Writes what the recording holds into *info. */
int axon_recording_get_info(const axon_recording *recording, axon_recording_info *info);

/* Reads `count` frames from frame `from` (0 ≤ from ≤ frame_count) into `samples`, channel-major with a stride of
 * `count`: channel c's frame i at samples[c * count + i]. `capacity` is the number of doubles `samples` holds and must
 * be at least channel_count × count. *frames_read receives how many frames were read: count, or fewer at the end of
 * the recording (the rest of the buffer is left alone). `times` is NULL or an array of at least `count` doubles that
 * receives each frame's time (Unix seconds when the recording has timestamps, else seconds from the first frame).
 * Allocates nothing.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, `from` out of range), AXON_ERR_BUFFER_TOO_SMALL. */
int axon_recording_read(const axon_recording *recording, int64_t from, size_t count, double *samples, size_t capacity,
                        double *times, size_t *frames_read);

/* Copies the markers from index `first` (0 ≤ first ≤ marker_count) into `markers`, at most `capacity` of them, in
 * frame order; *count receives how many were written. Page through a long list by calling again from first + *count.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, `first` out of range). */
int axon_recording_markers(const axon_recording *recording, size_t first, axon_marker *markers, size_t capacity,
                           size_t *count);

/* Copies the gaps from index `first` (0 ≤ first ≤ gap_count) into `gaps`, as axon_recording_markers does. */
int axon_recording_gaps(const axon_recording *recording, size_t first, axon_gap *gaps, size_t capacity,
                        size_t *count);

/*
 * Texts: each of these copies a UTF-8 text into the caller's `buffer` of `capacity` bytes, with a terminating NUL.
 * *length (when `length` is not NULL) receives the text's length in bytes without the NUL — also when the buffer is
 * too small, so a first call with capacity 0 (buffer may then be NULL) asks how much to allocate.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL handle, index out of range), AXON_ERR_BUFFER_TOO_SMALL (capacity ≤ length;
 * nothing is written to the buffer).
 */

/* A channel's label (made unique as MNE-Python does: "EEG-0", "EEG-1" for two "EEG"). */
int axon_recording_channel_label(const axon_recording *recording, size_t channel, char *buffer, size_t capacity,
                                 size_t *length);
/* A channel's unit ("uV", "µV", "" when the file gives none). */
int axon_recording_channel_unit(const axon_recording *recording, size_t channel, char *buffer, size_t capacity,
                                size_t *length);
/* The file's format as its reader names it ("EDF+", "XDF", "muse-lsl CSV", …; "" when the reader names none). */
int axon_recording_format(const axon_recording *recording, char *buffer, size_t capacity, size_t *length);
/* A marker's text ("" for a marker without one). */
int axon_recording_marker_text(const axon_recording *recording, size_t marker, char *buffer, size_t capacity,
                               size_t *length);
/* One of the reader's warnings, as a sentence. */
int axon_recording_warning(const axon_recording *recording, size_t warning, char *buffer, size_t capacity,
                           size_t *length);

/* Makes a recording of the caller's samples, as if read from a file: `channels` channels of `count` frames,
 * channel-major (channel c's frame i at samples[c * count + i]), every value finite, at `sample_rate` samples per
 * second. `labels` is NULL ("ch1" … "chN") or `channels` UTF-8 labels; `unit` NULL ("µV") or every channel's unit;
 * `start_time` the first frame's Unix time in seconds, or NaN for a recording without timestamps. The samples are
 * copied: the caller's buffers are free again when the call returns. Close the handle with axon_recording_close.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, channels or count 0, a rate that is not finite and positive, a
 * non-finite value). */
int axon_recording_from_samples(const double *samples, size_t channels, size_t count, double sample_rate,
                                const char *const *labels, const char *unit, double start_time,
                                axon_recording **recording);

/* ---------------------------------------------------------------------------------------------------------------
 * Analysing a whole recording
 *
 * `axon analyze FILE --json` as a call: the same steps (channels picked, the segment cut, the engine fitted to the
 * recording, the eyes-open and eyes-closed stretches taken from its events) and the same JSON text, byte for byte
 * for the same options (frequencies to within the last bits, as for the engine). Filters and ASR are the command's.
 * ------------------------------------------------------------------------------------------------------------- */

/* A finished analysis: its report. */
typedef struct axon_analysis axon_analysis;

/* Analyses the whole recording. `options` is NULL, "", or a JSON object whose keys are `axon analyze`'s flags, each
 * absent one at the command's default: "channels" (a list of labels), "window" (256), "hop" (one second of
 * samples), "baseline" (seconds, 60; 0 for none), "indicator" (seconds, 10), "from" and "to" (seconds), "rail"
 * (the recording's declared range), "blink_scale" (2.5; 0 for the 100 µV rule alone), "keep_artifacts" (false),
 * "bands" ("delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45"). An unknown key or a value of the wrong type
 * is an error. Runs the engine over every frame (about a second for an hour at 250 Hz on 4 channels).
 * Threading: any thread; other threads may read the recording meanwhile.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, an option the analysis cannot run, an unknown channel, a segment
 * outside the recording), AXON_ERR_CLOSED_HANDLE. */
int axon_analyze(const axon_recording *recording, const char *options, axon_analysis **analysis);

/* The report as one JSON object, the text `axon analyze --json` prints (keys sorted), by the text convention above.
 * Any thread. */
int axon_analysis_json(const axon_analysis *analysis, char *buffer, size_t capacity, size_t *length);

/* Frees *analysis and sets *analysis to NULL. NULL *analysis is AXON_OK. Errors: as axon_recording_close. */
int axon_analysis_destroy(axon_analysis **analysis);

/* ---------------------------------------------------------------------------------------------------------------
 * Sources: devices, streams, simulators
 *
 * Any SOURCE the commands take, streaming from the moment it opens: "simulator" (4 channels at 250 Hz),
 * "test-sequence:HZ" (the simulated Brainiac headset through its packet decoder), a recording's path (replayed in
 * real time), "cyton:PATH", "muse:NAME", "ganglion:NAME", "polar:NAME" (through BlueZ), "lsl:NAME", "lsl:type=T",
 * "lsl:source_id=ID", "sensor:FILE.json". Frames go through Axon's pipeline (its ring, counter unwrapping and clock
 * dejittering) into a buffer of two minutes at 250 Hz (32768 frames) that axon_source_read empties. Samples that
 * never arrived, and frames the caller did not read in time, come out as gap records, never silently.
 * ------------------------------------------------------------------------------------------------------------- */

/* A running source. */
typedef struct axon_source axon_source;

/* What a source streams. */
typedef struct axon_source_info {
    /* Channels per frame. */
    size_t channel_count;
    /* Nominal samples per second per channel (0 for an irregular stream). */
    double sample_rate;
} axon_source_info;

/* axon_source_gap.cause */
#define AXON_GAP_DEVICE_COUNTER 0
#define AXON_GAP_OVERFLOW 1
#define AXON_GAP_LINK_LOSS 2

/* Samples missing between two frames of a source. missing_count is 0 when a read returned frames instead. */
typedef struct axon_source_gap {
    /* Samples per channel missing. */
    int64_t missing_count;
    /* Unix times the first and the last missing sample would have had, seconds. */
    double start_time;
    double end_time;
    /* AXON_GAP_DEVICE_COUNTER (the device's counter skipped: lost on the device or the link), AXON_GAP_OVERFLOW
     * (a buffer was full: the caller read too slowly), AXON_GAP_LINK_LOSS (the device was lost and came back). */
    int32_t cause;
} axon_source_gap;

/* Opens `source_text` (UTF-8) and starts streaming. `options` is NULL, "" or a JSON object: "channels" (a Cyton's
 * channels to stream, EXG0…), "bus" (the D-Bus address BlueZ is on; default the system bus), "search_seconds"
 * (how long a Bluetooth device may take to appear, at most 30; default 30), "lsl_config" (a liblsl configuration
 * file; default: LSLAPICFG when set, else this machine only), "muse_preset" ("p20"), "seconds" (how long a simulator
 * or test sequence runs, how much of a recording is replayed; default: until closed, the whole recording), "speed"
 * (how much faster than real time a simulator or a recording runs; default 1). Blocks while a Bluetooth device is searched for or a Cyton answers.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, a SOURCE that does not parse, an option), AXON_ERR_NOT_FOUND,
 * AXON_ERR_IO, AXON_ERR_FORMAT (a recording that cannot be read), AXON_ERR_DEVICE (a device not found or not
 * answering: the message names what was seen). */
int axon_source_open(const char *source_text, const char *options, axon_source **source);

/* Stops the source, lets go of its device, frees the handle and sets *source to NULL. NULL *source is AXON_OK.
 * Errors: as axon_recording_close. */
int axon_source_close(axon_source **source);

/* Writes what the source streams into *info. */
int axon_source_get_info(const axon_source *source, axon_source_info *info);

/* Texts, by the text convention above: a channel's label and unit; the source's kind ("simulator",
 * "test-sequence", "recording", "cyton", "muse", "ganglion", "polar", "lsl", "sensor"); a title for people. */
int axon_source_channel_label(const axon_source *source, size_t channel, char *buffer, size_t capacity,
                              size_t *length);
int axon_source_channel_unit(const axon_source *source, size_t channel, char *buffer, size_t capacity,
                             size_t *length);
int axon_source_kind(const axon_source *source, char *buffer, size_t capacity, size_t *length);
int axon_source_title(const axon_source *source, char *buffer, size_t capacity, size_t *length);

/* Reads up to `count` frames: waits up to `timeout` seconds (0: not at all) for the first, then takes those
 * already there, without waiting for more. Samples go channel-major with a stride of `count` (channel c's frame i at
 * samples[c * count + i]; capacity ≥ channel_count × count); `times` (NULL or count doubles) gets each frame's Unix
 * time, dejittered; `counters` (NULL or count doubles) each frame's device counter, NaN when the device has none.
 * *frames_read receives how many frames were read: 0 after a timeout. The read stops before a gap record; a read
 * that meets one first reads no frame and fills *gap (missing_count > 0), else gap->missing_count is 0.
 * Allocates nothing.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, count 0, a negative timeout), AXON_ERR_BUFFER_TOO_SMALL,
 * AXON_ERR_ENDED (the stream ended and every frame was read), AXON_ERR_DEVICE (the stream ended because the source
 * failed; the message says why), AXON_ERR_CLOSED_HANDLE. */
int axon_source_read(axon_source *source, size_t count, double timeout, double *samples, size_t capacity,
                     double *times, double *counters, size_t *frames_read, axon_source_gap *gap);

/* ---------------------------------------------------------------------------------------------------------------
 * The EEG engine
 *
 * Feed it samples; every `hop` samples it analyses the last `window_size` samples of every channel into a spectrum:
 * per channel and band the dominant frequency (NaN when the band holds no peak of its own), the band power, and the
 * window's signal quality. With a baseline it learns each channel's band shares for `baseline_seconds`, then makes
 * an indicator (an activity zone) every `indicator_seconds`. Results wait inside the engine until taken. This is
 * the engine `axon analyze` runs over a recording: the same configuration gives the same numbers (frequencies to
 * within the last bits, since each process times its own FFT plan; docs/c-api.md).
 * ------------------------------------------------------------------------------------------------------------- */

/* The most bands an engine analyses. */
#define AXON_MAX_BANDS 8

/* Artifact bits of axon_spectrum_row.artifacts. */
#define AXON_ARTIFACT_EYES 1
#define AXON_ARTIFACT_MUSCLE 2

/* axon_spectrum_row.baseline_state */
#define AXON_BASELINE_NOT_STARTED 0
#define AXON_BASELINE_COLLECTING 1
#define AXON_BASELINE_COMPLETE 2

/* Activity zones (axon_indicator.zone, axon_channel_zone.zone). */
#define AXON_ZONE_RELAXATION 0
#define AXON_ZONE_HIGH_RELAXATION 1
#define AXON_ZONE_DREAM 2
#define AXON_ZONE_NORMAL_ACTIVITY 3
#define AXON_ZONE_AGITATION 4
#define AXON_ZONE_HIGH_AGITATION 5
/* A channel left out of an indicator (no usable window in the baseline or in the period). */
#define AXON_ZONE_LEFT_OUT (-1)

/* The zone's name ("Relaxation", "HighRelaxation", "Dream", "NormalActivity", "Agitation", "HighAgitation",
 * "left out" for AXON_ZONE_LEFT_OUT), or "unknown zone". A static string. */
const char *axon_zone_name(int zone);

/* An engine. */
typedef struct axon_engine axon_engine;

/* A frequency band, low_hz ≤ f ≤ high_hz. */
typedef struct axon_band {
    double low_hz;
    double high_hz;
} axon_band;

/* What an engine is made from. Always start from axon_engine_config_default (which also sets struct_size), then
 * change what differs, or let axon_engine_config_for_recording fit it to a recording. */
typedef struct axon_engine_config {
    /* sizeof(axon_engine_config), set by axon_engine_config_default; axon_engine_create refuses any other value, so
     * a config that was not set up with the defaults is caught. (A program checks axon_abi_version() against
     * AXON_ABI_VERSION before relying on this layout.) */
    size_t struct_size;
    /* Samples per second per channel. Default 250. */
    double sample_rate;
    /* Channels per frame. Default 4. */
    size_t channel_count;
    /* NULL, or channel_count UTF-8 labels. Labels naming 10-20 positions decide which channels are watched for
     * blinks (frontal and temporal ones); NULL names the channels "ch1" … "chN", and every channel is watched.
     * Copied by axon_engine_create. Default NULL. */
    const char *const *channel_labels;
    /* Samples per analysis window (also the FFT length), at least 8. Default 256. */
    int32_t window_size;
    /* Samples between the ends of consecutive windows. Default 250 (one second at 250 Hz). */
    int32_t hop;
    /* Seconds of baseline collected from the first sample; 0 for no baseline and no indicators. Default 60. */
    double baseline_seconds;
    /* Seconds between indicators once the baseline is complete. Default 10. */
    double indicator_seconds;
    /* The amplifier's rail in the channels' unit (a Cyton at gain 24: 187500): samples at it count as railed. 0 when
     * unknown (no railed test). Default 0. */
    double rail_magnitude;
    /* A blink swings more than this many times its channel's own typical slow swing, and more than 100 µV; 0 for
     * the 100 µV rule alone. Default 2.5. */
    double blink_scale;
    /* 1: leave windows with blink or muscle artifacts out of the baseline and the indicators (they are flagged
     * either way); 0: keep them. Default 1. */
    int32_t exclude_artifacts;
    /* Bands analysed, 1 … AXON_MAX_BANDS, each inside 0 … sample_rate / 2. Default 3: 3–7, 7–13, 14–24 Hz. */
    size_t band_count;
    axon_band bands[AXON_MAX_BANDS];
    /* Which of the bands the zone classifier reads as theta, alpha and beta (indices). Default 0, 1, 2. */
    int32_t theta_band;
    int32_t alpha_band;
    int32_t beta_band;
    /* The time of the first sample, Unix seconds, for samples pushed without times: sample n is then at
     * start_time + n / sample_rate. Default 0. */
    double start_time;
} axon_engine_config;

/* One channel's signal quality in one window. */
typedef struct axon_channel_quality {
    /* Fraction of the window's samples at the rail. */
    double railed_fraction;
    /* Mean-square power from 1 Hz to Nyquist, unit² (near 0 for a flat input). */
    double power;
    /* Share of that power within ±1 Hz of 50 and 60 Hz (mains). */
    double line_share;
    /* Share of the 3–45 Hz power in 30–45 Hz (muscle); NaN when 45 Hz is above Nyquist. */
    double muscle_share;
    /* Peak-to-peak swing of the 100 ms-smoothed, straight-line-removed window, unit (blinks). */
    double slow_swing;
    /* 1 when the window was usable (not railed, not flat, analysed), else 0. */
    int32_t usable;
} axon_channel_quality;

/* One channel of one spectrum. A spectrum makes channel_count rows, in channel order. */
typedef struct axon_spectrum_row {
    /* Serial number of the spectrum, from 0. */
    int64_t window;
    /* Index of the window's last sample, counting from the first sample pushed as 0 (skipped samples count). */
    int64_t sample_index;
    /* That sample's time, seconds: the time pushed with it, or start_time + sample_index / sample_rate. */
    double time;
    /* The channel, from 0. */
    size_t channel;
    /* Samples of the window filled in for lost ones (axon_engine_skip); 0 for an intact window. */
    int32_t filled_samples;
    /* AXON_ARTIFACT_* bits found in the window, on any channel. */
    int32_t artifacts;
    /* 1 when the window was left out of the baseline and the indicators as a whole. */
    int32_t excluded;
    /* AXON_BASELINE_* when the window was made. */
    int32_t baseline_state;
    /* Bands filled in below (the engine's band_count); the other entries are NaN. */
    size_t band_count;
    /* Per band: dominant frequency, Hz (NaN when the band holds no peak of its own). */
    double dominant_hz[AXON_MAX_BANDS];
    /* Per band: power of the dominant frequency's bin, unit² (NaN when no peak). */
    double peak_power[AXON_MAX_BANDS];
    /* Per band: mean-square power in the band, unit². */
    double band_power[AXON_MAX_BANDS];
    /* Per band: the band's power as a share of the 3–30 Hz power. */
    double relative_power[AXON_MAX_BANDS];
    /* Mean-square power in 3–30 Hz, unit². */
    double reference_power;
    /* The channel's signal quality in this window. */
    axon_channel_quality quality;
} axon_spectrum_row;

/* One indicator: the overall zone of one indicator period. */
typedef struct axon_indicator {
    /* Serial number of the indicator, from 0. */
    int64_t index;
    /* Index of the sample that ended its period (as axon_spectrum_row.sample_index). */
    int64_t sample_index;
    /* That sample's time (as axon_spectrum_row.time). */
    double time;
    /* The overall zone, AXON_ZONE_*. */
    int32_t zone;
    /* How strongly, 0 … 1. */
    double percent;
    /* Spectra the indicator averaged, and spectra of its period left out. */
    int32_t frames;
    int32_t excluded_frames;
    /* Bands filled in below; the other entries are NaN. */
    size_t band_count;
    /* Per band: the z-score of its log-odds share against the baseline, averaged over the channels included. */
    double z_scores[AXON_MAX_BANDS];
} axon_indicator;

/* One channel's zone in one indicator. */
typedef struct axon_channel_zone {
    /* The indicator's index (axon_indicator.index). */
    int64_t indicator;
    /* The channel, from 0. */
    size_t channel;
    /* AXON_ZONE_*, or AXON_ZONE_LEFT_OUT. */
    int32_t zone;
    /* How strongly, 0 … 1; NaN when left out. */
    double percent;
    /* Per band: the channel's z-score (NaN when left out, and beyond band_count). */
    double z_scores[AXON_MAX_BANDS];
} axon_channel_zone;

/* Sets *config to the defaults (the Brainiac headset's: 250 Hz, 4 channels, 256-sample windows every 250 samples,
 * 3–7 / 7–13 / 14–24 Hz, 60 s baseline, indicators every 10 s) and sets struct_size. */
int axon_engine_config_default(axon_engine_config *config);

/* Fits *config to a recording as `axon analyze` does: sample_rate, channel_count and channel_labels from the
 * recording, hop to one second of samples (the rate rounded), rail_magnitude from the first physical range a channel
 * declares (an EDF file's; the larger of its two magnitudes) when there is one (else left as it is), start_time to
 * the first frame's time (0 without timestamps). Everything else is left as it is. channel_labels then points into
 * the recording's own storage: create the engine before closing the recording.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, struct_size not set), AXON_ERR_CLOSED_HANDLE. */
int axon_engine_config_for_recording(const axon_recording *recording, axon_engine_config *config);

/* Makes an engine. Plans the FFT (tens of milliseconds) and allocates everything the engine uses; a baseline, when
 * configured, starts with the first sample.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, struct_size not sizeof(axon_engine_config), a parameter that cannot
 * work: axon_last_error() names it). */
int axon_engine_create(const axon_engine_config *config, axon_engine **engine);

/* Destroys *engine, drops its results not yet taken and sets *engine to NULL. NULL *engine is AXON_OK.
 * Errors: as axon_recording_close. */
int axon_engine_destroy(axon_engine **engine);

/* Feeds `count` frames, channel-major (channel c's frame i at samples[c * count + i]); `channels` must be the
 * engine's channel count. Sample n's time is start_time + n / sample_rate. Every value must be finite; a push that
 * fails changes nothing. Results wait in the engine until taken (they grow without bound if never taken).
 * Cost: O(channels × count), plus one analysis per hop; the block is read in place (no copy); allocates only to
 * grow the results waiting to be taken.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer with count > 0, another channel count, a non-finite value). */
int axon_engine_push(axon_engine *engine, const double *samples, size_t channels, size_t count);

/* As axon_engine_push, with each frame's time in `times` (count values, finite, seconds; Unix time keeps results
 * comparable with `axon analyze`), which the results carry. */
int axon_engine_push_timed(axon_engine *engine, const double *samples, const double *times, size_t channels,
                           size_t count);

/* As axon_engine_push_timed (times NULL: as axon_engine_push), with channel c's frame i at
 * samples[c * channel_stride + i]: a block cut out of a longer channel-major array (channel_stride ≥ count, the
 * array's row length) goes in without being copied out first.
 * Errors: as axon_engine_push, and AXON_ERR_INVALID_ARGUMENT for channel_stride < count. */
int axon_engine_push_strided(axon_engine *engine, const double *samples, size_t channel_stride, const double *times,
                             size_t channels, size_t count);

/* Says that `missing` samples per channel were lost before the next frame pushed, as `axon analyze` treats a gap
 * in a recording: a loss of up to 12 samples is bridged with filled-in samples on the line between the samples
 * around it (at times between theirs), a longer one restarts the window history (the next spectrum waits for a
 * full window of real samples). Sample indices count the missing samples either way. Before the first frame it is
 * ignored; several calls before one push add up.
 * Errors: AXON_ERR_INVALID_ARGUMENT (missing < 0). */
int axon_engine_skip(axon_engine *engine, int64_t missing);

/* How many spectrum rows and indicators wait to be taken (either pointer may be NULL). */
int axon_engine_pending(const axon_engine *engine, size_t *spectrum_rows, size_t *indicators);

/* Moves up to `capacity` waiting spectrum rows, oldest first, into `rows`; *count receives how many. Call again
 * while rows wait (axon_engine_pending), or with a buffer of channel_count × spectra rows. Allocates nothing.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer). */
int axon_engine_take_spectra(axon_engine *engine, axon_spectrum_row *rows, size_t capacity, size_t *count);

/* Moves up to `capacity` waiting indicators, oldest first, into `indicators`, and their channels' zones into
 * `zones` (channel_count per indicator, in order: indicator k's channel c at zones[k * channel_count + c]); *count
 * receives how many indicators. `zones` may be NULL (zone_capacity 0) to drop the channels' zones; otherwise at most
 * zone_capacity / channel_count indicators are taken. Allocates nothing.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer), AXON_ERR_BUFFER_TOO_SMALL (zones given with zone_capacity below
 * channel_count while indicators wait). */
int axon_engine_take_indicators(axon_engine *engine, axon_indicator *indicators, size_t capacity,
                                axon_channel_zone *zones, size_t zone_capacity, size_t *count);

/* ---------------------------------------------------------------------------------------------------------------
 * Writing EDF+ and BDF+
 *
 * Axon's crash-safe writer (the one `axon record` uses): the header's record count is rewritten and the file synced
 * after every data record, so a killed process leaves a file that readers open, holding every record up to the last.
 * Samples are stored as 16-bit (EDF+) or 24-bit (BDF+) integers over each channel's physical range; a value outside
 * it is clipped to its edge. The file's first annotation is "Recording starts" at 0 s, as in `axon record`'s files.
 * ------------------------------------------------------------------------------------------------------------- */

/* A file being written. */
typedef struct axon_writer axon_writer;

/* axon_writer_config.format */
#define AXON_FORMAT_EDF_PLUS 0
#define AXON_FORMAT_BDF_PLUS 1

/* What a file is written from. Always start from axon_writer_config_default. */
typedef struct axon_writer_config {
    /* sizeof(axon_writer_config), set by axon_writer_config_default; axon_writer_create refuses any other value. */
    size_t struct_size;
    /* AXON_FORMAT_EDF_PLUS (16-bit samples) or AXON_FORMAT_BDF_PLUS (24-bit). Default EDF+. */
    int32_t format;
    /* Samples per second per channel; sample_rate × record_seconds must be a whole number. Default 250. */
    double sample_rate;
    /* Channels per frame, and NULL or channel_count UTF-8 labels (NULL: "ch1" … "chN"). Default 4, NULL. */
    size_t channel_count;
    const char *const *channel_labels;
    /* Every channel's unit. Default "uV". */
    const char *unit;
    /* Every channel's physical range, in the unit; both 0 for the format's default (EDF+ ±3276.7, BDF+ ±838860).
     * Default 0, 0. */
    double physical_min;
    double physical_max;
    /* Unix time of the first sample, seconds; NaN writes EDF+'s "start date unknown". Default NaN. */
    double start_time;
    /* Seconds per data record. Default 1. */
    double record_seconds;
} axon_writer_config;

/* Sets *config to the defaults and sets struct_size. */
int axon_writer_config_default(axon_writer_config *config);

/* Creates (or truncates) the file at `path` and writes its header.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL pointer, a config the format cannot hold: axon_last_error() says which
 * field), AXON_ERR_IO (the file cannot be created). */
int axon_writer_create(const char *path, const axon_writer_config *config, axon_writer **writer);

/* Appends `count` frames, channel-major (channel c's frame i at samples[c * count + i]); `channels` must be the
 * file's. Every value must be finite; a refused append writes nothing. Allocates nothing.
 * Errors: AXON_ERR_INVALID_ARGUMENT, AXON_ERR_IO (a write failed: what was written before stays readable). */
int axon_writer_append(axon_writer *writer, const double *samples, size_t channels, size_t count);

/* Annotates `text` (UTF-8) at `onset_seconds` from the first sample, lasting `duration_seconds` (NaN or negative
 * for none). Written into the data record holding the onset, or the next one written.
 * Errors: AXON_ERR_INVALID_ARGUMENT (NULL text, a non-finite onset). */
int axon_writer_annotate(axon_writer *writer, double onset_seconds, double duration_seconds, const char *text);

/* Completes the file (the last partial record padded with each channel's last value, the annotations still
 * waiting, the final record count, a sync), closes it, frees the writer and sets *writer to NULL. NULL *writer is
 * AXON_OK. The writer is freed even when completing fails.
 * Errors: AXON_ERR_INVALID_ARGUMENT (writer is NULL), AXON_ERR_CLOSED_HANDLE, AXON_ERR_IO. */
int axon_writer_close(axon_writer **writer);

#ifdef __cplusplus
}
#endif

#endif /* AXON_H */
