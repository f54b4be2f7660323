"""A Muse headband (2016 / Muse 2 / Muse S) as muse-lsl and the Muse apps see it over Bluetooth LE.

Service 0xFE8D (Interaxon). Characteristics, all `273eXXXX-4c4d-454d-96be-f03bac821358`:
  0001 control (write-without-response, notify): commands in, replies out
  0003 TP9, 0004 AF7, 0005 AF8, 0006 TP10, 0007 right AUX (notify): EEG
  0009 gyroscope, 000a accelerometer (notify): uint16 index + 3 × (x, y, z) int16, big-endian
  000b telemetry (notify): uint16 index, battery × 512, fuel gauge ÷ 2.2 mV, ADC volts, temperature
  000f, 0010, 0011 PPG ambient, infrared, red (notify; Muse 2 / S, with ppg=1): uint16 index + 6 × uint24,
                      big-endian, raw counts, 64 Hz

Commands are length-prefixed ASCII ending in a newline: [n, c1 ... c(n-1), 0x0A], e.g. `h` halt = 02 68 0A,
`d` start = 02 64 0A, `s` status = 02 73 0A, `k` keep-alive = 02 6B 0A, presets `p20` (4 EEG + right AUX),
`p21`, `p22`, `p50` (4 EEG) = 04 70 32 30 0A … ; `v1` version. `s` and `v1` answer JSON on the control
characteristic in 20-byte notifications whose first byte is the number of characters that follow.

EEG: per channel a 20-byte notification = big-endian uint16 packet index + 12 samples of 12 bits, big-endian
packed; raw = µV / 0.48828125 + 2048 (rounded, clamped to 0…4095). 256 Hz per channel, so 21.33 packets/s;
the packet index counts with the headset's clock from its power-on, whether or not it streams, and the
channels of one index are notified in the order TP9, AF7, AF8, TP10 (, AUX).

Options:
  csv=PATH            a muse-lsl CSV (timestamps, TP9, AF7, AF8, TP10, Right AUX): the values streamed,
                      looping at its end (required)
  speed=S             the headset's clock runs S times real time (default 1)
  drop=A+B+...        packets never sent (lost on the radio), counted from the first packet streamed after the
                      first `d` (0-based; each START-END inclusive or one number); their indices are skipped
  keepalive_timeout=T seconds of headset time without a `k` (or `d`) after which it halts (default 0: never)
  preset=P            preset at power-on (default p21)
  battery=B           battery % in telemetry (default 80); telemetry is sent once per second of headset time
  motion=1            also stream the accelerometer (0, 0, 1 g) and gyroscope (0.5, −0.5, 0 °/s) at 52 Hz / 3
  ppg=1               a Muse 2 / S: has the PPG characteristics and streams a 72 bpm pulse at 64 Hz, sample n
                      (from the first streamed packet) = [20000, 300000 + round(20000 sin(2π·1.2·n/64)),
                      200000 + round(10000 sin(2π·1.2·n/64))] (the same as AxonMuse's SimulatedMuse.ppgSample)

Stats add `sent` (packet indices sent), `index` (next index), `keepalives`, `halts` (keep-alive timeouts),
`streaming`, `preset`, `commands` (every command, space-separated).
"""

import csv
import json
import os
import math
import time

import dbus

MUSE_SERVICE = mock.uuid16(0xFE8D)
SUFFIX = "-4c4d-454d-96be-f03bac821358"
CONTROL = "273e0001" + SUFFIX
EEG = ["273e0003" + SUFFIX, "273e0004" + SUFFIX, "273e0005" + SUFFIX, "273e0006" + SUFFIX, "273e0007" + SUFFIX]
TELEMETRY = "273e000b" + SUFFIX
GYROSCOPE = "273e0009" + SUFFIX
ACCELEROMETER = "273e000a" + SUFFIX
PPG = ["273e000f" + SUFFIX, "273e0010" + SUFFIX, "273e0011" + SUFFIX]
PPG_RATE = 64.0
ACCELEROMETER_SCALE = 0.0000610352
GYROSCOPE_SCALE = 0.0074768
RATE = 256.0
SAMPLES_PER_PACKET = 12
MICROVOLTS_PER_COUNT = 0.48828125
PRESETS_WITH_AUX = {"p20"}
PRESETS = {"p20", "p21", "p22", "p23", "p50", "p51", "p52", "p53"}


def pack_eeg(index, raws):
    """20 bytes: uint16 index, then 12 × 12 bits, all big-endian."""
    out = bytearray([(index >> 8) & 0xFF, index & 0xFF])
    for first, second in zip(raws[0::2], raws[1::2]):
        out += bytes([first >> 4, ((first & 0x0F) << 4) | (second >> 8), second & 0xFF])
    return bytes(out)


def raw_of(microvolts):
    return max(0, min(4095, int(round(microvolts / MICROVOLTS_PER_COUNT + 2048))))


def ppg_sample(n):
    """[ambient, infrared, red] raw counts of PPG sample n: a 72 beats per minute pulse."""
    phase = math.sin(2 * math.pi * 1.2 * n / PPG_RATE)
    return [20000, 300000 + round(20000 * phase), 200000 + round(10000 * phase)]


