#!/usr/bin/python3
"""Self-test of the mock bluetoothd, as a plain dbus-python client on a private bus.

    /usr/bin/python3 scripts/bluez-mock/selftest.py

Starts bus.py and mock_bluetoothd.py as children, checks the BlueZ 5.66 behaviours the project's
BLE client relies on (discovery with a filter, connect, GATT by UUID, notify sessions and streaming,
link loss and automatic re-subscription, failing connects, raw notifications, a killed and restarted
bluetoothd, Reset), prints "N passed, M failed" and exits non-zero on any failure. Children are
killed however it ends.
"""

import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

import dbus
import dbus.bus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = "/usr/bin/python3"

ADDRESS = "C0:FF:EE:00:00:01"
DEVICE_PATH = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"
BAND_ADDRESS = "C0:FF:EE:00:00:02"
POLAR_ADDRESS = "C0:FF:EE:00:00:50"
BAND_PATH = "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"
BRAINIAC_SERVICE = "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BRAINIAC_DATA = "8b5e0002-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BRAINIAC_COMMAND = "8b5e0003-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BATTERY_LEVEL = "00002a19-0000-1000-8000-00805f9b34fb"
MANUFACTURER_NAME = "00002a29-0000-1000-8000-00805f9b34fb"
CHAR_IFACE = "org.bluez.GattCharacteristic1"
DEVICE_IFACE = "org.bluez.Device1"
ADAPTER_IFACE = "org.bluez.Adapter1"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
OM_IFACE = "org.freedesktop.DBus.ObjectManager"
NO_OPTIONS = dbus.Dictionary({}, signature="sv")


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


# ---------------------------------------------------------------------------------------------------
# Brainiac packet decoding (docs/brainiac-packet.md), written independently of the mock's encoder

def crc8_smbus(data):
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def decode_packet(data):
    """→ dict(type, order, counter, time, samples or level or code); raises CheckFailed if malformed."""
    check(len(data) >= 18, "packet shorter than 18 bytes: %d" % len(data))
    version, ptype, order, counter, time_ms = struct.unpack_from("<BBHIQ", data)
    check(version == 1, "version %d" % version)
    check(crc8_smbus(data[:-1]) == data[-1], "CRC mismatch")
    packet = {"type": ptype, "order": order, "counter": counter, "time": time_ms}
    if ptype == 0x01:
        n = data[16]
        check(1 <= n <= 10 and len(data) == 18 + 12 * n, "EEG length %d for N=%d" % (len(data), n))
        samples = []
        for i in range(n):
            values = []
            for ch in range(4):
                raw = data[17 + 12 * i + 3 * ch: 20 + 12 * i + 3 * ch]
                values.append(int.from_bytes(raw, "little", signed=True) / 20.0)
            samples.append(values)
        packet["samples"] = samples
    elif ptype == 0x02:
        check(len(data) == 18 and data[16] <= 100, "bad battery packet")
        packet["level"] = data[16]
    elif ptype == 0x03:
        check(len(data) == 18 and data[16] <= 15, "bad status packet")
        packet["code"] = data[16]
    else:
        raise CheckFailed("unknown packet type %d" % ptype)
    return packet


assert crc8_smbus(b"123456789") == 0xF4


# ---------------------------------------------------------------------------------------------------
# Processes

