"""An OpenBCI Ganglion on Bluetooth LE, streaming four channels of an OpenBCI GUI recording in its packet format.

Service 0xFE84; notifications on 2d30c082-f39f-4ce6-923f-3484ea480596, commands written to
2d30c083-f39f-4ce6-923f-3484ea480596 (`b` start, `s` stop, `z`/`Z` impedance check on/off), disconnect 2d30c084-…

After `b` it sends one raw packet (id 0: 4 channels × int24 big-endian), then 19-bit delta packets with ids
101…200, cycling, 100 per second (two samples each: 200 Hz). A delta's sign sits in its least significant bit
(set = negative, and the value is the 19-bit two's complement), and each sample is the previous one minus the delta.
Since a positive delta must be even and a negative one odd, the simulator tracks what the receiver rebuilds and
picks the representable delta nearest to the next value, so the rebuilt samples stay within one count of it.

Options:
  recording=PATH   an OpenBCI GUI text recording (required), streamed each channel minus its first value, as
                   counts of 1.2 V / (8388607 × 1.5 × 51), looping at the end
  channels=A+B+C+D its EXG channels to stream (default 2+3+6+7: a 19-bit delta carries at most ±490 µV per
                   sample, and these channels step further in 34 of 22,490 samples; a step that does not fit is
                   carried over the next samples)
  speed=S          packets per second × S (default 1)
  electrodes=A+B+C+D+R  the impedance of each electrode (channels 1-4 and the reference) in kΩ, as the OpenBCI
                   GUI shows it: the board measures each electrode in series with the driven-ground (D_G)
                   electrode and reports the sum, and the GUI halves what it reports, taking D_G to be comparable;
                   so the board here reports round(electrode + ground) kΩ (default ground: each electrode itself)
  ground=G         the D_G electrode's impedance in kΩ (default: equal to each electrode, the GUI's assumption)
  impedance=A+B+C+D+R  the board's reports themselves, in kΩ (default 12+15+9+31+5; electrodes= overrides it)

The impedance check is the firmware's (OpenBCI_Ganglion_Library): `z` stops a running stream and measures channel
1, 2, 3, 4, then the reference, about 0.5 s each (1000 current samples 500 µs apart), over and over; each result
is one notification of 1 + n bytes, unpadded: id 201-205 then the value's ASCII digits and `Z` (a value of 0 or
less has no digits: just `Z`). `Z` ends the check and restarts the stream if `z` had stopped one (a raw packet
first, as after `b`); `b` during the check ends it too and starts streaming.

Stats add `sent` (notifications), `streaming`, `commands`, `impedance_sent`, `checking_impedance`.
"""

import os

import dbus

SERVICE = mock.uuid16(0xFE84)
RECEIVE = "2d30c082-f39f-4ce6-923f-3484ea480596"
SEND = "2d30c083-f39f-4ce6-923f-3484ea480596"
DISCONNECT = "2d30c084-f39f-4ce6-923f-3484ea480596"
MICROVOLTS_PER_COUNT = 1.2e6 / (8388607 * 1.5 * 51)
PACKETS_PER_SECOND = 100
IMPEDANCE_SECONDS = 0.5  # one channel's measurement: UA_SAMPLE_LIMIT 1000 samples × UA_SAMPLE_TIME 500 µs


def read_recording(path, channels):
    rows = []
    with open(path) as handle:
        header = None
        for line in handle:
            if line.startswith("%"):
                continue
            fields = [f.strip() for f in line.split(",")]
            if header is None:
                header = fields
                columns = [header.index("EXG Channel %d" % k) for k in channels]
                continue
            rows.append([float(fields[c]) for c in columns])
    first = rows[0]
    return [[int(round((v - v0) / MICROVOLTS_PER_COUNT)) for v, v0 in zip(row, first)] for row in rows]


def representable(delta):
    """The 19-bit delta nearest to `delta` that the format can carry: even when positive, odd when negative."""
    delta = max(-(1 << 18), min((1 << 18) - 2, delta))
    if delta >= 0 and delta % 2 == 1:
        delta -= 1
    elif delta < 0 and delta % 2 == 0:
        delta += 1
    return delta


def pack19(deltas):
    bits = 0
    for d in deltas:
        bits = (bits << 19) | (d & 0x7FFFF)
    return bits.to_bytes(19, "big")