def parse_drops(text):
    dropped = set()
    for part in str(text).split("+"):
        if not part:
            continue
        first, _, last = part.partition("-")
        dropped.update(range(int(first), int(last or first) + 1))
    return dropped


class Muse(mock.AirDevice):
    """Streams a muse-lsl recording as Muse EEG notifications once told `d`, with packet indices by its clock."""

    KIND = "muse"
    OPTIONS = mock.AirDevice.OPTIONS | {"csv", "speed", "drop", "keepalive_timeout", "preset", "battery", "motion", "ppg"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        if "csv" not in options:
            raise mock.invalid_args("a muse device needs csv=PATH (a muse-lsl recording)")
        self.rows = []
        with open(str(options["csv"]), newline="") as handle:
            reader = csv.DictReader(handle)
            for row in reader:
                self.rows.append([float(row[k]) for k in ("TP9", "AF7", "AF8", "TP10", "Right AUX")])
        if not self.rows:
            raise mock.invalid_args("the muse recording has no rows")
        self.speed = float(options.get("speed", 1))
        self.dropped = parse_drops(options.get("drop", ""))
        self.keepalive_timeout = float(options.get("keepalive_timeout", 0))
        self.preset = str(options.get("preset", "p21"))
        self.battery = int(options.get("battery", 80))
        self.advertised_uuids = [MUSE_SERVICE]
        self.born = time.monotonic()
        self.next_index = 0  # absolute (not wrapped) packet number
        self.sent = 0
        self.keepalives = 0
        self.halts = 0
        self.commands = []
        self.wants_stream = False
        self.stream_origin = None  # index of the first packet ever streamed
        self.last_keepalive = 0.0
        self.motion = bool(int(options.get("motion", 0)))
        self.ppg = bool(int(options.get("ppg", 0)))
        self.ppg_chars = []
        self.ppg_samples = 0
        self.control_char = None
        self.eeg_chars = []
        self.telemetry_char = None
        self.accelerometer_char = None
        self.gyroscope_char = None
        self.aux_index = 0
        self.motion_index = 0
        self.next_telemetry = 0.0
        self.next_motion = 0.0
        self.pacer = mock.NotificationPacer(RATE / SAMPLES_PER_PACKET * self.speed, self._send_next)

    def build_gatt(self):
        service = self.add_service(0x000C, MUSE_SERVICE)
        self.control_char = self.add_characteristic(service, 0x000D, CONTROL, ["write-without-response", "notify"])
        self.eeg_chars = [self.add_characteristic(service, 0x0020 + 3 * k, uuid, ["notify"])
                          for k, uuid in enumerate(EEG)]
        self.telemetry_char = self.add_characteristic(service, 0x001A, TELEMETRY, ["notify"])
        self.gyroscope_char = self.add_characteristic(service, 0x0014, GYROSCOPE, ["notify"])
        self.accelerometer_char = self.add_characteristic(service, 0x0017, ACCELEROMETER, ["notify"])
        if self.ppg:
            self.ppg_chars = [self.add_characteristic(service, 0x0030 + 3 * k, uuid, ["notify"])
                              for k, uuid in enumerate(PPG)]
        self.battery_char = mock.add_battery_service(self, 0x0040, self.battery)

    def forget_gatt(self):
        super().forget_gatt()
        self.control_char = None
        self.eeg_chars = []
        self.telemetry_char = self.accelerometer_char = self.gyroscope_char = None
        self.ppg_chars = []
        self.pacer.stop()

    # -- the headset's clock

    def device_seconds(self):
        return (time.monotonic() - self.born) * self.speed

    def clock_index(self):
        return int(self.device_seconds() * RATE / SAMPLES_PER_PACKET)

    # -- commands

    def written(self, characteristic, value, write_type):
        if characteristic.uuid != CONTROL:
            return
        data = bytes(value)
        if len(data) < 2 or data[0] != len(data) - 1 or data[-1] != 0x0A:
            raise mock.BluezError("Failed", "malformed Muse command")
        command = data[1:-1].decode("ascii", "replace")
        self.commands.append(command)
        if command == "d":
            self.wants_stream = True
            self.last_keepalive = self.device_seconds()
        elif command == "h":
            self.wants_stream = False
        elif command == "k":
            self.keepalives += 1
            self.last_keepalive = self.device_seconds()
        elif command in PRESETS:
            self.preset = command
            self._reply({"rc": 0})
        elif command == "s":
            self._reply({"hn": self.name, "sn": self.address.replace(":", ""), "ma": self.address.lower(),
                         "id": "00000000", "bp": self.battery, "ts": 0, "ps": int(self.preset[1:], 16), "rc": 0})
        elif command == "v1":
            self._reply({"ap": "headset", "sp": "Blackcomb_revB", "tp": "consumer", "hw": "10.1", "bn": 27,
                         "fw": "1.2.13", "bl": "1.2.3", "pv": 1, "rc": 0})
        self.streaming_changed()

    def _reply(self, obj):
        text = json.dumps(obj, separators=(",", ":"))
        for start in range(0, len(text), 19):
            chunk = text[start:start + 19].encode("ascii")
            if self.control_char is not None:
                self.control_char.notify(bytes([len(chunk)]) + chunk + bytes(19 - len(chunk)))

    # -- streaming

    def streaming_changed(self):
        possible = self.wants_stream and bool(self.eeg_chars) and self.eeg_chars[0].streaming
        if possible and not self.pacer.running:
            self.next_index = max(self.next_index, self.clock_index())
            if self.stream_origin is None:
                self.stream_origin = self.next_index
            self.pacer.start()
        elif not possible:
            self.pacer.stop()

    def disconnect(self):
        super().disconnect()
        # A headset that lost its central stops streaming until told `d` again.
        self.wants_stream = False
        self.pacer.stop()

    def _send_next(self):
        if self.keepalive_timeout > 0 and self.device_seconds() - self.last_keepalive > self.keepalive_timeout:
            self.halts += 1
            self.wants_stream = False
            self.pacer.stop()
            return False
        index = self.next_index
        self.next_index += 1
        if index - self.stream_origin in self.dropped:
            return True
        channels = 5 if self.preset in PRESETS_WITH_AUX else 4
        first = index * SAMPLES_PER_PACKET
        for channel in range(channels):
            raws = [raw_of(self.rows[(first + k) % len(self.rows)][channel]) for k in range(SAMPLES_PER_PACKET)]
            if not self.eeg_chars[channel].notify(pack_eeg(index & 0xFFFF, raws)):
                self.next_index = index
                return False
        self.sent += 1
        self._send_auxiliary()
        self._send_ppg(index)
        return True

    def _send_ppg(self, index):
        """PPG packets due by the time of EEG packet `index`, counted from the first streamed packet."""
        if not self.ppg_chars:
            return
        elapsed = (index - self.stream_origin) * SAMPLES_PER_PACKET / RATE
        while self.ppg_samples / PPG_RATE <= elapsed:
            samples = [ppg_sample(self.ppg_samples + k) for k in range(6)]
            packet_index = (self.ppg_samples // 6) & 0xFFFF
            for channel, char in enumerate(self.ppg_chars):
                char.notify(packet_index.to_bytes(2, "big")
                            + b"".join(sample[channel].to_bytes(3, "big") for sample in samples))
            self.ppg_samples += 6

    def _send_auxiliary(self):
        now = self.device_seconds()
        if now >= self.next_telemetry and self.telemetry_char is not None:
            self.next_telemetry = now + 1
            fields = [self.aux_index & 0xFFFF, self.battery * 512, int(3700 / 2.2), 3000, 30]
            self.telemetry_char.notify(b"".join(f.to_bytes(2, "big") for f in fields) + bytes(10))
            self.aux_index += 1
        # Every motion packet due by now (3 samples at 52 Hz each: more than one EEG packet's time apart, so some EEG
        # packets carry none and the schedule, not the EEG's, sets the rate); each characteristic counts its own.
        if self.motion and (self.next_motion == 0.0 or now - self.next_motion > 0.5):
            self.next_motion = now  # the first packet, or streaming again after a pause: no catching up
        while self.motion and now >= self.next_motion and self.accelerometer_char is not None:
            self.next_motion += 3 / 52
            for char, xyz, scale in ((self.accelerometer_char, (0.0, 0.0, 1.0), ACCELEROMETER_SCALE),
                                     (self.gyroscope_char, (0.5, -0.5, 0.0), GYROSCOPE_SCALE)):
                counts = [int(round(v / scale)) for v in xyz] * 3
                char.notify((self.motion_index & 0xFFFF).to_bytes(2, "big")
                            + b"".join(c.to_bytes(2, "big", signed=True) for c in counts))
            self.motion_index += 1

    def stats(self):
        stats = super().stats()
        stats.update({
            "sent": dbus.UInt64(self.sent),
            "index": dbus.UInt64(self.next_index),
            "keepalives": dbus.UInt32(self.keepalives),
            "halts": dbus.UInt32(self.halts),
            "streaming": dbus.Boolean(self.pacer.running),
            "preset": dbus.String(self.preset),
            "commands": dbus.String(" ".join(self.commands)),
        })
        return stats

    def shutdown(self):
        super().shutdown()
        self.pacer.stop()


DEVICE_KINDS = [Muse]

# `--preset demo` (scripts/bluez-mock/run.sh) also has a Muse streaming the muse-lsl sample recording, with its
# accelerometer and gyroscope as a real headband always sends them, so its owners can try Axon without hardware:
#   scripts/bluez-mock/run.sh axon demo muse:Muse-0040
_DATASETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "datasets")
mock.PRESETS["demo"].append(("muse", "C0:FF:EE:00:00:40", "Muse-0040", {
    "csv": os.path.normpath(os.path.join(_DATASETS, "muse-p300", "data_2017-02-04-15_45_13-first14s.csv")),
    "motion": "1"}))
