"""A Polar H10 chest strap as Polar's BLE SDK sees it: Polar Measurement Data (PMD) and the Heart Rate service.

The facts come from Polar's public SDK (github.com/polarofficial/polar-ble-sdk: BlePMDClient, PmdControlPointCommand,
PmdControlPointResponse, PmdSetting, PmdDataFrame, EcgData, AccData, documentation/products/PolarH10.md and
documentation/TimeSystemExplained.md); docs/polar.md has the byte layouts.

PMD service fb005c80-02e7-f387-1cad-8acd2d8df0c8:
  fb005c81-…  control point (read, write, indicate). Read: the features `0F 05 00` (ECG and ACC online streaming).
              Write `op [params]`; the answer is indicated as `F0 op type status more [parameters]`:
                01 TYPE        settings: ECG `00 01 82 00 01 01 0E 00` (130 Hz, 14 bit); ACC
                               `00 04 19 00 32 00 64 00 C8 00 01 01 10 00 02 03 02 00 04 00 08 00`
                02 TYPE SET..  start (SET = setting type, count 1, value uint16 LE): ECG needs 130 Hz / 14 bit, ACC
                               25/50/100/200 Hz, 16 bit, ±2/4/8 G; status 06 already started, 07 bad resolution,
                               08 bad rate, 09 bad range, 05 a malformed setting, 02 a type the strap does not stream
                03 TYPE        stop (06 when not started); any other op answers 01 (invalid op code)
  fb005c82-…  data (notify): type u8, timestamp u64 LE = nanoseconds since 2000-01-01 of the frame's LAST sample,
              frame type u8, then samples. ECG (type 00, frame type 00): `samples` × int24 LE µV. ACC (type 02, frame
              type 01): 36 × (x, y, z) int16 LE mG (226 bytes; the ECG's 73 samples make 229, the H10's MTU of 232 − 3).

Heart Rate service 0x180D, Heart Rate Measurement 0x2A37 (notify) once per second of strap time: flags 0x16 (8-bit
bpm, contact detected, RR intervals present), bpm, then the RR intervals (uint16 LE, 1/1024 s) of the beats of the
second that has just ended (flags 0x06 without an RR field when it had none). Body Sensor Location 0x2A38 = 1 (chest). Battery 0x180F, Device Information (model "Polar H10").

The strap's clock starts at 2019-01-01T00:00:00Z (the H10's default time after a power-off, TimeSystemExplained.md)
plus `clock` seconds when the device is made, and runs at `speed` × real time. ECG sample n of the recording (n counted
from the first ECG start; the recording loops) is stamped start + n × 10⁹/130 ns, rounded down; after a stop or a link
loss the next start skips the samples the clock counted meanwhile. ACC sample k (from the first ACC start, at rate r)
is stamped likewise and is (x, y, z) = (round(100 sin(2π·0.25·k/r)), −(k mod 50), 1000) mG. A link loss stops every
measurement (the strap streams only for a connected central), as does a stop.

Options:
  csv=PATH       one column `ecg_uv` (integer µV, 130 Hz): the ECG streamed, looping at its end (required)
  rr=PATH        columns `beat_s,rr_ms`: notification i of the Heart Rate Measurement (sent i s of strap time after
                 the subscription) carries the RR intervals (round(rr_ms × 1024 / 1000)) of the beats of the second
                 that has just ended, i − 1 ≤ beat_s < i (looping every `period` s), and bpm = round(60000 / their
                 mean), else the previous bpm (60 at first); without rr=, bpm 60 and RR 1024 each second
  period=S       the loop of rr.csv in seconds (default: the ECG recording's length, rows / 130)
  speed=S        the strap's clock runs S times real time (default 1)
  samples=N      ECG samples per notification (default 73, what an H10 sends at its MTU of 232)
  drop=A-B+C     ECG frames never sent (lost on the radio), counted from the first ECG frame (0-based)
  acc_drop=A-B   ACC frames never sent, counted likewise
  hr_drop=A-B    Heart Rate Measurement notifications never sent, counted likewise
  clock=S        seconds added to the strap's clock at creation (default 0)
  battery=B      Battery Level (default 90)

Stats add `ecgFrames`, `ecgSamples` (sent), `accFrames`, `accSamples`, `hrSent`, `rrSent`, `streaming`
("ecg acc" as started), `commands` (each control-point write in hex, space-separated), `clockNs` (the strap's time).
"""

import csv
import math
import os
import time

import dbus

