"""Bathroom scales for the mock bluetoothd (loaded by mock_bluetoothd.load_kind_modules; `mock` is that module).

wss  A standard Bluetooth SIG scale: Weight Scale service (0x181D: Weight Measurement 0x2A9D indicate, Weight
     Scale Feature 0x2A9E read) and Body Composition service (0x181B: Body Composition Measurement 0x2A9C indicate,
     Body Composition Feature 0x2A9B read), Battery and Device Information. Someone "steps on" it once, 0.3 s after
     a client subscribes to Weight Measurement, and then every `interval` seconds if that is > 0: a time-stamped
     Weight Measurement (user 1, BMI and height) and, when `composition=1` and 0x2A9C is subscribed, a two-packet
     Body Composition Measurement (Multiple Packet bit on the first) sent before it.
     Options: weight (kg, 77.6), imperial (0/1: 0.01 lb instead of 0.005 kg), composition (0/1, 1), fat (%, 25.0),
     interval (s, 0), battery (%, 80), rssi.
     Stats: sent (Weight Measurements indicated), lastTime (Unix time of the last one).

hs3, hs4, hs5  The iHealth models as Axon simulates them (docs/scale-protocol.md): service
     5ca1e000-a7e0-4d5c-8f00-000000000001 with a command characteristic (…0002, write) and a response
     characteristic (…0003, notify). They answer identify, authorise, measure, memory, Bluetooth switch (HS3) and
     user commands (HS5) like SimulatedScale in AxonScales: an HS3 or HS4 refuses memory until authorised (error 111), an
     HS5 measures and transfers only for a user it knows (111) and keeps 20 positions by the seed's rules (15 with
     a detail byte), an empty memory is the model's "no memory" code. Memory frames go out 20 every 5 ms.
     Options: records (0…200, 200; one a day at 07:30 UTC from 2025-01-01 as SimulatedScale.Configuration.records),
     weight (kg, 71.4), firmware (1.0.2), link_loss_after (drop the link once after this many records, 0 = never),
     outage (s, 1), error (an SDK error code answering the next measure or memory command), users (HS5: serial numbers at positions 0, 1, … separated by ":"), battery, rssi. Stats: recordsSent, memoryRequests (the `from` index of each request, as a list).
"""

import struct
import time

STEP_DELAY_MS = 300


def date_time(unix_time):
    t = time.gmtime(unix_time)
    return struct.pack("<HBBBBB", t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)