class Processes:
    """The private bus and the mock, as children of this process."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="axon-bluez-selftest.")
        self.bus = None
        self.mock = None
        self.address = None

    def start_bus(self):
        self.bus = subprocess.Popen([PYTHON, os.path.join(HERE, "bus.py"), "--dir", self.dir],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.bus.stdout.readline().strip()
        check(self.address.startswith("unix:path="), "bus printed %r" % self.address)

    def start_mock(self, *extra):
        self.mock = subprocess.Popen([PYTHON, os.path.join(HERE, "mock_bluetoothd.py"), "--bus", self.address,
                                      "--device", "brainiac,%s,Brainiac-0001" % ADDRESS,
                                      "--device", "heartrate,%s,Heartband-0002" % BAND_ADDRESS] + list(extra),
                                     stdout=subprocess.PIPE, text=True)
        line = self.mock.stdout.readline().strip()
        check(line == "READY", "mock printed %r" % line)

    def kill_mock(self):
        if self.mock is not None and self.mock.poll() is None:
            self.mock.kill()
            self.mock.wait()

    def stop(self):
        for proc in (self.mock, self.bus):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# Client

class Client:
    """A dbus-python client that records the signals it receives and waits on the GLib main loop."""

    def __init__(self, address):
        self.conn = dbus.bus.BusConnection(address)
        self.added = []            # (path, interfaces)
        self.removed = []          # (path, interfaces)
        self.changes = []          # (path, iface, changed, invalidated, signature)
        self.notifications = []    # (path, bytes)
        self.owner_changes = []    # new owner of org.bluez
        self.conn.add_signal_receiver(self._added, "InterfacesAdded", OM_IFACE, "org.bluez", "/")
        self.conn.add_signal_receiver(self._removed, "InterfacesRemoved", OM_IFACE, "org.bluez", "/")
        self.conn.add_signal_receiver(self._changed, "PropertiesChanged", PROPS_IFACE, "org.bluez",
                                      path_keyword="path", message_keyword="msg", byte_arrays=True)
        self.conn.add_signal_receiver(self._owner, "NameOwnerChanged", "org.freedesktop.DBus",
                                      "org.freedesktop.DBus", "/org/freedesktop/DBus", arg0="org.bluez")

    def _added(self, path, interfaces):
        self.added.append((str(path), interfaces))

    def _removed(self, path, interfaces):
        self.removed.append((str(path), [str(i) for i in interfaces]))

    def _changed(self, iface, changed, invalidated, path=None, msg=None):
        if iface == CHAR_IFACE and "Value" in changed:
            self.notifications.append((path, bytes(changed["Value"])))
            self.last_notification_signature = msg.get_signature()
        else:
            self.changes.append((path, str(iface), dict(changed), list(invalidated), msg.get_signature()))

    def _owner(self, name, old, new):
        self.owner_changes.append(str(new))

    # -- waiting

    def pump(self, seconds):
        end = time.monotonic() + seconds
        context = GLib.MainContext.default()
        while time.monotonic() < end:
            context.iteration(False) or time.sleep(0.001)

    def wait_for(self, predicate, timeout, what):
        end = time.monotonic() + timeout
        context = GLib.MainContext.default()
        while not predicate():
            if time.monotonic() > end:
                raise CheckFailed("timed out waiting for " + what)
            context.iteration(False) or time.sleep(0.001)

    def wait_for_change(self, path, iface, name, value, timeout=3):
        def seen():
            return any(p == path and i == iface and c.get(name) == value for p, i, c, _, _ in self.changes)
        self.wait_for(seen, timeout, "%s %s=%s" % (path, name, value))

    def call_async(self, path, iface, method, *args, timeout=10):
        """Call without blocking the main loop (signals keep arriving); → (result, error)."""
        result = {}
        obj = self.conn.get_object("org.bluez", path, introspect=False)
        getattr(obj, method)(*args, dbus_interface=iface, timeout=timeout,
                             reply_handler=lambda *r: result.setdefault("ok", r),
                             error_handler=lambda e: result.setdefault("err", e))
        self.wait_for(lambda: result, timeout + 1, method)
        return result.get("ok"), result.get("err")

    # -- plain calls

    def iface(self, path, iface, service="org.bluez"):
        return dbus.Interface(self.conn.get_object(service, path, introspect=False), iface)

    def get(self, path, iface, name):
        return self.iface(path, PROPS_IFACE).Get(iface, name)

    def managed_objects(self):
        return self.iface("/", OM_IFACE).GetManagedObjects()

    def control(self):
        return self.iface("/org/axon/mock", "org.axon.MockBluez1")

    def char_path(self, device_path, uuid):
        for path, interfaces in self.managed_objects().items():
            props = interfaces.get(CHAR_IFACE)
            if props is not None and path.startswith(device_path + "/") and props["UUID"] == uuid:
                return str(path)
        raise CheckFailed("no characteristic %s under %s" % (uuid, device_path))

    def expect_error(self, name, message, func, *args):
        try:
            func(*args)
        except dbus.DBusException as e:
            check(e.get_dbus_name() == name, "expected %s, got %s" % (name, e.get_dbus_name()))
            if message is not None:
                check(e.get_dbus_message() == message, "expected message %r, got %r" % (message, e.get_dbus_message()))
            return
        raise CheckFailed("expected %s" % name)

    def close(self):
        self.conn.close()


def check_stream(packets):
    """Every EEG packet decodes; counters and order numbers are contiguous → number of EEG packets."""
    previous = None
    eeg = 0
    for data in packets:
        packet = decode_packet(data)
        if previous is not None:
            check(packet["order"] == (previous["order"] + 1) & 0xFFFF,
                  "order number %d after %d" % (packet["order"], previous["order"]))
        if packet["type"] == 0x01:
            if previous is not None and "next_counter" in previous:
                check(packet["counter"] == previous["next_counter"],
                      "counter %d, expected %d" % (packet["counter"], previous["next_counter"]))
            packet["next_counter"] = packet["counter"] + len(packet["samples"])
            eeg += 1
        elif previous is not None and "next_counter" in previous:
            packet["next_counter"] = previous["next_counter"]
        previous = packet
    return eeg


# ---------------------------------------------------------------------------------------------------
# The checks, in order; each leaves the state the next one expects

class SelfTest:
    def __init__(self):
        self.procs = Processes()
        self.client = None
        self.passed = 0
        self.failed = 0

    def run(self, name, func):
        started = time.monotonic()
        try:
            func()
        except Exception as e:  # a crash in one check is that check's failure, not the run's
            self.failed += 1
            print("FAIL %-50s %s" % (name, e), flush=True)
            return False
        self.passed += 1
        print("ok   %-50s %.2f s" % (name, time.monotonic() - started), flush=True)
        return True

    def start(self):
        self.procs.start_bus()
        self.procs.start_mock()
        self.client = Client(self.procs.address)

    # -- bus and adapter

    def test_object_manager(self):
        msg = dbus.lowlevel.MethodCallMessage("org.bluez", "/", OM_IFACE, "GetManagedObjects")
        reply = self.client.conn.send_message_with_reply_and_block(msg, 5000)
        check(reply.get_signature() == "a{oa{sa{sv}}}", "signature %s" % reply.get_signature())
        objects = reply.get_args_list()[0]
        check(list(objects) == ["/org/bluez/hci0"], "objects before discovery: %s" % list(objects))
        interfaces = objects["/org/bluez/hci0"]
        for name in ("org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", ADAPTER_IFACE):
            check(name in interfaces, "adapter lacks %s" % name)
        check(interfaces[ADAPTER_IFACE]["Powered"] is not None and bool(interfaces[ADAPTER_IFACE]["Powered"]),
              "adapter not powered")
        check(list(self.client.get("/org/bluez/hci0", ADAPTER_IFACE, "Roles")) == ["central", "peripheral"], "Roles")

    def test_discovery_without_filter(self):
        adapter = self.client.iface("/org/bluez/hci0", ADAPTER_IFACE)
        adapter.StartDiscovery()
        self.client.expect_error("org.bluez.Error.InProgress", None, adapter.StartDiscovery)
        self.client.wait_for(lambda: {p for p, _ in self.client.added} >= {DEVICE_PATH, BAND_PATH}, 2,
                             "both devices")
        adapter.StopDiscovery()
        self.client.wait_for_change("/org/bluez/hci0", ADAPTER_IFACE, "Discovering", False)
        self.client.expect_error("org.bluez.Error.Failed", "No discovery started", adapter.StopDiscovery)
        # Start again from nothing for the filtered discovery: forget both devices.
        for path in (DEVICE_PATH, BAND_PATH):
            adapter.RemoveDevice(dbus.ObjectPath(path))
        check(not any(p.startswith("/org/bluez/hci0/dev_") for p in self.client.managed_objects()),
              "RemoveDevice left devices")

    def test_discovery_with_filter(self):
        self.client.added.clear()
        adapter = self.client.iface("/org/bluez/hci0", ADAPTER_IFACE)
        adapter.SetDiscoveryFilter(dbus.Dictionary({"UUIDs": dbus.Array([BRAINIAC_SERVICE], signature="s"),
                                                    "RSSI": dbus.Int16(-80), "Transport": "le"}, signature="sv"))
        adapter.StartDiscovery()
        self.client.wait_for_change("/org/bluez/hci0", ADAPTER_IFACE, "Discovering", True)
        self.client.wait_for(lambda: any(p == DEVICE_PATH for p, _ in self.client.added), 2, "InterfacesAdded")
        props = dict(self.client.added)[DEVICE_PATH][DEVICE_IFACE]
        check(props["Name"] == "Brainiac-0001" and props["Address"] == ADDRESS, "device properties")
        check(isinstance(props["RSSI"], dbus.Int16), "RSSI is %s, not int16" % type(props["RSSI"]).__name__)
        check(BRAINIAC_SERVICE in props["UUIDs"], "advertised UUIDs")
        check(bytes(props["ManufacturerData"][0xFFFF]) == b"AXON", "ManufacturerData")
        self.client.wait_for(lambda: any(p == DEVICE_PATH and "RSSI" in c for p, _, c, _, _ in self.client.changes),
                             2.5, "an RSSI update")
        check(not any(p == BAND_PATH for p, _ in self.client.added), "the filter let the heart-rate band through")
        adapter.StopDiscovery()

    # -- connection and GATT

    def test_connect(self):
        self.client.added.clear()
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is None, "Connect failed: %s" % err)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "Connected", True)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved", True)
        check(bool(self.client.get(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved")), "Get ServicesResolved")
        gatt = [p for p, _ in self.client.added if p.startswith(DEVICE_PATH + "/")]
        check(len(gatt) == 10, "%d GATT objects added, expected 3 services + 7 characteristics" % len(gatt))
        signatures = {s for p, i, _, _, s in self.client.changes if p == DEVICE_PATH}
        check(signatures == {"sa{sv}as"}, "PropertiesChanged signatures %s" % signatures)

    def test_gatt_by_uuid(self):
        battery = self.client.char_path(DEVICE_PATH, BATTERY_LEVEL)
        value = self.client.iface(battery, CHAR_IFACE).ReadValue(NO_OPTIONS, byte_arrays=True)
        check(bytes(value) == bytes([87]), "battery %r" % bytes(value))
        manufacturer = self.client.char_path(DEVICE_PATH, MANUFACTURER_NAME)
        name = self.client.iface(manufacturer, CHAR_IFACE).ReadValue(NO_OPTIONS)
        check(bytes(name) == b"Axon mock", "manufacturer %r" % bytes(name))
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        check(list(self.client.get(data, CHAR_IFACE, "Flags")) == ["notify"], "data flags")
        check(int(self.client.get(data, CHAR_IFACE, "MTU")) == 247, "MTU")
        command = self.client.iface(self.client.char_path(DEVICE_PATH, BRAINIAC_COMMAND), CHAR_IFACE)
        command.WriteValue(dbus.ByteArray(b"\x01\x02"), {"type": "command"})
        command.WriteValue(dbus.ByteArray(b"\x03"), NO_OPTIONS)
        writes = [(bytes(v), str(t)) for v, t in self.client.control().GetWrites(ADDRESS, BRAINIAC_COMMAND)]
        check(writes == [(b"\x01\x02", "command"), (b"\x03", "request")], "writes %r" % writes)
        self.client.expect_error("org.bluez.Error.Failed", "Not notifying",
                                 self.client.iface(data, CHAR_IFACE).StopNotify)

    def test_streaming(self):
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        self.client.notifications.clear()
        started = time.monotonic()
        self.client.iface(data, CHAR_IFACE).StartNotify()
        self.client.wait_for_change(data, CHAR_IFACE, "Notifying", True)
        self.client.pump(2.0)
        stats = self.client.control().GetStats(ADDRESS)
        elapsed = time.monotonic() - started
        sent = int(stats["sent"])
        check(abs(sent - 250 * elapsed) <= 0.05 * 250 * elapsed, "%d sent in %.2f s at 250/s" % (sent, elapsed))

        def packets():
            return [v for p, v in self.client.notifications if p == data]
        # Everything sent must arrive; on a loaded machine the last ones may still be on the bus.
        self.client.wait_for(lambda: len(packets()) >= sent, 2.0, "all %d notifications" % sent)
        received = packets()
        check(self.client.last_notification_signature == "sa{sv}as", "notification signature")
        check(decode_packet(received[0])["type"] == 0x03, "first packet is not the status packet")
        eeg = check_stream(received)
        first = decode_packet(received[1])
        check(abs(first["samples"][0][0]) <= 50.0 and first["time"] > 1.7e12, "sample values/time")
        check(int(stats["sessions"]) == 1 and bool(stats["connected"]), "stats %s" % dict(stats))
        print("     %d EEG packets in %.2f s, all decoded, 0 lost" % (eeg, elapsed), flush=True)

    def test_link_loss_and_resubscription(self):
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        self.client.changes.clear()
        self.client.added.clear()
        self.client.control().LinkLoss(ADDRESS, 1.0)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "Connected", False)
        before = [v for p, v in self.client.notifications if p == data]
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is not None and err.get_dbus_message() == "le-connection-abort-by-local",
              "Connect while out of range: %s" % err)
        self.reconnect_when_back(timeout=3.0)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved", True)
        # Within the re-subscription window a second StartNotify is InProgress (or success if done).
        try:
            self.client.iface(data, CHAR_IFACE).StartNotify()
        except dbus.DBusException as e:
            check(e.get_dbus_name() == "org.bluez.Error.InProgress", "StartNotify after reconnect: %s" % e)
        count = len(self.client.notifications)

        def after_reconnect():
            return [v for p, v in self.client.notifications[count:] if p == data]
        # The stream resumes by itself ~0.2 s after ServicesResolved; wait for 150 (0.6 s at 250/s), with
        # room for a loaded machine, rather than counting within a fixed window.
        self.client.wait_for(lambda: len(after_reconnect()) >= 150, 3.0, "notifications to resume")
        after = after_reconnect()
        check(not self.client.added, "InterfacesAdded on reconnection (GATT cache)")
        last_before = decode_packet(before[-1])
        first_after = next(decode_packet(v) for v in after if decode_packet(v)["type"] == 0x01)
        gap = first_after["counter"] - last_before["counter"]
        check(300 <= gap <= 900, "counter jump over the outage %d samples" % gap)
        check_stream(after)

    def reconnect_when_back(self, timeout):
        """Retry Connect, as a client does after a link loss, until the device is back in range."""
        end = time.monotonic() + timeout
        while True:
            _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
            if err is None:
                return
            check(err.get_dbus_message() == "le-connection-abort-by-local", "reconnect: %s" % err)
            check(time.monotonic() < end, "no reconnection within %.1f s" % timeout)
            self.client.pump(0.1)

    def test_fail_next_connects(self):
        self.client.iface(DEVICE_PATH, DEVICE_IFACE).Disconnect()
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "Connected", False)
        self.client.expect_error("org.bluez.Error.Failed", "Not connected",
                                 self.client.iface(self.client.char_path(DEVICE_PATH, BATTERY_LEVEL),
                                                   CHAR_IFACE).ReadValue, NO_OPTIONS)
        self.client.control().FailNextConnects(ADDRESS, 1)
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is not None and err.get_dbus_name() == "org.bluez.Error.Failed"
              and err.get_dbus_message() == "le-connection-abort-by-local", "failing Connect: %s" % err)
        self.client.changes.clear()
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is None, "Connect after the failure: %s" % err)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved", True)
        stats = self.client.control().GetStats(ADDRESS)
        check(int(stats["connectCalls"]) >= 5, "connectCalls %s" % stats["connectCalls"])

    def test_connect_in_progress(self):
        self.client.iface(DEVICE_PATH, DEVICE_IFACE).Disconnect()
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "Connected", False)
        results = []
        device = self.client.conn.get_object("org.bluez", DEVICE_PATH, introspect=False)
        for _ in range(2):
            device.Connect(dbus_interface=DEVICE_IFACE, timeout=10,
                           reply_handler=lambda: results.append("ok"),
                           error_handler=lambda e: results.append(e.get_dbus_name()))
        self.client.wait_for(lambda: len(results) == 2, 3, "both Connect replies")
        check(sorted(results) == ["ok", "org.bluez.Error.InProgress"], "replies %s" % results)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved", True)

    def test_set_rate(self):
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        self.client.pump(0.4)  # past the re-subscription after the reconnect
        count = len(self.client.notifications)
        control = self.client.control()
        control.SetRate(ADDRESS, 100.0)
        sent_before, started = int(control.GetStats(ADDRESS)["sent"]), time.monotonic()
        self.client.pump(1.0)
        sent = int(control.GetStats(ADDRESS)["sent"]) - sent_before
        elapsed = time.monotonic() - started
        check(abs(sent - 100 * elapsed) <= 10, "%d notifications in %.2f s at 100/s" % (sent, elapsed))
        self.client.control().SetRate(ADDRESS, 250.0)
        self.client.pump(0.3)
        check_stream([v for p, v in self.client.notifications[count:] if p == data])

    def test_send_raw_and_status(self):
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        # Look only at what arrives from now on: scanning the whole history on every main-loop
        # iteration would make this client too slow to keep up with 250 notifications/s.
        self.client.notifications.clear()
        raw = b"\x02\xff\x00garbage"
        check(bool(self.client.control().SendRaw(ADDRESS, BRAINIAC_DATA, dbus.ByteArray(raw))), "SendRaw refused")
        self.client.wait_for(lambda: (data, raw) in self.client.notifications, 3, "raw bytes")
        self.client.notifications.clear()
        check(bool(self.client.control().SendStatus(ADDRESS, dbus.Byte(13))), "SendStatus refused")
        self.client.wait_for(lambda: any(v[1] == 0x03 and decode_packet(v)["code"] == 13
                                         for p, v in self.client.notifications if p == data), 3, "status packet")

    def test_client_vanishing_drops_session(self):
        other = Client(self.procs.address)
        battery = self.client.char_path(DEVICE_PATH, BATTERY_LEVEL)
        other.iface(battery, CHAR_IFACE).StartNotify()
        data = self.client.char_path(DEVICE_PATH, BRAINIAC_DATA)
        self.client.expect_error("org.bluez.Error.Failed", "No notify session started",
                                 other.iface(data, CHAR_IFACE).StopNotify)
        check(int(self.client.control().GetStats(ADDRESS)["sessions"]) == 2, "second session")
        other.close()
        self.client.wait_for_change(battery, CHAR_IFACE, "Notifying", False)
        check(int(self.client.control().GetStats(ADDRESS)["sessions"]) == 1, "session of the closed client")

    def test_kill_and_restart(self):
        self.client.owner_changes.clear()
        self.client.removed.clear()
        self.procs.kill_mock()
        self.client.wait_for(lambda: "" in self.client.owner_changes, 3, "NameOwnerChanged to ''")
        check(not self.client.removed, "InterfacesRemoved from a killed bluetoothd")
        self.procs.start_mock()
        self.client.wait_for(lambda: self.client.owner_changes[-1] != "", 3, "new owner")
        check("/org/bluez/hci0" in self.client.managed_objects(), "adapter back")
        self.client.added.clear()
        self.client.iface("/org/bluez/hci0", ADAPTER_IFACE).StartDiscovery()
        self.client.wait_for(lambda: any(p == DEVICE_PATH for p, _ in self.client.added), 2, "device back")

    def test_heart_rate_band(self):
        adapter = self.client.iface("/org/bluez/hci0", ADAPTER_IFACE)
        adapter.SetDiscoveryFilter(dbus.Dictionary({"Pattern": "Heartband"}, signature="sv"))
        self.client.wait_for(lambda: any(p == BAND_PATH for p, _ in self.client.added), 2, "band by Pattern")
        _, err = self.client.call_async(BAND_PATH, DEVICE_IFACE, "Connect")
        check(err is None, "Connect: %s" % err)
        self.client.wait_for_change(BAND_PATH, DEVICE_IFACE, "ServicesResolved", True)
        measurement = self.client.char_path(BAND_PATH, "00002a37-0000-1000-8000-00805f9b34fb")
        check("/service0020/" in measurement, "heart-rate path %s" % measurement)
        self.client.iface(measurement, CHAR_IFACE).StartNotify()
        self.client.wait_for(lambda: (measurement, b"\x00\x3e") in self.client.notifications, 2, "62 bpm")
        self.client.control().SetBattery(BAND_ADDRESS, dbus.Byte(50))
        battery = self.client.iface(self.client.char_path(BAND_PATH, BATTERY_LEVEL), CHAR_IFACE)
        check(bytes(battery.ReadValue(NO_OPTIONS)) == b"\x32", "battery after SetBattery")

    def test_polar_h10(self):
        """kinds/polar.py: the PMD control point's features and answers, an ECG frame of the recording."""
        dataset = os.path.join(HERE, "..", "..", "datasets", "mitdb-208-ecg")
        ecg = os.path.join(dataset, "ecg-130hz-uv.csv")
        path = self.client.control().AddDevice("polar", POLAR_ADDRESS, "Polar H10 0A3B5C7D", dbus.Dictionary(
            {"csv": ecg, "rr": os.path.join(dataset, "rr.csv"), "speed": "4"}, signature="sv"))
        adapter = self.client.iface("/org/bluez/hci0", ADAPTER_IFACE)
        adapter.SetDiscoveryFilter(dbus.Dictionary({"Pattern": "Polar"}, signature="sv"))
        if not bool(self.client.get("/org/bluez/hci0", ADAPTER_IFACE, "Discovering")):
            adapter.StartDiscovery()
        self.client.wait_for(lambda: any(p == path for p, _ in self.client.added), 2, "the H10 by Pattern")
        _, err = self.client.call_async(path, DEVICE_IFACE, "Connect")
        check(err is None, "Connect: %s" % err)
        self.client.wait_for_change(path, DEVICE_IFACE, "ServicesResolved", True)
        cp = self.client.char_path(path, "fb005c81-02e7-f387-1cad-8acd2d8df0c8")
        data = self.client.char_path(path, "fb005c82-02e7-f387-1cad-8acd2d8df0c8")
        control = self.client.iface(cp, CHAR_IFACE)
        check(bytes(control.ReadValue(NO_OPTIONS)) == bytes.fromhex("0f0500"), "features")
        control.StartNotify()
        self.client.iface(data, CHAR_IFACE).StartNotify()

        def answer(command, expected):
            control.WriteValue(dbus.ByteArray(bytes.fromhex(command)), dbus.Dictionary({}, signature="sv"))
            wanted = (cp, bytes.fromhex(expected))
            self.client.wait_for(lambda: wanted in self.client.notifications, 2, "answer %s to %s" % (expected, command))

        answer("0100", "f0010000000001820001010e00")
        answer("02000001c80001010e00", "f0020008")  # 200 Hz ECG: invalid sample rate
        answer("02000001820001010e00", "f002000000")
        with open(ecg) as handle:
            first = int(handle.read().split()[1])
        self.client.wait_for(lambda: any(p == data for p, _ in self.client.notifications), 2, "an ECG frame")
        frame = next(v for p, v in self.client.notifications if p == data)
        check(len(frame) == 229 and frame[0] == 0 and frame[9] == 0, "ECG frame of %d bytes" % len(frame))
        check(int.from_bytes(frame[10:13], "little", signed=True) == first, "first ECG sample")
        answer("0300", "f003000000")
        self.client.iface(path, DEVICE_IFACE).Disconnect()

    def test_reset(self):
        self.client.removed.clear()
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is None, "Connect: %s" % err)
        self.client.wait_for_change(DEVICE_PATH, DEVICE_IFACE, "ServicesResolved", True)
        self.client.control().Reset()
        self.client.wait_for(lambda: any(p == DEVICE_PATH for p, _ in self.client.removed), 2, "InterfacesRemoved")
        check(list(self.client.managed_objects()) == ["/org/bluez/hci0"], "objects after Reset")
        check(not bool(self.client.get("/org/bluez/hci0", ADAPTER_IFACE, "Discovering")), "Discovering after Reset")
        path = self.client.control().AddDevice("brainiac", "C0:FF:EE:00:00:09", "Brainiac-0009",
                                               dbus.Dictionary({"rate": dbus.Double(25), "samples": dbus.UInt32(10)},
                                                                               signature="sv"))
        check(path == "/org/bluez/hci0/dev_C0_FF_EE_00_00_09", "AddDevice path %s" % path)
        self.client.expect_error("org.freedesktop.DBus.Error.InvalidArgs", None, self.client.control().AddDevice,
                                 "brainiac", "C0:FF:EE:00:00:0A", "x", dbus.Dictionary({"rat": 1}, signature="sv"))

    def test_battery_plugin(self):
        """With --battery-plugin, as BlueZ by default: Battery1 on the device instead of GATT objects."""
        self.procs.kill_mock()
        self.client.wait_for(lambda: self.client.owner_changes[-1] == "", 3, "old mock gone")
        self.procs.start_mock("--battery-plugin")
        self.client.added.clear()
        self.client.removed.clear()
        self.client.iface("/org/bluez/hci0", ADAPTER_IFACE).StartDiscovery()
        self.client.wait_for(lambda: any(p == DEVICE_PATH for p, _ in self.client.added), 2, "device")
        _, err = self.client.call_async(DEVICE_PATH, DEVICE_IFACE, "Connect")
        check(err is None, "Connect: %s" % err)
        battery1 = "org.bluez.Battery1"
        self.client.wait_for(lambda: any(p == DEVICE_PATH and battery1 in i for p, i in self.client.added), 2,
                             "Battery1 added")
        check(int(self.client.get(DEVICE_PATH, battery1, "Percentage")) == 87, "Percentage")
        uuids = [str(i["org.bluez.GattService1"]["UUID"]) for i in self.client.managed_objects().values()
                 if "org.bluez.GattService1" in i]
        check("0000180f-0000-1000-8000-00805f9b34fb" not in uuids and BRAINIAC_SERVICE in uuids, "services %s" % uuids)
        self.client.control().SetBattery(ADDRESS, dbus.Byte(40))
        self.client.wait_for_change(DEVICE_PATH, battery1, "Percentage", 40)
        self.client.iface(DEVICE_PATH, DEVICE_IFACE).Disconnect()
        self.client.wait_for(lambda: (DEVICE_PATH, [battery1]) in self.client.removed, 2, "Battery1 removed")

    def main(self):
        try:
            if not self.run("bus and mock start", self.start):
                return 1
            for name in ("object_manager", "discovery_without_filter", "discovery_with_filter", "connect",
                         "gatt_by_uuid", "streaming", "link_loss_and_resubscription", "fail_next_connects",
                         "connect_in_progress", "set_rate", "send_raw_and_status", "client_vanishing_drops_session",
                         "kill_and_restart", "heart_rate_band", "polar_h10", "reset", "battery_plugin"):
                self.run(name.replace("_", " "), getattr(self, "test_" + name))
        finally:
            self.procs.stop()
        print("%d passed, %d failed" % (self.passed, self.failed), flush=True)
        return 1 if self.failed else 0


if __name__ == "__main__":
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(SelfTest().main())
