"""Simulated devices of the smartband and ResearchBIT adapters (docs/band-protocol.md, docs/researchbit-protocol.md).

- `band`: an Iwown-style smartband holding a week of once-only records; answers Axon's band framing on its
  command characteristic (one record at a time, the next after the acknowledgement, a record forgotten only when
  acknowledged), checks settings by the vendor SDK's rules, and notifies live heart rate on 0x2A37.
  Options: model (9614/9615/9616), battery, today (YYYY-MM-DD), days, seed, loss_after (record numbers joined
  by '+': the link drops for loss_seconds right after those records are sent), loss_seconds, hr_rate,
  hr_autosync (0: hourly heart rate held back until the central switches it on, as the seed's band; 1: on).
  The sport-data auto-sync (on until switched off) holds back sport sessions, whole-day totals and sleep.
  Actions (the control API's Act): `hour` (an hour of heart rate of today completes), `sport` (a walk of today
  ends): the band makes the record and, connected with no sync running, pushes it at once; `schedule` with
  "YYYY-MM-DD HH:MM", title, subtitle: a schedule written by another phone.
- `researchbit`: a ResearchBIT sensor (family=nordic: a Nordic dongle) holding summary events of `sessions`
  uses; battery and data-available in Nordic's manufacturer data (company 0x0059). A Nordic dongle also has
  its battery (read, notify), LED (read, write 0/1), name (read) and button (read, notify; press it with the
  control API's SendRaw) characteristics.
  Options: battery, sessions, seed, family, vanish_after (the device leaves range after that many events).
- `nordicother`: a Nordic-chip device with Nordic's manufacturer data but another service: a scan must skip it.

This module sees mock_bluetoothd as the global `mock`.
"""

import datetime
import random
import struct

BAND_SERVICE = "a10b0000-6d2c-4b8e-9f31-62616e640000"
BAND_COMMAND = "a10b0001-6d2c-4b8e-9f31-62616e640000"
BAND_RECORDS = "a10b0002-6d2c-4b8e-9f31-62616e640000"
RB_SERVICE = "5242a000-7a3c-4e1d-9a51-52657362a000"
NORDIC_SERVICE = "5242b000-7a3c-4e1d-9a51-52657362a000"
RB_COMMAND = "5242a001-7a3c-4e1d-9a51-52657362a000"
RB_SUMMARY = "5242a002-7a3c-4e1d-9a51-52657362a000"
NORDIC_UART = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
DONGLE_BATTERY = "5242b003-7a3c-4e1d-9a51-52657362a000"
DONGLE_LED = "5242b004-7a3c-4e1d-9a51-52657362a000"
DONGLE_NAME = "5242b005-7a3c-4e1d-9a51-52657362a000"
DONGLE_BUTTON = "5242b006-7a3c-4e1d-9a51-52657362a000"
NORDIC_COMPANY = 0x0059

SPORTS = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06] + list(range(0x80, 0x92))
# The band's own name and unit per sport (the SDK's NAME and UNIT; AxonBand's SimulatedBand has the same).
SPORT_NAMES = {
    0x01: ("走路", "步"), 0x02: ("仰卧起坐", "个"), 0x03: ("俯卧撑", "个"), 0x04: ("跳绳", "次"),
    0x05: ("爬楼", "层"), 0x06: ("引体向上", "个"), 0x80: ("羽毛球", "分钟"), 0x81: ("篮球", "分钟"),
    0x82: ("足球", "分钟"), 0x83: ("游泳", "分钟"), 0x84: ("排球", "分钟"), 0x85: ("乒乓球", "分钟"),
    0x86: ("保龄球", "分钟"), 0x87: ("网球", "分钟"), 0x88: ("骑行", "分钟"), 0x89: ("滑雪", "分钟"),
    0x8A: ("滑冰", "分钟"), 0x8B: ("攀岩", "分钟"), 0x8C: ("健身", "分钟"), 0x8D: ("跳舞", "分钟"),
    0x8E: ("平板支撑", "分钟"), 0x8F: ("健身操", "分钟"), 0x90: ("瑜伽", "分钟"), 0x91: ("毽球", "分钟"),
}
# Today's totals per sport: (sport, steps, kcal, metres, count).
TODAY = [(0x01, 6789, 271, 4752, 0), (0x04, 0, 96, 0, 1240)]