PMD_SERVICE = "fb005c80-02e7-f387-1cad-8acd2d8df0c8"
PMD_CONTROL = "fb005c81-02e7-f387-1cad-8acd2d8df0c8"
PMD_DATA = "fb005c82-02e7-f387-1cad-8acd2d8df0c8"
POLAR_SERVICE = mock.uuid16(0xFEEE)  # advertised by Polar sensors next to Heart Rate
BODY_SENSOR_LOCATION = mock.uuid16(0x2A38)

ECG, ACC = 0x00, 0x02
ECG_RATE = 130
ACC_FRAME_SAMPLES = 36
FEATURES = bytes([0x0F, 0x05, 0x00])  # bit 0 ECG, bit 2 ACC
DEFAULT_TIME_NS = 599616000000000000  # 2019-01-01T00:00:00Z in ns since 2000-01-01 (the H10's default)

SETTINGS = {
    ECG: bytes([0x00, 0x01, 0x82, 0x00, 0x01, 0x01, 0x0E, 0x00]),
    ACC: bytes([0x00, 0x04, 0x19, 0x00, 0x32, 0x00, 0x64, 0x00, 0xC8, 0x00,
                0x01, 0x01, 0x10, 0x00, 0x02, 0x03, 0x02, 0x00, 0x04, 0x00, 0x08, 0x00]),
}
ALLOWED = {  # setting type → (allowed values, error status)
    ECG: {0: ({130}, 0x08), 1: ({14}, 0x07)},
    ACC: {0: ({25, 50, 100, 200}, 0x08), 1: ({16}, 0x07), 2: ({2, 4, 8}, 0x09)},
}
SUCCESS, INVALID_OP, INVALID_TYPE, INVALID_PARAMETER, ALREADY_IN_STATE = 0x00, 0x01, 0x02, 0x05, 0x06


def parse_drops(text):
    dropped = set()
    for part in str(text).split("+"):
        if part:
            first, _, last = part.partition("-")
            dropped.update(range(int(first), int(last or first) + 1))
    return dropped


def acc_sample(k, rate):
    """(x, y, z) in mG of ACC sample k at `rate` Hz (the same as PolarMockSignals.accelerometer in the tests)."""
    return (int(round(100 * math.sin(2 * math.pi * 0.25 * k / rate))), -(k % 50), 1000)


def sample_time(origin_ns, n, rate):
    return origin_ns + n * 1_000_000_000 // rate