class Ganglion(mock.AirDevice):
    """Streams a recording's first four channels as the Ganglion's raw and 19-bit delta packets after `b`."""

    KIND = "ganglion"
    OPTIONS = mock.AirDevice.OPTIONS | {"recording", "speed", "channels", "impedance", "electrodes", "ground"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        if "recording" not in options:
            raise mock.invalid_args("a ganglion device needs recording=PATH (an OpenBCI GUI text file)")
        channels = [int(c) for c in str(options.get("channels", "2+3+6+7")).split("+")]
        if len(channels) != 4:
            raise mock.invalid_args("a ganglion streams 4 channels")
        self.rows = read_recording(str(options["recording"]), channels)
        self.speed = float(options.get("speed", 1))
        self.impedance = [int(v) for v in str(options.get("impedance", "12+15+9+31+5")).split("+")]
        if len(self.impedance) != 5:
            raise mock.invalid_args("impedance= needs five values (channels 1-4 and the reference)")
        if "electrodes" in options:
            electrodes = [float(v) for v in str(options["electrodes"]).split("+")]
            if len(electrodes) != 5:
                raise mock.invalid_args("electrodes= needs five values in kΩ (channels 1-4 and the reference)")
            ground = options.get("ground")
            self.impedance = [int(round(e + (float(ground) if ground is not None else e))) for e in electrodes]
        self.checking_impedance = False
        self.resume_after_check = False
        self.impedance_timer = None
        self.impedance_channel = 0
        self.impedance_sent = 0
        self.advertised_uuids = [SERVICE]
        self.receive_char = None
        self.wants_stream = False
        self.commands = []
        self.sent = 0
        self.row = 0
        self.packet_id = None
        self.rebuilt = None
        self.pacer = mock.NotificationPacer(PACKETS_PER_SECOND * self.speed, self._send_next)

    def build_gatt(self):
        service = self.add_service(0x0050, SERVICE)
        self.receive_char = self.add_characteristic(service, 0x0051, RECEIVE, ["notify"])
        self.add_characteristic(service, 0x0054, SEND, ["write", "write-without-response"])
        self.add_characteristic(service, 0x0056, DISCONNECT, ["write", "write-without-response"])

    def forget_gatt(self):
        super().forget_gatt()
        self.receive_char = None
        self.pacer.stop()

    def written(self, characteristic, value, write_type):
        if characteristic.uuid != SEND:
            return
        text = bytes(value).decode("ascii", "replace")
        self.commands.append(text)
        if text == "b":
            self._end_impedance_check()
            self.wants_stream = True
            self.packet_id = None  # a raw packet opens every stream
        elif text == "s":
            self.wants_stream = False
        elif text == "z":
            if not self.checking_impedance:
                self.resume_after_check = self.wants_stream
            self.wants_stream = False
            self.checking_impedance = True
            self.impedance_channel = 0
            self._start_impedance_timer()
        elif text == "Z":
            self._end_impedance_check()
            if self.resume_after_check:
                self.resume_after_check = False
                self.wants_stream = True
                self.packet_id = None
        self.streaming_changed()

    def _start_impedance_timer(self):
        if self.impedance_timer is None:
            self.impedance_timer = mock.GLib.timeout_add(
                int(IMPEDANCE_SECONDS * 1000 / self.speed), self._send_impedance)

    def _end_impedance_check(self):
        self.checking_impedance = False
        if self.impedance_timer is not None:
            mock.GLib.source_remove(self.impedance_timer)
            self.impedance_timer = None

    def _send_impedance(self):
        """One channel's measurement is done: its packet, as the firmware's serial buffer sends it."""
        if not self.checking_impedance:
            self.impedance_timer = None
            return False
        channel = self.impedance_channel
        self.impedance_channel = (channel + 1) % 5
        value = self.impedance[channel]
        text = (str(value) if value > 0 else "").encode("ascii") + b"Z"
        if self.receive_char is not None and self.receive_char.notify(bytes([201 + channel]) + text):
            self.impedance_sent += 1
        return True

    def disconnect(self):
        super().disconnect()
        self.wants_stream = False
        self.resume_after_check = False
        self._end_impedance_check()
        self.pacer.stop()

    def streaming_changed(self):
        possible = self.wants_stream and self.receive_char is not None and self.receive_char.streaming
        if possible and not self.pacer.running:
            self.pacer.start()
        elif not possible:
            self.pacer.stop()

    def _next_row(self):
        row = self.rows[self.row % len(self.rows)]
        self.row += 1
        return row

    def _send_next(self):
        if self.packet_id is None:
            counts = self._next_row()
            packet = bytes([0]) + b"".join((c & 0xFFFFFF).to_bytes(3, "big") for c in counts) + bytes(7)
            if not self.receive_char.notify(packet):
                self.row -= 1
                return False
            self.rebuilt = list(counts)
            self.packet_id = 100
            self.sent += 1
            return True
        next_id = 101 if self.packet_id >= 200 or self.packet_id < 101 else self.packet_id + 1
        deltas = []
        rebuilt = list(self.rebuilt)
        for _ in range(2):
            target = self._next_row()
            sample_deltas = [representable(r - t) for r, t in zip(rebuilt, target)]
            rebuilt = [r - d for r, d in zip(rebuilt, sample_deltas)]
            deltas += sample_deltas
        if not self.receive_char.notify(bytes([next_id]) + pack19(deltas)):
            self.row -= 2
            return False
        self.rebuilt = rebuilt
        self.packet_id = next_id
        self.sent += 1
        return True

    def stats(self):
        stats = super().stats()
        stats.update({
            "sent": dbus.UInt64(self.sent),
            "streaming": dbus.Boolean(self.pacer.running),
            "commands": dbus.String(" ".join(self.commands)),
            "impedance_sent": dbus.UInt32(self.impedance_sent),
            "checking_impedance": dbus.Boolean(self.checking_impedance),
        })
        return stats

    def shutdown(self):
        super().shutdown()
        self._end_impedance_check()
        self.pacer.stop()


DEVICE_KINDS = [Ganglion]

# `--preset demo` (scripts/bluez-mock/run.sh) also has a Ganglion streaming four channels of the OpenBCI GUI's sample
# recording:   scripts/bluez-mock/run.sh axon demo ganglion:Ganglion-0030
_DATASETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "datasets")
mock.PRESETS["demo"].append(("ganglion", "C0:FF:EE:00:00:30", "Ganglion-0030", {
    "recording": os.path.normpath(os.path.join(
        _DATASETS, "openbci-cyton-eyes-closed", "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"))}))