def text_bytes(text):
    data = text.encode()
    return bytes([len(data)]) + data


def frame(kind, payload):
    body = bytes([kind, len(payload)]) + bytes(payload)
    return body + bytes([sum(body) & 0xFF])


def parse_frame(value):
    """(type, payload) of a well-formed frame, else None."""
    if len(value) < 3 or len(value) != value[1] + 3 or sum(value[:-1]) & 0xFF != value[-1]:
        return None
    return value[0], bytes(value[2:-1])


def date_bytes(day):
    return struct.pack("<HBB", day.year, day.month, day.day)


def valid_date(year, month, day):
    try:
        datetime.date(year, month, day)
        return 2000 <= year <= 2099
    except ValueError:
        return False


class Band(mock.AirDevice):
    """A smartband with a week of records (docs/band-protocol.md)."""

    KIND = "band"
    OPTIONS = mock.AirDevice.OPTIONS | {"model", "battery", "today", "days", "seed", "loss_after", "loss_seconds",
                                        "hr_rate", "firmware", "hr_autosync"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.advertised_uuids = [BAND_SERVICE, mock.uuid16(0x180D)]
        self.model = int(options.get("model", 9616))
        self.battery = int(options.get("battery", 83))
        self.firmware = [int(p) for p in str(options.get("firmware", "3.1.4")).split(".")]
        today = options.get("today")
        self.today = datetime.date.fromisoformat(today) if today else datetime.datetime.now(datetime.timezone.utc).date()
        self.days = int(options.get("days", 7))
        self.loss_after = {int(n) for n in str(options.get("loss_after", "")).split("+") if n}
        self.loss_seconds = float(options.get("loss_seconds", 0.5))
        self.rng = random.Random(int(options.get("seed", 7)))
        self.pending = []          # (sequence, type, payload) not yet acknowledged
        self.next_sequence = 1
        self.in_flight = None
        self.syncing = False
        self.sent = set()          # sequence numbers sent at least once
        self.awaiting_ack = set()  # pushed in this connection, not acknowledged: a sync does not resend them
        self.hr_autosync = str(options.get("hr_autosync", "0")) == "1"
        self.sport_autosync = True
        self.live_hours = 0        # hours of today completed while running
        self.live_sports = 0
        self.records_sent = 0
        self.acks = 0
        self.rejected = 0
        self.schedules = {}        # (y, m, d, h, mi) -> (title, subtitle)
        self.settings = {}
        self.hr_sent = 0
        self.command_char = None
        self.records_char = None
        self.hr_char = None
        self.hr_pacer = mock.NotificationPacer(float(options.get("hr_rate", 1)), self._send_heart_rate)
        self._make_week()

    # -- data

    def _add(self, kind, payload):
        self.pending.append((self.next_sequence, kind, bytes(payload)))
        self.next_sequence += 1

    def _make_week(self):
        r = self.rng.randint
        for back in range(self.days, 0, -1):
            day = self.today - datetime.timedelta(days=back)
            d = date_bytes(day)
            steps = r(4000, 14000)
            self._add(0x21, d + struct.pack("<BIIIH", 0x01, steps, steps // 25, steps * 7 // 10, 0))
            other = [0x83, 0x88, 0x90, 0x87, 0x81, 0x8C, 0x8D][back % 7]
            self._add(0x21, d + struct.pack("<BIIIH", other, 0, r(150, 600), r(0, 9000), r(0, 40)))
            start = r(420, 540)
            self._add(0x22, d + struct.pack("<HHBIIIHH", start, start + r(20, 50), 0x01, r(2000, 5000), r(80, 200),
                                            r(1500, 4000), r(10, 90), 0))
            start = r(1020, 1140)
            self._add(0x22, d + struct.pack("<HHBIIIHH", start, start + r(30, 90), other, 0, r(150, 600),
                                            r(0, 9000), r(10, 90), r(0, 40)))
            minute = r(0, 60)
            for sleep_type in (1, 4, 3, 4, 6):
                length = 5 if sleep_type == 6 else r(40, 150)
                self._add(0x23, d + struct.pack("<HHB", minute, minute + length, sleep_type))
                minute += length
            for hour in range(24):
                values = [r(52, 128) for _ in range(60)]
                if hour % 5 == 2:
                    start = r(0, 40)
                    for m in range(start, start + r(3, 19)):
                        values[m] = 255
                if hour == 3:
                    values = [255] * 60
                self._add(0x24, d + bytes([hour]) + bytes(values))
        t = date_bytes(self.today)
        self._add(0x26, t + bytes([9, 15, 7]))
        self._add(0x27, t + bytes([10, 2, 41]))

    # -- GATT

    def build_gatt(self):
        service = self.add_service(0x0050, BAND_SERVICE)
        self.command_char = self.add_characteristic(service, 0x0051, BAND_COMMAND, ["write"])
        self.records_char = self.add_characteristic(service, 0x0053, BAND_RECORDS, ["notify"])
        hr = self.add_service(0x0060, mock.uuid16(0x180D))
        self.hr_char = self.add_characteristic(hr, 0x0061, mock.uuid16(0x2A37), ["notify"])
        self.battery_char = mock.add_battery_service(self, 0x0070, self.battery)
        mock.add_device_info_service(self, 0x0080, str(self.model))

    def forget_gatt(self):
        super().forget_gatt()
        self.command_char = self.records_char = self.hr_char = self.battery_char = None
        self.hr_pacer.stop()

    def streaming_changed(self):
        if self.hr_char is not None and self.hr_char.streaming:
            self.hr_pacer.start()
        else:
            self.hr_pacer.stop()
        if self.records_char is None or not self.records_char.streaming:
            self.in_flight = None  # the link went: nothing is in flight until the central asks again
            self.awaiting_ack = set()
        elif self.syncing and self.in_flight is None:
            # A sync asked for before the subscription was back (BlueZ re-subscribes a moment after the
            # services resolve): the band sends once it can.
            self._send_next()

    def _notify(self, value):
        def send():
            if self.records_char is not None:
                self.records_char.notify(value)
            return False
        mock.GLib.idle_add(send)

    # -- commands

    def written(self, char, value, write_type):
        if char is not self.command_char:
            return
        parsed = parse_frame(value)
        if parsed is None:
            raise mock.BluezError("InvalidValueLength", "Invalid Length")
        kind, p = parsed
        if kind == 0x01 and len(p) == 4:
            after = struct.unpack("<I", p)[0]
            # Forgets what it sent up to `after`; a record made later and not sent yet stays.
            self.pending = [rec for rec in self.pending if rec[0] > after or rec[0] not in self.sent]
            self.syncing = True
            self._send_next()
        elif kind == 0x02 and len(p) == 4:
            seq = struct.unpack("<I", p)[0]
            self.acks += 1
            self.pending = [rec for rec in self.pending if rec[0] != seq]
            self.awaiting_ack.discard(seq)
            if self.in_flight == seq:
                self.in_flight = None
                self._send_next()
        elif kind == 0x03:
            name = self.name.encode()
            self._notify(frame(0x10, struct.pack("<H", self.model) + bytes(self.firmware[:3]) + bytes([len(name)]) + name))
        elif kind == 0x04:
            self._notify(frame(0x11, [self.battery]))
        elif kind == 0x05:  # answers: pushed at once outside a sync, else in the sync's order
            for index, code in enumerate(SPORTS):  # one record per entry: maximum, index, total, code, name, unit
                name, unit = SPORT_NAMES[code]
                self._make_live(0x25, bytes([5, index, len(SPORTS), code]) + text_bytes(name) + text_bytes(unit))
        elif kind == 0x06:
            for totals in TODAY:
                self._make_live(0x20, struct.pack("<BIIIH", *totals) + bytes(5))
        elif kind == 0x07 and len(p) == 4:
            year, month, day = struct.unpack("<HBB", p)
            used = len([s for s in self.schedules if s[:3] == (year, month, day)])
            self._notify(frame(0x12, p + struct.pack("<BBH", used, 4 - used, len(self.schedules))))
        elif kind == 0x08:
            slots = sorted(self.schedules)
            if not slots:
                self._notify(frame(0x13, struct.pack("<HH", 0, 0)))
            for index, slot in enumerate(slots):
                title, subtitle = self.schedules[slot]
                self._notify(frame(0x13, struct.pack("<HHHBBBB", len(slots), index, *slot)
                                   + text_bytes(title) + text_bytes(subtitle)))
        elif 0x40 <= kind <= 0x4C:
            accepted = self._check(kind, p)
            if accepted:
                self.settings[kind] = bytes(value)
            else:
                self.rejected += 1
            self._notify(frame(0x30, [kind, 0 if accepted else 1]))
        else:
            raise mock.BluezError("NotSupported", "Unknown command")

    def _offers(self, kind):
        """Hourly heart rate only with its auto-sync on; sport sessions, whole-day totals and sleep with sport's."""
        if kind == 0x24:
            return self.hr_autosync
        if kind in (0x21, 0x22, 0x23):
            return self.sport_autosync
        return True

    def _send_next(self):
        if self.records_char is None or not self.records_char.streaming:
            return
        offered = [rec for rec in self.pending if self._offers(rec[1]) and rec[0] not in self.awaiting_ack]
        if not offered:
            self.in_flight = None
            self.syncing = False
            self._notify(frame(0x2F, struct.pack("<I", self.next_sequence - 1)))
            return
        seq, kind, payload = offered[0]
        self.in_flight = seq
        self.sent.add(seq)
        self.records_sent += 1
        self._notify(frame(kind, struct.pack("<I", seq) + payload))
        if self.records_sent in self.loss_after:
            mock.GLib.idle_add(lambda: self.link_loss(self.loss_seconds) and False)

    # -- things happening on the band (the control API's Act)

    def act(self, action, arguments):
        r = random.Random(self.next_sequence)
        t = date_bytes(self.today)
        if action == "hour":
            hour = self.live_hours % 24
            self.live_hours += 1
            values = [r.randint(52, 128) for _ in range(60)]
            return self._make_live(0x24, t + bytes([hour]) + bytes(values))
        if action == "sport":
            start = 600 + 60 * (self.live_sports % 20)
            self.live_sports += 1
            return self._make_live(0x22, t + struct.pack("<HHBIIIHH", start, start + 30, 0x01, r.randint(2000, 5000),
                                                         r.randint(80, 200), r.randint(1500, 4000), 40, 0))
        if action == "schedule" and len(arguments) == 3:
            day, clock = arguments[0].split(" ")
            y, m, d = (int(x) for x in day.split("-"))
            h, mi = (int(x) for x in clock.split(":"))
            self.schedules[(y, m, d, h, mi)] = (arguments[1], arguments[2])
            return False
        raise mock.invalid_args("a band does hour, sport or schedule (date time, title, subtitle)")

    def _make_live(self, kind, payload):
        """The band makes a record; connected and not syncing it pushes it at once, outside any stop-and-wait."""
        self._add(kind, payload)
        if self.syncing or not self._offers(kind) or self.records_char is None or not self.records_char.streaming:
            return False
        seq = self.next_sequence - 1
        self.sent.add(seq)
        self.awaiting_ack.add(seq)
        self._notify(frame(kind, struct.pack("<I", seq) + payload))
        return True

    def _check(self, kind, p):
        """The band's own check of the SDK's rules (it answers 'rejected', as responseOfScheduleSetting:NO)."""
        try:
            if kind == 0x40:
                on, start, end, _ = struct.unpack("<BBBB", p)
                return start <= 23 and end <= 23 and start != end  # 22 -> 6 crosses midnight
            if kind == 0x41:
                _, height, weight, target, age = struct.unpack("<BBBIB", p)
                return 50 <= height <= 250 and 10 <= weight <= 250 and 100 <= target <= 100000 and 5 <= age <= 120
            if kind == 0x42:
                ident, _, _, hour, minute, week = struct.unpack("<BBBBBB", p)
                return ident <= 7 and hour <= 23 and minute <= 59
            if kind in (0x43, 0x44):
                year, month, day, hour, minute = struct.unpack("<HBBBB", p[:6])
                slot = (year, month, day, hour, minute)
                if not valid_date(year, month, day) or hour > 23 or minute > 59:
                    return False
                if kind == 0x44:
                    return self.schedules.pop(slot, None) is not None
                n = p[6]
                title = p[7:7 + n].decode()
                subtitle = p[8 + n:8 + n + p[7 + n]].decode()
                same_day = [s for s in self.schedules if s[:3] == slot[:3]]
                if not (1 <= len(title) <= 20 and len(subtitle) <= 33) or slot in self.schedules or len(same_day) >= 4:
                    return False
                self.schedules[slot] = (title, subtitle)
                return True
            if kind == 0x45:
                self.schedules.clear()
                return True
            if kind == 0x46:
                _, _, _, start, end, colour = struct.unpack("<BBBBBB", p[:6])
                return start <= 23 and end <= 23 and (colour == 0xFF or self.model == 9616)
            if kind == 0x47:
                n = p[0]
                targets = [struct.unpack("<BH", p[1 + 3 * i:4 + 3 * i]) for i in range(n)]
                codes = [c for c, _ in targets]
                return (1 <= n <= 5 and 0x01 in codes and len(set(codes)) == n and all(c in SPORTS for c in codes)
                        and all(t >= 1 for _, t in targets))
            if kind == 0x48:
                return 1 <= p[0] <= 64
            if kind in (0x4A, 0x4B) and p[0] <= 1:
                if kind == 0x4A:
                    self.hr_autosync = p[0] == 1
                else:
                    self.sport_autosync = p[0] == 1
            if kind == 0x4C:
                self.schedules.clear()
                self.hr_autosync, self.sport_autosync = False, True
            return True
        except (struct.error, IndexError, UnicodeDecodeError):
            return False

    # -- live heart rate: every flag combination in turn

    def _send_heart_rate(self):
        n = self.hr_sent
        bpm = 64 + (n * 7) % 40
        flags = (1 if n % 2 else 0) | (0x06 if n % 3 == 0 else 0x04) | (0x08 if n % 4 >= 2 else 0) | (0x10 if n % 8 >= 4 else 0)
        packet = bytes([flags]) + (struct.pack("<H", bpm) if flags & 1 else bytes([bpm]))
        if flags & 0x08:
            packet += struct.pack("<H", 100 + n)
        if flags & 0x10:
            packet += struct.pack("<H", 61440 // bpm)
        if not self.hr_char.notify(packet):
            return False
        self.hr_sent += 1
        return True

    def stats(self):
        stats = super().stats()
        stats.update({
            "pending": mock.dbus.UInt32(len(self.pending)),
            "recordsMade": mock.dbus.UInt32(self.next_sequence - 1),
            "recordsSent": mock.dbus.UInt32(self.records_sent),
            "acks": mock.dbus.UInt32(self.acks),
            "rejected": mock.dbus.UInt32(self.rejected),
            "schedules": mock.dbus.UInt32(len(self.schedules)),
            "hrSent": mock.dbus.UInt32(self.hr_sent),
        })
        return stats

    def shutdown(self):
        super().shutdown()
        self.hr_pacer.stop()


class ResearchBIT(mock.AirDevice):
    """A ResearchBIT sensor or Nordic dongle with summary events (docs/researchbit-protocol.md)."""

    KIND = "researchbit"
    OPTIONS = mock.AirDevice.OPTIONS | {"battery", "sessions", "seed", "family", "vanish_after", "first_wakeup"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.service = NORDIC_SERVICE if options.get("family") == "nordic" else RB_SERVICE
        self.advertised_uuids = [self.service]
        self.battery = int(options.get("battery", 91))
        self.vanish_after = int(options.get("vanish_after", 0))
        rng = random.Random(int(options.get("seed", 11)))
        first = int(options.get("first_wakeup", 1763800000))
        events, held = [], None
        for session in range(int(options.get("sessions", 12))):
            wakeup = first + session * 3 * 3600 + rng.randrange(600)
            pulls = (bytes(rng.getrandbits(8) for _ in range(16)), 1, wakeup, 5 + rng.randrange(60))
            awake = (bytes(rng.getrandbits(8) for _ in range(16)), 2, wakeup, 30 + rng.randrange(900))
            events.append(pulls)
            if held:
                events.append(held)
                held = None
            if session % 2 == 0:
                held = awake
            else:
                events.append(awake)
        if held:
            events.append(held)
        self.total = len(events)
        self.pending = [(i + 1, e) for i, e in enumerate(events)]
        self.in_flight = None
        self.fetching = False
        self.sent = 0
        self.command_char = None
        self.summary_char = None
        self.led_char = None
        self._advertise()

    def _advertise(self):
        self.manufacturer_data = {NORDIC_COMPANY: bytes([self.battery, 1 if self.pending else 0])}

    def build_gatt(self):
        service = self.add_service(0x0090, self.service)
        self.command_char = self.add_characteristic(service, 0x0091, RB_COMMAND, ["write"])
        self.summary_char = self.add_characteristic(service, 0x0093, RB_SUMMARY, ["notify"])
        if self.service == NORDIC_SERVICE:
            self.add_characteristic(service, 0x0095, DONGLE_BATTERY, ["read", "notify"], bytes([self.battery]))
            self.led_char = self.add_characteristic(service, 0x0098, DONGLE_LED, ["read", "write"], bytes([0]))
            self.add_characteristic(service, 0x009A, DONGLE_NAME, ["read"], self.name.encode()[:20])
            self.add_characteristic(service, 0x009C, DONGLE_BUTTON, ["read", "notify"], bytes([0]))

    def forget_gatt(self):
        super().forget_gatt()
        self.command_char = self.summary_char = self.led_char = None

    def streaming_changed(self):
        if self.summary_char is None or not self.summary_char.streaming:
            self.in_flight = None
        elif self.fetching and self.in_flight is None:
            self._send_next()

    def _notify(self, value):
        def send():
            if self.summary_char is not None:
                self.summary_char.notify(value)
            return False
        mock.GLib.idle_add(send)

    def written(self, char, value, write_type):
        if char is not None and char is self.led_char:
            if len(value) != 1 or value[0] > 1:
                raise mock.BluezError("InvalidValueLength", "Invalid Length")
            char.props[mock.CHAR_IFACE]["Value"] = mock.byte_array(value)
            return
        if char is not self.command_char:
            return
        parsed = parse_frame(value)
        if parsed is None:
            raise mock.BluezError("InvalidValueLength", "Invalid Length")
        kind, p = parsed
        if kind == 0x03:
            self._notify(frame(0x51, [self.battery, len(self.pending) & 0xFF, len(self.pending) >> 8]))
        elif kind == 0x01 and len(p) == 4:
            after = struct.unpack("<I", p)[0]
            self.pending = [e for e in self.pending if e[0] > after]
            self.fetching = True
            self._send_next()
        elif kind == 0x02 and len(p) == 4:
            seq = struct.unpack("<I", p)[0]
            self.pending = [e for e in self.pending if e[0] != seq]
            self._advertise()
            if self.in_flight == seq:
                self.in_flight = None
                self._send_next()
        else:
            raise mock.BluezError("NotSupported", "Unknown command")

    def _send_next(self):
        if self.summary_char is None or not self.summary_char.streaming:
            return
        if not self.pending:
            self.fetching = False
            self._notify(frame(0x5F, struct.pack("<I", self.total)))
            return
        seq, (ident, kind, wakeup, value) = self.pending[0]
        self.in_flight = seq
        self.sent += 1
        payload = struct.pack("<IH", seq, 26) + ident + struct.pack("<BIB", kind, wakeup, 1) + struct.pack("<I", value)
        self._notify(frame(0x50, payload))
        if self.vanish_after and self.sent == self.vanish_after:
            mock.GLib.idle_add(lambda: self.set_in_range(False) or False)

    def stats(self):
        stats = super().stats()
        stats.update({"pending": mock.dbus.UInt32(len(self.pending)), "sent": mock.dbus.UInt32(self.sent)})
        return stats


class NordicOther(mock.AirDevice):
    """A Nordic-chip device that is not a ResearchBIT: Nordic's company id, Nordic UART service."""

    KIND = "nordicother"

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.advertised_uuids = [NORDIC_UART]
        self.manufacturer_data = {NORDIC_COMPANY: bytes([77, 1])}

    def build_gatt(self):
        service = self.add_service(0x00A0, NORDIC_UART)
        self.add_characteristic(service, 0x00A1, "6e400002-b5a3-f393-e0a9-e50e24dcca9e", ["write"])


DEVICE_KINDS = [Band, ResearchBIT, NordicOther]