class Polar(mock.AirDevice):
    """Streams a recorded ECG as PMD frames once started on the control point, plus ACC and heart rate with RR."""

    KIND = "polar"
    OPTIONS = mock.AirDevice.OPTIONS | {"csv", "rr", "period", "speed", "samples", "drop", "acc_drop", "hr_drop",
                                        "clock", "battery"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        if "csv" not in options:
            raise mock.invalid_args("a polar device needs csv=PATH (a column ecg_uv in µV at 130 Hz)")
        with open(str(options["csv"]), newline="") as handle:
            self.ecg = [int(row["ecg_uv"]) for row in csv.DictReader(handle)]
        if not self.ecg:
            raise mock.invalid_args("the ECG recording has no rows")
        self.beats = []
        if "rr" in options:
            with open(str(options["rr"]), newline="") as handle:
                self.beats = [(float(row["beat_s"]), int(row["rr_ms"])) for row in csv.DictReader(handle)]
        self.period = float(options.get("period", len(self.ecg) / ECG_RATE))
        self.speed = float(options.get("speed", 1))
        self.samples = int(options.get("samples", 73))
        if not 1 <= self.samples <= 73:
            raise mock.invalid_args("samples must be 1 … 73 (a 229-byte notification)")
        self.dropped = {ECG: parse_drops(options.get("drop", "")), ACC: parse_drops(options.get("acc_drop", ""))}
        self.hr_dropped = parse_drops(options.get("hr_drop", ""))
        self.battery = int(options.get("battery", 90))
        self.advertised_uuids = [mock.HEART_RATE_SERVICE, POLAR_SERVICE]
        self.born = time.monotonic()
        self.clock_offset_ns = DEFAULT_TIME_NS + int(float(options.get("clock", 0)) * 1e9)
        self.control_char = self.data_char = self.hr_char = None
        self.commands = []
        self.started = {}  # type → settings {setting type: value} while started
        self.origin_ns = {}  # type → the strap time of sample 0 (set at the first start)
        self.next_sample = {ECG: 0, ACC: 0}
        self.frames = {ECG: 0, ACC: 0}  # frames made (sent or dropped) since the first start
        self.sent_frames = {ECG: 0, ACC: 0}
        self.sent_samples = {ECG: 0, ACC: 0}
        self.pacers = {ECG: mock.NotificationPacer(ECG_RATE / self.samples * self.speed, lambda: self._send(ECG)),
                       ACC: mock.NotificationPacer(1.0, lambda: self._send(ACC))}
        self.hr_pacer = mock.NotificationPacer(self.speed, self._send_hr)
        self.hr_index = 0
        self.hr_sent = 0
        self.rr_sent = 0
        self.bpm = 60

    def build_gatt(self):
        service = self.add_service(0x0030, PMD_SERVICE)
        self.control_char = self.add_characteristic(service, 0x0031, PMD_CONTROL, ["read", "write", "indicate"],
                                                    FEATURES)
        self.data_char = self.add_characteristic(service, 0x0034, PMD_DATA, ["notify"])
        heart = self.add_service(0x000E, mock.HEART_RATE_SERVICE)
        self.hr_char = self.add_characteristic(heart, 0x000F, mock.HEART_RATE_MEASUREMENT, ["notify"])
        self.add_characteristic(heart, 0x0012, BODY_SENSOR_LOCATION, ["read"], bytes([1]))
        self.battery_char = mock.add_battery_service(self, 0x0040, self.battery)
        mock.add_device_info_service(self, 0x0050, "Polar H10")

    def forget_gatt(self):
        super().forget_gatt()
        self.control_char = self.data_char = self.hr_char = None
        self._stop_all()

    # -- the strap's clock

    def clock_ns(self):
        return self.clock_offset_ns + int((time.monotonic() - self.born) * self.speed * 1e9)

    # -- control point

    def written(self, characteristic, value, write_type):
        if characteristic.uuid != PMD_CONTROL:
            return
        data = bytes(value)
        self.commands.append(data.hex())
        if not data:
            raise mock.BluezError("Failed", "empty PMD command")
        op = data[0]
        kind = data[1] if len(data) > 1 else 0
        if op == 0x01 and len(data) == 2:
            if kind in SETTINGS:
                self._answer(op, kind, SUCCESS, SETTINGS[kind])
            else:
                self._answer(op, kind, INVALID_TYPE)
        elif op == 0x02 and len(data) >= 2:
            self._answer(op, kind, self._start(kind, data[2:]))
        elif op == 0x03 and len(data) == 2:
            if kind not in SETTINGS:
                self._answer(op, kind, INVALID_TYPE)
            elif kind not in self.started:
                self._answer(op, kind, ALREADY_IN_STATE)
            else:
                del self.started[kind]
                self.pacers[kind].stop()
                self._answer(op, kind, SUCCESS)
        else:
            self._answer(op, kind, INVALID_OP)

    def _start(self, kind, params):
        if kind not in SETTINGS:
            return INVALID_TYPE
        if kind in self.started:
            return ALREADY_IN_STATE
        settings = {}
        offset = 0
        while offset < len(params):
            if offset + 4 > len(params) or params[offset + 1] != 1:
                return INVALID_PARAMETER
            settings[params[offset]] = params[offset + 2] | params[offset + 3] << 8
            offset += 4
        for setting, (allowed, error) in ALLOWED[kind].items():
            if settings.get(setting) not in allowed:
                return error
        if set(settings) - set(ALLOWED[kind]):
            return INVALID_PARAMETER
        self.started[kind] = settings
        rate = settings[0]
        now = self.clock_ns()
        if kind not in self.origin_ns:
            self.origin_ns[kind] = now
        else:
            # The samples the strap's clock counted while it was not streaming are not sent.
            elapsed = (now - self.origin_ns[kind]) * rate // 1_000_000_000
            self.next_sample[kind] = max(self.next_sample[kind], elapsed)
        per_frame = self.samples if kind == ECG else ACC_FRAME_SAMPLES
        self.pacers[kind].rate = rate / per_frame * self.speed
        self.streaming_changed()
        return SUCCESS

    def _answer(self, op, kind, status, parameters=b""):
        answer = bytes([0xF0, op, kind, status])
        if status == SUCCESS:
            answer += bytes([0x00]) + parameters  # `more` = 0: everything fits one indication
        if self.control_char is not None:
            self.control_char.notify(answer)
            # A read of the control point still returns the features, whatever was indicated.
            self.control_char.props[mock.CHAR_IFACE]["Value"] = mock.byte_array(FEATURES)

    # -- streaming

    def streaming_changed(self):
        data_ok = self.data_char is not None and self.data_char.streaming
        for kind, pacer in self.pacers.items():
            if data_ok and kind in self.started:
                pacer.start()
            else:
                pacer.stop()
        if self.hr_char is not None and self.hr_char.streaming:
            self.hr_pacer.start()
        else:
            self.hr_pacer.stop()

    def _stop_all(self):
        self.started.clear()
        for pacer in self.pacers.values():
            pacer.stop()
        self.hr_pacer.stop()

    def disconnect(self):
        super().disconnect()
        self._stop_all()  # the strap streams PMD only for a connected central

    def _send(self, kind):
        if kind not in self.started or self.data_char is None:
            return False
        rate = self.started[kind][0]
        count = self.samples if kind == ECG else ACC_FRAME_SAMPLES
        first = self.next_sample[kind]
        last = first + count - 1
        stamp = sample_time(self.origin_ns[kind], last, rate)
        header = bytes([kind]) + stamp.to_bytes(8, "little")
        if kind == ECG:
            body = bytes([0x00]) + b"".join(
                (self.ecg[(first + k) % len(self.ecg)] & 0xFFFFFF).to_bytes(3, "little") for k in range(count))
        else:
            body = bytes([0x01]) + b"".join(
                v.to_bytes(2, "little", signed=True) for k in range(count) for v in acc_sample(first + k, rate))
        frame = self.frames[kind]
        if frame not in self.dropped[kind]:
            if not self.data_char.notify(header + body):
                return False
            self.sent_frames[kind] += 1
            self.sent_samples[kind] += count
        self.frames[kind] += 1
        self.next_sample[kind] = last + 1
        return True

    def rr_of_second(self, index):
        """The RR intervals (ms) of the beats with index ≤ time < index + 1 on the looped beat timeline."""
        if not self.beats or self.period <= 0:
            return []
        lap = int(index // self.period)
        found = []
        for m in (lap - 1, lap, lap + 1):
            if m < 0:
                continue
            for beat_s, rr_ms in self.beats:
                if index <= beat_s + m * self.period < index + 1:
                    found.append(rr_ms)
        return found

    def _send_hr(self):
        if self.hr_char is None:
            return False
        index = self.hr_index
        if self.beats:
            # Sent at the start of second `index`: the beats of the second that has just ended.
            millis = self.rr_of_second(index - 1) if index > 0 else []
            if millis:
                self.bpm = int(round(60000 / (sum(millis) / len(millis))))
        else:
            millis = [60000 / self.bpm]
        units = [int(round(ms * 1024 / 1000)) for ms in millis]
        value = bytes([0x16 if units else 0x06, self.bpm & 0xFF]) + b"".join(u.to_bytes(2, "little") for u in units)
        if index not in self.hr_dropped:
            if not self.hr_char.notify(value):
                return False
            self.hr_sent += 1
            self.rr_sent += len(units)
        self.hr_index += 1
        return True

    def stats(self):
        stats = super().stats()
        stats.update({
            "sent": dbus.UInt64(self.sent_frames[ECG]),
            "ecgFrames": dbus.UInt64(self.sent_frames[ECG]),
            "ecgSamples": dbus.UInt64(self.sent_samples[ECG]),
            "accFrames": dbus.UInt64(self.sent_frames[ACC]),
            "accSamples": dbus.UInt64(self.sent_samples[ACC]),
            "hrSent": dbus.UInt64(self.hr_sent),
            "rrSent": dbus.UInt64(self.rr_sent),
            "streaming": dbus.String(" ".join(name for kind, name in ((ECG, "ecg"), (ACC, "acc"))
                                              if kind in self.started)),
            "commands": dbus.String(" ".join(self.commands)),
            "clockNs": dbus.UInt64(self.clock_ns()),
        })
        return stats

    def shutdown(self):
        super().shutdown()
        self._stop_all()


DEVICE_KINDS = [Polar]

# `--preset demo` (scripts/bluez-mock/run.sh) also has an H10 streaming the real ECG of datasets/mitdb-208-ecg, so its
# owners can try Axon without a strap:
#   scripts/bluez-mock/run.sh axon record "polar:Polar H10 0A3B5C7D" --out ecg.edf --seconds 60
_DATASET = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "datasets",
                                         "mitdb-208-ecg"))
mock.PRESETS["demo"].append(("polar", "C0:FF:EE:00:00:50", "Polar H10 0A3B5C7D", {
    "csv": os.path.join(_DATASET, "ecg-130hz-uv.csv"), "rr": os.path.join(_DATASET, "rr.csv")}))
