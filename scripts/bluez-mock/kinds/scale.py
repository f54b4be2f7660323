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


DEVICE_KINDS = [StandardScale]

# `--preset demo` (scripts/bluez-mock/run.sh) also has a standard scale: axon scale measure ble:Scale-0010
mock.PRESETS["demo"].append(("wss", "C0:FF:EE:00:00:10", "Scale-0010", {}))