class StandardScale(mock.AirDevice):
    KIND = "wss"
    OPTIONS = mock.AirDevice.OPTIONS | {"weight", "imperial", "composition", "fat", "interval", "battery"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.weight = float(options.get("weight", 77.6))
        self.imperial = bool(int(options.get("imperial", 0)))
        self.composition = bool(int(options.get("composition", 1)))
        self.fat = float(options.get("fat", 25.0))
        self.interval = float(options.get("interval", 0))
        self.battery = int(options.get("battery", 80))
        self.advertised_uuids = [mock.uuid16(0x181D), mock.uuid16(0x181B)]
        self.weight_char = None
        self.composition_char = None
        self.sent = 0
        self.last_time = 0
        self.stepped_this_connection = False
        self.pacer = None

    def build_gatt(self):
        wss = self.add_service(0x0050, mock.uuid16(0x181D))
        self.weight_char = self.add_characteristic(wss, 0x0051, mock.uuid16(0x2A9D), ["indicate"])
        # Time stamp, multiple users, BMI; weight resolution 0.005 kg (code 7), height 0.001 m (code 3).
        feature = 0b111 | 7 << 3 | 3 << 7
        self.add_characteristic(wss, 0x0054, mock.uuid16(0x2A9E), ["read"], struct.pack("<I", feature))
        bcs = self.add_service(0x0060, mock.uuid16(0x181B))
        self.composition_char = self.add_characteristic(bcs, 0x0061, mock.uuid16(0x2A9C), ["indicate"])
        self.add_characteristic(bcs, 0x0064, mock.uuid16(0x2A9B), ["read"], struct.pack("<I", 0x3E))
        self.battery_char = mock.add_battery_service(self, 0x0070, self.battery)
        mock.add_device_info_service(self, 0x0080, "Weight Scale")

    def forget_gatt(self):
        super().forget_gatt()
        self.weight_char = None
        self.composition_char = None
        self.battery_char = None
        self._stop_pacer()

    def disconnect(self):
        super().disconnect()
        self.stepped_this_connection = False

    def streaming_changed(self):
        if self.weight_char is not None and self.weight_char.streaming:
            if not self.stepped_this_connection:
                self.stepped_this_connection = True
                self._later(STEP_DELAY_MS, self.epoch, self._start_stepping)
        else:
            self._stop_pacer()

    def _start_stepping(self):
        if self.interval > 0:
            if self.pacer is None:
                self.pacer = mock.NotificationPacer(1.0 / self.interval, self.step_on)
            self.pacer.start()
        else:
            self.step_on()

    def _stop_pacer(self):
        if self.pacer is not None:
            self.pacer.stop()

    def weight_raw(self):
        if self.imperial:
            return int(round(self.weight / 0.45359237 * 100))
        return int(round(self.weight / 0.005))

    def step_on(self):
        """One measurement: body composition packets first (when subscribed), then the weight."""
        if self.weight_char is None or not self.weight_char.streaming:
            return False
        now = int(time.time())
        stamp = date_time(now)
        if self.composition and self.composition_char is not None and self.composition_char.streaming:
            fat = int(round(self.fat * 10))
            # Packet 1: Multiple Packet (bit 12) + time stamp (1) + user id (2) + impedance (9).
            first = struct.pack("<HH", 1 << 12 | 1 << 1 | 1 << 2 | 1 << 9 | (1 if self.imperial else 0), fat)
            first += stamp + bytes([1]) + struct.pack("<H", 5123)
            # Packet 2: weight (10) + height (11).
            height = 689 if self.imperial else 1750
            second = struct.pack("<HHHH", 1 << 10 | 1 << 11 | (1 if self.imperial else 0), fat, self.weight_raw(), height)
            self.composition_char.notify(first)
            self.composition_char.notify(second)
        flags = 0x0E | (1 if self.imperial else 0)
        height = 689 if self.imperial else 1750
        value = struct.pack("<BH", flags, self.weight_raw()) + stamp + bytes([1]) + struct.pack("<HH", 253, height)
        if not self.weight_char.notify(value):
            return False
        self.sent += 1
        self.last_time = now
        return True

    def stats(self):
        stats = super().stats()
        stats["sent"] = mock.dbus.UInt64(self.sent)
        stats["lastTime"] = mock.dbus.UInt64(self.last_time)
        return stats

    def shutdown(self):
        super().shutdown()
        self._stop_pacer()


SCALE_SERVICE = "5ca1e000-a7e0-4d5c-8f00-000000000001"
SCALE_COMMAND = "5ca1e000-a7e0-4d5c-8f00-000000000002"
SCALE_RESPONSE = "5ca1e000-a7e0-4d5c-8f00-000000000003"
FRAMES_PER_TICK = 20
TICK_MS = 5
VALIDATION_PERMITS = {0, 1, 2, 3}  # register, login, combined, trial success


def centi(kg):
    return int(round(kg * 100))


def composition_bytes(weight, fat, water, muscle, bone, level, dci, impedance):
    def word(value, scale):
        return 0xFFFF if value is None else int(round(value * scale))
    return struct.pack("<HHHHHBHH", word(weight, 100), word(fat, 10), word(water, 10), word(muscle, 10),
                       word(bone, 100), 0xFF if level is None else level, 0xFFFF if dci is None else dci,
                       word(impedance, 10))


class IHealthScale(mock.AirDevice):
    """HS3/HS4/HS5 over Axon's scale framing; subclasses set KIND, MODEL and the model's error codes."""

    MODEL = 0
    NO_MEMORY = 0
    USER_INVALID = 111
    OPTIONS = mock.AirDevice.OPTIONS | {"records", "weight", "firmware", "link_loss_after", "outage", "battery", "users",
                                                 "error"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.advertised_uuids = [SCALE_SERVICE]
        count = int(options.get("records", 200))
        if not 0 <= count <= 200:
            raise mock.invalid_args("records must be 0...200")
        self.records = [self.record(i) for i in range(count)]
        self.weight = float(options.get("weight", 71.4))
        self.firmware = [int(p) for p in str(options.get("firmware", "1.0.2")).split(".")][:3]
        self.link_loss_after = int(options.get("link_loss_after", 0))
        self.outage = float(options.get("outage", 1))
        self.battery = int(options.get("battery", 85))
        self.response_char = None
        self.outbox = []
        self.timer = None
        self.validated = False
        self.bluetooth_on = True
        self.users = {}  # position -> (serial, user bytes)
        self.ever_occupied = set()  # positions that ever held a user: none takes a new one (the seed's rule)
        serials = [int(x) for x in str(options.get("users", "")).split(":") if x]
        if len(serials) > 20:
            raise mock.invalid_args("an HS5 has 20 user positions")
        for position, serial in enumerate(serials):
            # birthday 1990-01-01, 170 cm, not an athlete, female
            self.users[position] = (serial, struct.pack("<IHBBBBB", serial, 1990, 1, 1, 170, 0, 0))
            self.ever_occupied.add(position)
        self.records_sent = 0
        self.memory_requests = []
        self.injected_error = int(options.get("error", -1))  # answers the next measure or memory command

    def record(self, i):
        kg = 70 + ((i * 37) % 41 - 20) / 10.0
        return (1735716600 + i * 86400, kg, i)

    def record_frame(self, index):
        time_, kg, i = self.records[index]
        frame = struct.pack("<BHIH", 0x85, index, time_, centi(kg))
        if self.MODEL == 5:
            return frame + bytes([1]) + composition_bytes(kg, 22 + (i % 7) / 10.0, 55.1, 38.2, 2.9, 7, 1850, None)
        return frame + bytes([0])

    def build_gatt(self):
        service = self.add_service(0x0090, SCALE_SERVICE)
        self.add_characteristic(service, 0x0091, SCALE_COMMAND, ["write"])
        self.response_char = self.add_characteristic(service, 0x0094, SCALE_RESPONSE, ["notify"])
        self.battery_char = mock.add_battery_service(self, 0x00A0, self.battery)
        mock.add_device_info_service(self, 0x00B0, "HS%d" % self.MODEL)

    def forget_gatt(self):
        super().forget_gatt()
        self.response_char = None
        self.battery_char = None
        self._stop()

    def disconnect(self):
        super().disconnect()
        self.outbox = []  # whatever was not yet sent is lost with the link; the tick then stops by itself

    # -- sending

    def queue(self, frame, action=None):
        self.outbox.append((frame, action))
        if self.timer is None:
            self.timer = mock.GLib.timeout_add(TICK_MS, self._tick)

    def _tick(self):
        if self.response_char is not None and not self.response_char.streaming and self.connected:
            # Reconnected, but the subscription is not back yet: a peripheral cannot notify before the client
            # has re-enabled notifications, so it holds its answers until then.
            return True
        for _ in range(FRAMES_PER_TICK):
            if not self.outbox or self.response_char is None:
                break
            frame, action = self.outbox.pop(0)
            if frame is not None:
                self.response_char.notify(frame)
            if action is not None:
                action()
        if self.outbox:
            return True
        self.timer = None
        return False

    def _stop(self):
        if self.timer is not None:
            mock.GLib.source_remove(self.timer)
            self.timer = None

    def error(self, code, detail=0, argument=0):
        self.queue(struct.pack("<BBBI", 0xE0, code, detail, argument))

    def result(self, command, success=True):
        self.queue(bytes([0x82, command, 1 if success else 0]))

    # -- commands

    def written(self, char, value, write_type):
        if char.uuid != SCALE_COMMAND or not value:
            return
        handler = {0x01: self.identify, 0x02: self.authorise, 0x03: self.measure, 0x04: self.memory,
                   0x05: self.bluetooth, 0x10: self.list_users, 0x11: self.create_user,
                   0x12: self.modify_user, 0x13: self.delete_user}.get(value[0])
        if handler is None:
            return
        try:
            handler(value)
        except struct.error:
            pass  # a malformed command gets no answer, as from a real scale

    def identify(self, value):
        self.queue(bytes([0x81, self.MODEL] + (self.firmware + [0, 0, 0])[:3]))

    def authorise(self, value):
        self.validated = value[1] in VALIDATION_PERMITS
        self.result(0x02)

    def knows(self, serial):
        return any(s == serial for s, _ in self.users.values())

    def measurement_frames(self):
        kg = self.weight
        frames = [] if self.MODEL == 3 else [struct.pack("<BH", 0x90, centi(round(f * kg, 2))) for f in (0.6, 0.9, 0.98)]
        frames.append(struct.pack("<BH", 0x91, centi(kg)))
        if self.MODEL == 5:
            frames.append(struct.pack("<BH", 0x92, centi(kg)))
            frames.append(bytes([0x93]) + composition_bytes(kg, 21.5, 56.3, 39.8, 3.1, 6, 1920, 512.3))
        return frames

    def take_injected_error(self):
        code, self.injected_error = self.injected_error, -1
        if code >= 0:
            self.error(code)
            return True
        return False

    def measure(self, value):
        _, _, serial = struct.unpack("<BBI", value)
        if self.take_injected_error():
            return
        if self.MODEL == 5 and not self.knows(serial):
            return self.error(self.USER_INVALID)
        self.result(0x03)
        for frame in self.measurement_frames():
            self.queue(frame)

    def memory(self, value):
        _, start, serial = struct.unpack("<BHI", value)
        self.memory_requests.append(start)
        if self.take_injected_error():
            return
        if self.MODEL in (3, 4) and not self.validated:
            return self.error(self.USER_INVALID)
        if self.MODEL == 5 and not self.knows(serial):
            return self.error(self.USER_INVALID)
        if not self.records:
            return self.error(self.NO_MEMORY)
        self.queue(struct.pack("<BH", 0x84, len(self.records)))
        for index in range(start, len(self.records)):
            self.queue(self.record_frame(index), self._record_sent)
        self.queue(bytes([0x86]))

    def _record_sent(self):
        self.records_sent += 1
        if self.link_loss_after and self.records_sent == self.link_loss_after:
            self.link_loss(self.outage)

    def bluetooth(self, value):
        if self.MODEL != 3:
            return self.result(0x05, False)
        self.bluetooth_on = value[1] == 1
        self.result(0x05)

    def list_users(self, value):
        frame = bytes([0x8A, len(self.users)])
        for position in sorted(self.users):
            frame += struct.pack("<BI", position, self.users[position][0])
        self.queue(frame)

    def create_user(self, value):
        position = value[1]
        serial = struct.unpack("<I", value[2:6])[0]
        if self.MODEL != 5:
            return self.result(0x11, False)
        if position >= 20:
            return self.error(15, 3, position)
        if len(self.users) >= 20:
            return self.error(15, 1, 0)
        if position in self.users:
            return self.error(15, 2, position)
        if position in self.ever_occupied:
            return self.error(15, 6, position)
        if self.knows(serial):
            return self.error(15, 5, serial)
        self.users[position] = (serial, bytes(value[2:]))
        self.ever_occupied.add(position)
        self.result(0x11)

    def modify_user(self, value):
        serial = struct.unpack("<I", value[1:5])[0]
        for position, (known, _) in list(self.users.items()):
            if known == serial:
                self.users[position] = (serial, bytes(value[1:]))
                return self.result(0x12)
        self.error(111, 4, serial)

    def delete_user(self, value):
        serial = struct.unpack("<I", value[1:5])[0]
        for position, (known, _) in list(self.users.items()):
            if known == serial:
                del self.users[position]
                return self.result(0x13)
        self.error(111, 4, serial)

    def stats(self):
        stats = super().stats()
        stats["recordsSent"] = mock.dbus.UInt64(self.records_sent)
        stats["memoryRequests"] = mock.dbus.Array([mock.dbus.UInt32(r) for r in self.memory_requests], signature="u")
        return stats

    def shutdown(self):
        super().shutdown()
        self._stop()


class HS3(IHealthScale):
    KIND = "hs3"
    MODEL = 3
    NO_MEMORY = 5


class HS4(IHealthScale):
    KIND = "hs4"
    MODEL = 4
    NO_MEMORY = 9


class HS5(IHealthScale):
    KIND = "hs5"
    MODEL = 5
    NO_MEMORY = 14


DEVICE_KINDS = [StandardScale, HS3, HS4, HS5]

# `--preset demo` (scripts/bluez-mock/run.sh) also has a standard scale and an HS5:
#   axon scale measure ble:Scale-0010        axon scale users ble:HS5-0011 --model hs5 list
mock.PRESETS["demo"].append(("wss", "C0:FF:EE:00:00:10", "Scale-0010", {}))
# The HS5 knows the CLI's default user (user@example.org: serial number 47556360, FNV-1a of the id) at position 0.
mock.PRESETS["demo"].append(("hs5", "C0:FF:EE:00:00:11", "HS5-0011", {"users": "47556360"}))
