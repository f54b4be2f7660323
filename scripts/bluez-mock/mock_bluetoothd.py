#!/usr/bin/python3
"""A mock bluetoothd: owns org.bluez on a private D-Bus and behaves like BlueZ 5.66 for BLE centrals.

    /usr/bin/python3 scripts/bluez-mock/mock_bluetoothd.py --bus ADDRESS \
        [--device KIND,ADDRESS,NAME[,key=value...]]... [--preset demo] [--battery-plugin]

The machines Axon is built and tested on have no Bluetooth in their kernel, so real bluetoothd cannot
run. This process stands in for it: one adapter /org/bluez/hci0, devices that live in a simulated "air"
and appear as Device1 objects when a discovery that matches them runs, connections, the GATT objects
of each device kind, notify sessions that belong to the calling bus connection, and notifications as
PropertiesChanged signals on the characteristic, paced by the monotonic clock.

Tests steer it through org.axon.MockBluez1 on /org/axon/mock (same connection, so it vanishes with
the mock). See README.md next to this file for the control API.

Device kinds:
  brainiac   the Brainiac EEG headset (docs/brainiac-packet.md), options rate, samples, frequency,
             amplitude, battery, rssi, battery_interval, status
  heartrate  a heart-rate band (Heart Rate Measurement once per second), options bpm, battery, rssi

On start it prints READY on stdout once it owns org.bluez. It ends when its parent process goes (leash.py).
"""

import argparse
import ctypes
import math
import os
import signal
import socket
import struct
import sys
import time

import dbus
import dbus.bus
import dbus.lowlevel
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

# ---------------------------------------------------------------------------------------------------
# Names

BLUEZ = "org.bluez"
ADAPTER_PATH = "/org/bluez/hci0"
ADAPTER_IFACE = "org.bluez.Adapter1"
DEVICE_IFACE = "org.bluez.Device1"
BATTERY1_IFACE = "org.bluez.Battery1"
SERVICE_IFACE = "org.bluez.GattService1"
CHAR_IFACE = "org.bluez.GattCharacteristic1"
PROPS_IFACE = "org.freedesktop.DBus.Properties"
OM_IFACE = "org.freedesktop.DBus.ObjectManager"
INTROSPECT_IFACE = "org.freedesktop.DBus.Introspectable"
PROFILE_MANAGER_IFACE = "org.bluez.ProfileManager1"
PROFILE_IFACE = "org.bluez.Profile1"
CONTROL_PATH = "/org/axon/mock"
CONTROL_IFACE = "org.axon.MockBluez1"


def uuid16(short):
    """The full lowercase 128-bit form of a 16-bit Bluetooth SIG UUID."""
    return "0000%04x-0000-1000-8000-00805f9b34fb" % short


BRAINIAC_SERVICE = "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BRAINIAC_DATA = "8b5e0002-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BRAINIAC_COMMAND = "8b5e0003-4c5a-4e1b-9a3e-6a78b7e1a0c0"
BATTERY_SERVICE = uuid16(0x180F)
BATTERY_LEVEL = uuid16(0x2A19)
DEVICE_INFO_SERVICE = uuid16(0x180A)
MANUFACTURER_NAME = uuid16(0x2A29)
MODEL_NUMBER = uuid16(0x2A24)
SERIAL_NUMBER = uuid16(0x2A25)
FIRMWARE_REVISION = uuid16(0x2A26)
HEART_RATE_SERVICE = uuid16(0x180D)
HEART_RATE_MEASUREMENT = uuid16(0x2A37)

# Timings of the simulated link, in milliseconds.
CONNECT_DELAY_MS = 50          # Connect → Connected=true
RESOLVE_DELAY_MS = 50          # Connected → ServicesResolved=true
CONNECT_FAIL_DELAY_MS = 300    # a failing Connect answers after this
RESUBSCRIBE_DELAY_MS = 200     # after ServicesResolved on a reconnection, sessions are pending this long
SCAN_INTERVAL_MS = 1000        # RSSI updates while discovering
STREAM_TICK_MS = 2             # pacing timer of notification streams

MTU = 247
EEG_SAMPLE_RATE = 250          # the headset samples at 250 Hz whether or not anyone listens
COUNTS_PER_MICROVOLT = 20      # one int24 count is 0.05 µV
STATUS_DATA_TRANSFER_STARTED = 8


class BluezError(dbus.DBusException):
    """An error reply with one of BlueZ's error names."""

    def __init__(self, name, message):
        super().__init__(message, name="org.bluez.Error." + name)


def invalid_args(message):
    return dbus.DBusException(message, name="org.freedesktop.DBus.Error.InvalidArgs")


def connection_aborted():
    """What BlueZ 5.66 answers when an LE connection attempt does not complete."""
    return BluezError("Failed", "le-connection-abort-by-local")


def string_array(items):
    return dbus.Array(items, signature="s")


def byte_array(data):
    """An `ay`; dbus.ByteArray marshals from bytes directly, far cheaper than an Array of Bytes."""
    return dbus.ByteArray(bytes(data))


def device_path(address):
    return ADAPTER_PATH + "/dev_" + address.upper().replace(":", "_")


def is_resolvable_private(address):
    """Whether a random LE address is resolvable private: its two most significant bits are 0b01 (Core spec Vol 6
    Part B 1.3.2); static random addresses have 0b11 there, non-resolvable private ones 0b00."""
    try:
        octets = [int(part, 16) for part in address.split(":")]
    except ValueError:
        return False
    return len(octets) == 6 and octets[0] & 0xC0 == 0x40


# ---------------------------------------------------------------------------------------------------
# Brainiac packets (docs/brainiac-packet.md)

def _crc8_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return table


CRC8_TABLE = _crc8_table()


def crc8_smbus(data):
    """CRC-8/SMBUS: polynomial 0x07, init 0, no reflection, no final XOR."""
    crc = 0
    for byte in data:
        crc = CRC8_TABLE[crc ^ byte]
    return crc


def with_crc(body):
    return body + bytes([crc8_smbus(body)])


def packet_header(packet_type, order, counter, time_ms):
    return struct.pack("<BBHIQ", 1, packet_type, order & 0xFFFF, counter & 0xFFFFFFFF, time_ms)


def int24_le(count):
    count = max(-8388608, min(8388607, count))
    return (count & 0xFFFFFF).to_bytes(3, "little")


def eeg_packet(order, counter, time_ms, samples):
    """samples: list of 4-tuples of int counts (T3, O1, T4, O2)."""
    body = bytearray(packet_header(0x01, order, counter, time_ms))
    body.append(len(samples))
    for sample in samples:
        for count in sample:
            body += int24_le(count)
    return with_crc(bytes(body))


def battery_packet(order, counter, time_ms, level):
    return with_crc(packet_header(0x02, order, counter, time_ms) + bytes([level]))


def status_packet(order, counter, time_ms, code):
    return with_crc(packet_header(0x03, order, counter, time_ms) + bytes([code]))


# ---------------------------------------------------------------------------------------------------
# Exported objects

class Exported(dbus.service.Object):
    """An object of the mock's tree: its interfaces' properties, Get/GetAll/Set and PropertiesChanged.

    Subclasses fill self.props = {interface: {name: dbus-typed value}}. Values are kept with explicit
    dbus types so that the signatures on the wire are exactly BlueZ's (RSSI n, Value ay, ...).
    """

    WRITABLE = ()  # (interface, property) pairs a client may Set

    def __init__(self, mock, path):
        self.mock = mock
        self.path = path
        self.props = {}
        super().__init__(mock.conn, path)

    def interface_map(self):
        """The a{sa{sv}} of this object for GetManagedObjects and InterfacesAdded."""
        interfaces = dbus.Dictionary({}, signature="sa{sv}")
        interfaces[INTROSPECT_IFACE] = dbus.Dictionary({}, signature="sv")
        for iface, values in self.props.items():
            interfaces[iface] = dbus.Dictionary(values, signature="sv")
        interfaces[PROPS_IFACE] = dbus.Dictionary({}, signature="sv")
        return interfaces

    def set_props(self, iface, **changes):
        """Change properties and emit one PropertiesChanged with those that really changed."""
        current = self.props[iface]
        changed = {k: v for k, v in changes.items() if k not in current or current[k] != v}
        current.update(changed)
        if changed and self.mock.is_exported(self):
            self.mock.emit_properties_changed(self.path, iface, changed)

    def _props_of(self, iface):
        if iface not in self.props:
            raise invalid_args("No such interface '%s'" % iface)
        return self.props[iface]

    @dbus.service.method(PROPS_IFACE, in_signature="ss", out_signature="v")
    def Get(self, iface, name):
        values = self._props_of(iface)
        if name not in values:
            raise invalid_args("No such property '%s'" % name)
        return values[name]

    @dbus.service.method(PROPS_IFACE, in_signature="s", out_signature="a{sv}")
    def GetAll(self, iface):
        return dbus.Dictionary(self._props_of(iface), signature="sv")

    @dbus.service.method(PROPS_IFACE, in_signature="ssv", out_signature="")
    def Set(self, iface, name, value):
        values = self._props_of(iface)
        if name not in values:
            raise invalid_args("No such property '%s'" % name)
        if (iface, name) not in self.WRITABLE:
            raise dbus.DBusException("Property '%s' is not writable" % name,
                                     name="org.freedesktop.DBus.Error.PropertyReadOnly")
        self.set_props(iface, **{name: type(values[name])(value)})


class ProfileManager(dbus.service.Object):
    """org.bluez.ProfileManager1 on /org/bluez: external profiles, one per UUID, owned by the registering client."""

    def __init__(self, mock):
        self.mock = mock
        self.profiles = {}  # uuid -> (client unique name, object path, options)
        super().__init__(mock.conn, "/org/bluez")

    @dbus.service.method(PROFILE_MANAGER_IFACE, in_signature="osa{sv}", out_signature="", sender_keyword="sender")
    def RegisterProfile(self, path, uuid, options, sender=None):
        uuid = str(uuid).lower()
        if uuid in self.profiles:
            raise BluezError("AlreadyExists", "Already Exists")
        self.profiles[uuid] = (str(sender), str(path), {str(k): v for k, v in options.items()})
        self.mock.watch_client(sender)

    @dbus.service.method(PROFILE_MANAGER_IFACE, in_signature="o", out_signature="", sender_keyword="sender")
    def UnregisterProfile(self, path, sender=None):
        for uuid, (owner, owned_path, _) in list(self.profiles.items()):
            if owner == str(sender) and owned_path == str(path):
                del self.profiles[uuid]
                return
        raise BluezError("DoesNotExist", "Does Not Exist")

    def call(self, uuid, member, signature, args, ok, err):
        owner, path, _ = self.profiles[uuid]
        self.mock.conn.call_async(owner, path, PROFILE_IFACE, member, signature, args,
                                  reply_handler=lambda *_: ok(), error_handler=err, timeout=10)

    def release_all(self):
        """What bluetoothd does when it stops: Release() to every profile, which is then registered no more."""
        for uuid, (owner, path, _) in list(self.profiles.items()):
            self.mock.conn.call_async(owner, path, PROFILE_IFACE, "Release", "", (),
                                      reply_handler=lambda *_: None, error_handler=lambda *_: None, timeout=10)
        self.profiles.clear()

    def forget_client(self, client):
        for uuid, (owner, _, _) in list(self.profiles.items()):
            if owner == client:
                del self.profiles[uuid]


class Root(dbus.service.Object):
    """The ObjectManager at /, as bluetoothd has it."""

    def __init__(self, mock):
        self.mock = mock
        super().__init__(mock.conn, "/")

    @dbus.service.method(OM_IFACE, in_signature="", out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return dbus.Dictionary({dbus.ObjectPath(p): o.interface_map() for p, o in self.mock.exported.items()},
                               signature="oa{sa{sv}}")


class Adapter(Exported):
    """org.bluez.Adapter1 on /org/bluez/hci0 with per-client discovery sessions and filters."""

    WRITABLE = ((ADAPTER_IFACE, "Alias"), (ADAPTER_IFACE, "Powered"), (ADAPTER_IFACE, "Discoverable"),
                (ADAPTER_IFACE, "DiscoverableTimeout"), (ADAPTER_IFACE, "Pairable"),
                (ADAPTER_IFACE, "PairableTimeout"))
    FILTER_KEYS = ["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"]

    def __init__(self, mock):
        super().__init__(mock, ADAPTER_PATH)
        self.props[ADAPTER_IFACE] = {
            "Address": dbus.String("00:AA:01:00:00:01"),
            "AddressType": dbus.String("public"),
            "Name": dbus.String("axon-mock"),
            "Alias": dbus.String("axon-mock"),
            "Class": dbus.UInt32(0x7C010C),
            "Powered": dbus.Boolean(True),
            "Discoverable": dbus.Boolean(False),
            "DiscoverableTimeout": dbus.UInt32(180),
            "Pairable": dbus.Boolean(True),
            "PairableTimeout": dbus.UInt32(0),
            "Discovering": dbus.Boolean(False),
            "UUIDs": string_array([uuid16(0x1800), uuid16(0x1801), uuid16(0x180A)]),
            "Modalias": dbus.String("usb:v1D6Bp0246d0542"),
            "Roles": string_array(["central", "peripheral"]),
        }
        self.filters = {}      # client unique name -> filter dict, set by SetDiscoveryFilter
        self.discovering = set()  # client unique names with a running discovery

    def matches_any_filter(self, air):
        """Whether a device in the air passes the filter of at least one discovering client."""
        return any(air.passes_filter(self.filters.get(client, {})) for client in self.discovering)

    def forget_client(self, client):
        self.filters.pop(client, None)
        if client in self.discovering:
            self.discovering.discard(client)
            self._update_discovering()

    def stop_all(self):
        self.discovering.clear()
        self.filters.clear()
        self._update_discovering()

    def _update_discovering(self):
        running = bool(self.discovering)
        self.set_props(ADAPTER_IFACE, Discovering=dbus.Boolean(running))
        self.mock.scanner.set_running(running)

    @dbus.service.method(ADAPTER_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def StartDiscovery(self, sender=None):
        if sender in self.discovering:
            raise BluezError("InProgress", "Operation already in progress")
        self.discovering.add(sender)
        self.mock.watch_client(sender)
        self._update_discovering()

    @dbus.service.method(ADAPTER_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def StopDiscovery(self, sender=None):
        if sender not in self.discovering:
            raise BluezError("Failed", "No discovery started")
        self.discovering.discard(sender)
        self._update_discovering()

    @dbus.service.method(ADAPTER_IFACE, in_signature="a{sv}", out_signature="", sender_keyword="sender")
    def SetDiscoveryFilter(self, options, sender=None):
        # BlueZ rejects unknown keys, an unknown transport and RSSI together with Pathloss.
        if (set(options) - set(self.FILTER_KEYS)
                or options.get("Transport", "auto") not in ("auto", "bredr", "le")
                or ("RSSI" in options and "Pathloss" in options)):
            raise BluezError("InvalidArguments", "Invalid arguments in method call")
        if options:
            self.filters[sender] = dict(options)
            self.mock.watch_client(sender)
        else:
            self.filters.pop(sender, None)  # an empty dict clears the filter, as in BlueZ
        if self.discovering:
            self.mock.scanner.scan_soon()

    @dbus.service.method(ADAPTER_IFACE, in_signature="", out_signature="as")
    def GetDiscoveryFilters(self):
        return string_array(self.FILTER_KEYS)

    @dbus.service.method(ADAPTER_IFACE, in_signature="o", out_signature="")
    def RemoveDevice(self, path):
        device = self.mock.exported.get(str(path))
        if not isinstance(device, Device):
            raise BluezError("DoesNotExist", "Does Not Exist")
        device.air.disconnect()
        device.air.bonded = False  # the keys go with the object: its resolvable addresses are not resolved any more
        self.mock.unexport_device(device.air)


class Device(Exported):
    """org.bluez.Device1 of one device of the air; the link state machine lives in AirDevice."""

    WRITABLE = ((DEVICE_IFACE, "Alias"), (DEVICE_IFACE, "Trusted"), (DEVICE_IFACE, "Blocked"),
                (DEVICE_IFACE, "WakeAllowed"))

    def __init__(self, mock, air):
        super().__init__(mock, device_path(air.bluez_address()))
        self.air = air
        props = {
            "Address": dbus.String(air.bluez_address()),
            "AddressType": dbus.String(air.address_type),
            "Name": dbus.String(air.name),
            "Alias": dbus.String(air.name),
            "Paired": dbus.Boolean(air.bonded),
            "Bonded": dbus.Boolean(air.bonded),
            "Trusted": dbus.Boolean(False),
            "Blocked": dbus.Boolean(False),
            "LegacyPairing": dbus.Boolean(False),
            "RSSI": dbus.Int16(air.rssi),
            "Connected": dbus.Boolean(False),
            "UUIDs": string_array(air.advertised_uuids),
            "Adapter": dbus.ObjectPath(ADAPTER_PATH),
            "ServicesResolved": dbus.Boolean(False),
        }
        if air.manufacturer_data:
            props["ManufacturerData"] = dbus.Dictionary(
                {dbus.UInt16(company): byte_array(data) for company, data in air.manufacturer_data.items()},
                signature="qv")
        self.props[DEVICE_IFACE] = props

    @dbus.service.method(DEVICE_IFACE, in_signature="", out_signature="", async_callbacks=("ok", "err"))
    def Connect(self, ok, err):
        self.air.connect(ok, err)

    @dbus.service.method(DEVICE_IFACE, in_signature="", out_signature="")
    def Disconnect(self):
        self.air.disconnect()

    @dbus.service.method(DEVICE_IFACE, in_signature="", out_signature="")
    def Pair(self):
        """Just Works bonding as BlueZ does it for an LE device: AlreadyExists when paired, ConnectionAttemptFailed
        out of range, AuthenticationRejected when the device refuses; else Paired and Bonded become true (the keys
        stay until Adapter1.RemoveDevice drops this object)."""
        self.air.pair_calls += 1
        if self.props[DEVICE_IFACE]["Paired"]:
            raise BluezError("AlreadyExists", "Already Exists")
        if not self.air.in_range:
            raise BluezError("ConnectionAttemptFailed", "Page Timeout")
        if self.air.pairing == "reject":
            raise BluezError("AuthenticationRejected", "Authentication Rejected")
        self.air.bonded = True
        # Bonding hands over the device's identity address and its IRK: BlueZ (device_update_addr) changes
        # Address to the identity address and keeps the object path, which still names the address it was found at.
        self.set_props(DEVICE_IFACE, Address=dbus.String(self.air.address), Paired=dbus.Boolean(True),
                       Bonded=dbus.Boolean(True))

    @dbus.service.method(DEVICE_IFACE, in_signature="", out_signature="")
    def CancelPairing(self):
        raise BluezError("DoesNotExist", "Does Not Exist")

    @dbus.service.method(DEVICE_IFACE, in_signature="s", out_signature="", async_callbacks=("ok", "err"))
    def ConnectProfile(self, uuid, ok, err):
        self.air.connect_profile(str(uuid).lower(), ok, err)

    @dbus.service.method(DEVICE_IFACE, in_signature="s", out_signature="", async_callbacks=("ok", "err"))
    def DisconnectProfile(self, uuid, ok, err):
        self.air.disconnect_profile(str(uuid).lower(), ok, err)


class GattService(Exported):
    def __init__(self, mock, device_path_, handle, uuid):
        super().__init__(mock, "%s/service%04x" % (device_path_, handle))
        self.uuid = uuid
        self.characteristics = []
        self.props[SERVICE_IFACE] = {
            "UUID": dbus.String(uuid),
            "Device": dbus.ObjectPath(device_path_),
            "Primary": dbus.Boolean(True),
            "Includes": dbus.Array([], signature="o"),
        }


class GattCharacteristic(Exported):
    """A characteristic with BlueZ's notify-session rules.

    Sessions are keyed by the caller's unique bus name. `subscribed` is the state of the device-side
    subscription (the CCC): it is lost with the link and re-established by the mock itself
    RESUBSCRIBE_DELAY_MS after services are resolved again, as BlueZ 5.66 does for its sessions.
    """

    def __init__(self, mock, air, service, handle, uuid, flags, value=b""):
        super().__init__(mock, "%s/char%04x" % (service.path, handle))
        self.air = air
        self.uuid = uuid
        self.flags = flags
        self.sessions = set()
        self.subscribed = False
        self.writes = []  # (value bytes, write type) in arrival order
        props = {
            "UUID": dbus.String(uuid),
            "Service": dbus.ObjectPath(service.path),
            "Value": byte_array(value),
            "Flags": string_array(flags),
            "MTU": dbus.UInt16(MTU),
        }
        if self.can_notify:
            props["Notifying"] = dbus.Boolean(False)
        self.props[CHAR_IFACE] = props

    @property
    def can_notify(self):
        return "notify" in self.flags or "indicate" in self.flags

    @property
    def streaming(self):
        """Whether a notification sent now would reach a client."""
        return self.air.services_resolved and self.subscribed and bool(self.sessions)

    def notify(self, value):
        """Send one notification: PropertiesChanged with the new Value, even when it is unchanged."""
        if not self.streaming:
            return False
        value = byte_array(value)
        self.props[CHAR_IFACE]["Value"] = value
        self.mock.emit_properties_changed(self.path, CHAR_IFACE, {"Value": value})
        return True

    def link_lost(self):
        self.subscribed = False
        self.air.streaming_changed()

    def resubscribe(self):
        """The device-side subscription is back for every session that survived the outage."""
        if self.sessions and self.air.services_resolved:
            self.subscribed = True
            self._update_notifying()
            self.air.streaming_changed()

    def drop_client(self, client):
        if client in self.sessions:
            self.sessions.discard(client)
            self._update_notifying()
            self.air.streaming_changed()

    def clear_sessions(self):
        self.sessions.clear()
        self.subscribed = False
        self._update_notifying()

    def _update_notifying(self):
        """Notifying turns true with the first subscription and false when the last session ends;
        a link outage leaves it as it is (BlueZ keeps the sessions and their state)."""
        if not self.can_notify:
            return
        if not self.sessions:
            self.set_props(CHAR_IFACE, Notifying=dbus.Boolean(False))
        elif self.subscribed:
            self.set_props(CHAR_IFACE, Notifying=dbus.Boolean(True))

    def _require_connection(self):
        if not self.air.services_resolved:
            raise BluezError("Failed", "Not connected")

    @dbus.service.method(CHAR_IFACE, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        self._require_connection()
        if "read" not in self.flags:
            raise BluezError("NotPermitted", "Read not permitted")
        offset = int(options.get("offset", 0))
        return byte_array(bytes(self.props[CHAR_IFACE]["Value"])[offset:])

    @dbus.service.method(CHAR_IFACE, in_signature="aya{sv}", out_signature="")
    def WriteValue(self, value, options):
        self._require_connection()
        write_type = str(options.get("type", "request" if "write" in self.flags else "command"))
        allowed = {"request": "write", "command": "write-without-response", "reliable": "reliable-write"}
        if write_type not in allowed:
            raise BluezError("InvalidArguments", "Invalid arguments in method call")
        if allowed[write_type] not in self.flags:
            raise BluezError("NotSupported", "Operation is not supported")
        self.writes.append((bytes(value), write_type))
        self.air.written(self, bytes(value), write_type)

    @dbus.service.method(CHAR_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def StartNotify(self, sender=None):
        if not self.can_notify:
            raise BluezError("NotSupported", "Operation is not supported")
        self.air.start_notify_calls += 1
        if sender in self.sessions:
            # One session per client: success while it is active, InProgress while it is being
            # re-established after a reconnection (BlueZ 5.66 gatt-client.c).
            if self.subscribed and self.air.services_resolved:
                return
            raise BluezError("InProgress", "In Progress")
        self.sessions.add(sender)
        self.mock.watch_client(sender)
        # Disconnected: BlueZ accepts the session and subscribes when the device is connected again.
        if self.air.services_resolved and not self.air.resubscribe_pending:
            self.subscribed = True
        self._update_notifying()
        self.air.streaming_changed()

    @dbus.service.method(CHAR_IFACE, in_signature="", out_signature="", sender_keyword="sender")
    def StopNotify(self, sender=None):
        if not self.props[CHAR_IFACE].get("Notifying", False):
            raise BluezError("Failed", "Not notifying")
        if sender not in self.sessions:
            raise BluezError("Failed", "No notify session started")
        self.drop_client(sender)
        if not self.sessions:
            self.subscribed = False


# ---------------------------------------------------------------------------------------------------
# The air: devices, their links and their data

class AirDevice:
    """A BLE peripheral in the simulated air: range, link state, GATT database and data generator."""

    KIND = None
    OPTIONS = {"rssi", "pairing", "rpa"}  # option keys this kind understands; subclasses add theirs

    def __init__(self, mock, address, name, options):
        unknown = set(options) - self.OPTIONS
        if unknown:
            # A misspelt option would otherwise silently leave a default in place.
            raise invalid_args("unknown %s option(s): %s" % (self.KIND, ", ".join(sorted(unknown))))
        self.mock = mock
        self.address = address.upper()
        self.name = name
        self.rssi = int(options.get("rssi", -55))
        # How the device answers Device1.Pair: "accept" (Just Works bonding) or "reject" (AuthenticationRejected).
        self.pairing = options.get("pairing", "accept")
        if self.pairing not in ("accept", "reject"):
            raise invalid_args("pairing is accept or reject, not %s" % self.pairing)
        self.pair_calls = 0
        # `address` is the device's identity address. With `rpa` it advertises that resolvable private address
        # instead, and only a bonded central (which holds its IRK) sees the identity address.
        self.rpa = None
        if "rpa" in options:
            self.rpa = str(options["rpa"]).upper()
            if not is_resolvable_private(self.rpa):
                raise invalid_args("rpa %s is not a resolvable private address (first octet 0x40-0x7F)" % self.rpa)
        self.bonded = False
        self.address_type = "random"   # LE devices here use random addresses; a Classic device's is public
        self.profile_uuids = ()        # Classic profiles the device offers through Device1.ConnectProfile
        self.serial = None             # the mock's end of a profile connection's socket pair
        self.serial_profile = None
        self.serial_bytes = 0
        self.in_range = True
        self.manufacturer_data = {}
        self.advertised_uuids = []
        self.device = None             # the Device1 object once discovered
        self.services = []             # GattService objects, built on first connection
        self.gatt_exported = False
        self.connected = False
        self.pending_connect = None    # (ok, err) of the Connect call in flight
        self.services_resolved = False
        self.resubscribe_pending = False
        self.epoch = 0                 # bumped on every link change; stale timers compare it
        self.fail_next_connects = 0
        self.connect_calls = 0
        self.start_notify_calls = 0
        self.back_in_range_timer = None
        self.battery = 100
        self.battery_char = None       # Battery Level, for SetBattery and the battery plugin

    # -- Classic profiles (ProfileManager1 / Profile1)

    def connect_profile(self, uuid, ok, err):
        """Device1.ConnectProfile: as BlueZ with an external profile registered for `uuid`, connect the channel
        and hand one end of it to the profile's owner in Profile1.NewConnection; answer when it has replied."""
        if uuid not in self.profile_uuids:
            err(BluezError("NotSupported", "Operation is not supported"))
            return
        if not self.in_range:
            err(BluezError("Failed", "Host is down"))
            return
        if self.serial is not None:
            err(BluezError("AlreadyConnected", "Already Connected"))
            return
        if uuid not in self.mock.profile_manager.profiles:
            err(BluezError("NotAvailable", "Operation currently not available"))
            return
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        handed = dbus.types.UnixFd(theirs)
        theirs.close()  # UnixFd holds its own duplicate until the message is sent

        def accepted():
            self.serial = mine
            self.serial_profile = uuid
            self.device.set_props(DEVICE_IFACE, Connected=dbus.Boolean(True))
            ok()
            self.profile_connected()

        def refused(error):
            mine.close()
            err(BluezError("Failed", "NewConnection: %s" % error.get_dbus_message()))

        self.mock.profile_manager.call(
            uuid, "NewConnection", "oha{sv}",
            (dbus.ObjectPath(self.device.path), handed,
             dbus.Dictionary({"Version": dbus.UInt16(0x0102)}, signature="sv")), accepted, refused)

    def disconnect_profile(self, uuid, ok, err):
        """Device1.DisconnectProfile: RequestDisconnection to the profile, then the channel closes."""
        if uuid not in self.profile_uuids:
            err(BluezError("NotSupported", "Operation is not supported"))
            return
        if self.serial is None or uuid != self.serial_profile:
            err(BluezError("NotConnected", "Not Connected"))
            return

        def closed(*_):
            self.close_serial()
            ok()
        if uuid in self.mock.profile_manager.profiles:
            self.mock.profile_manager.call(uuid, "RequestDisconnection", "o", (dbus.ObjectPath(self.device.path),),
                                           closed, closed)
        else:
            closed()

    def profile_connected(self):
        """A profile connection was accepted; kinds that speak first override this."""

    def close_serial(self):
        if self.serial is not None:
            self.serial.close()
            self.serial = None
            self.serial_profile = None
            if self.device is not None:
                self.device.set_props(DEVICE_IFACE, Connected=dbus.Boolean(False))

    def send_serial(self, data):
        """Bytes from the device down its profile connection; whether there was one."""
        if self.serial is None:
            return False
        self.serial.sendall(bytes(data))
        self.serial_bytes += len(data)
        return True

    # -- discovery

    def bluez_address(self):
        """The address BlueZ shows for the device: its identity address once bonded (BlueZ resolves every
        resolvable private address with the IRK), else the address it advertises."""
        return self.address if self.bonded or self.rpa is None else self.rpa

    def rotate_address(self, rpa):
        """The device advertises a new resolvable private address (its privacy timer fired)."""
        rpa = str(rpa).upper()
        if not is_resolvable_private(rpa):
            raise invalid_args("%s is not a resolvable private address (first octet 0x40-0x7F)" % rpa)
        if self.connected or self.connecting:
            raise BluezError("InProgress", "connected: a device changes its address only while advertising")
        self.rpa = rpa
        if self.device is not None and not self.bonded:
            # Unbonded, BlueZ cannot tie the new address to the old one: the old object stays (until BlueZ's
            # TemporaryTimeout) but nobody answers there, and the next discovery finds a new object.
            self.mock.vacate(self)

    def passes_filter(self, flt):
        uuids = [str(u).lower() for u in flt.get("UUIDs", [])]
        if uuids and not any(u in self.advertised_uuids for u in uuids):
            return False
        if "RSSI" in flt and self.rssi < int(flt["RSSI"]):
            return False
        pattern = str(flt.get("Pattern", ""))
        if pattern and not (self.address.startswith(pattern.upper()) or self.name.startswith(pattern)):
            return False
        return True

    # -- GATT

    def characteristics(self):
        return [c for s in self.services for c in s.characteristics]

    def characteristic(self, uuid):
        uuid = uuid.lower()
        for char in self.characteristics():
            if char.uuid == uuid:
                return char
        return None

    def build_gatt(self):
        """Create the GattService/GattCharacteristic objects of this kind (not exported yet)."""
        raise NotImplementedError

    def forget_gatt(self):
        """The GATT objects were removed (RemoveDevice, Reset): sessions and cache go with them."""
        for char in self.characteristics():
            char.clear_sessions()
        self.services = []
        self.gatt_exported = False
        self.streaming_changed()

    def written(self, characteristic, value, write_type):
        """A central wrote `value` to `characteristic`; kinds that answer commands override this."""

    def add_service(self, handle, uuid):
        service = GattService(self.mock, self.device.path, handle, uuid)
        self.services.append(service)
        return service

    def add_characteristic(self, service, handle, uuid, flags, value=b""):
        char = GattCharacteristic(self.mock, self, service, handle, uuid, flags, value)
        service.characteristics.append(char)
        return char

    # -- link

    @property
    def connecting(self):
        return self.pending_connect is not None

    def connect(self, ok, err):
        self.connect_calls += 1
        if self.connected:
            ok()
            return
        if self.connecting:
            err(BluezError("InProgress", "In Progress"))
            return
        self.pending_connect = (ok, err)
        if not self.in_range or self.fail_next_connects > 0:
            if self.fail_next_connects > 0:
                self.fail_next_connects -= 1
            self._later(CONNECT_FAIL_DELAY_MS, self.epoch, self._answer_connect, connection_aborted())
        else:
            self._later(CONNECT_DELAY_MS, self.epoch, self._link_up)

    def _answer_connect(self, error=None):
        """Reply to the Connect call in flight, with success or the given error."""
        ok, err = self.pending_connect
        self.pending_connect = None
        if error is None:
            ok()
        else:
            err(error)

    def _later(self, ms, epoch, func, *args):
        """Run func after ms unless the link changed meanwhile (then the step is stale)."""
        def fire():
            if self.epoch == epoch:
                func(*args)
            return False
        GLib.timeout_add(ms, fire)

    def _link_up(self):
        self.epoch += 1
        self.connected = True
        self.device.set_props(DEVICE_IFACE, Connected=dbus.Boolean(True))
        self._answer_connect()
        if not self.gatt_exported:
            # First connection: discover services and export them. Later connections reuse BlueZ's
            # GATT cache, so the objects stay and no InterfacesAdded is emitted again.
            self.build_gatt()
            self.mock.export_gatt(self)
            self.gatt_exported = True
        self._later(RESOLVE_DELAY_MS, self.epoch, self._services_resolved)

    def _services_resolved(self):
        self.services_resolved = True
        self.device.set_props(DEVICE_IFACE, ServicesResolved=dbus.Boolean(True))
        if self.mock.battery_plugin and self.battery_char is not None:
            # BlueZ's battery plugin reads the level once connected and offers it as Battery1.
            self.mock.add_interface(self.device, BATTERY1_IFACE, {"Percentage": dbus.Byte(self.battery)})
        if any(c.sessions for c in self.characteristics()):
            self.resubscribe_pending = True
            self._later(RESUBSCRIBE_DELAY_MS, self.epoch, self._resubscribe)

    def _resubscribe(self):
        self.resubscribe_pending = False
        for char in self.characteristics():
            char.resubscribe()

    def disconnect(self):
        """Drop the link: ServicesResolved=false, then Connected=false. Sessions survive.

        A Connect still in flight fails, as an LE connection attempt that is cancelled does."""
        self.epoch += 1
        self.resubscribe_pending = False
        if self.connecting:
            self._answer_connect(connection_aborted())
        if not self.connected:
            return
        self.services_resolved = False
        if self.device is not None:
            self.device.set_props(DEVICE_IFACE, ServicesResolved=dbus.Boolean(False))
            self.mock.remove_interface(self.device, BATTERY1_IFACE)
        self.connected = False
        if self.device is not None:
            self.device.set_props(DEVICE_IFACE, Connected=dbus.Boolean(False))
        for char in self.characteristics():
            char.link_lost()

    def set_in_range(self, in_range):
        if self.back_in_range_timer is not None:
            GLib.source_remove(self.back_in_range_timer)
            self.back_in_range_timer = None
        self.in_range = in_range
        if not in_range:
            self.disconnect()
        elif self.mock.adapter.discovering:
            self.mock.scanner.scan_soon()

    def link_loss(self, seconds):
        self.set_in_range(False)

        def back():
            self.back_in_range_timer = None
            self.set_in_range(True)
            return False
        self.back_in_range_timer = GLib.timeout_add(int(seconds * 1000), back)

    def streaming_changed(self):
        """Called when a characteristic's ability to deliver notifications may have changed."""


    def set_rate(self, rate):
        raise BluezError("NotSupported", "This device kind has no rate")

    def set_battery(self, level):
        """A new battery level: the Battery Level value (notified to its sessions) and Battery1."""
        self.battery = level
        if self.battery_char is not None:
            self.battery_char.props[CHAR_IFACE]["Value"] = byte_array([level])
            self.battery_char.notify([level])
        if self.device is not None and BATTERY1_IFACE in self.device.props:
            self.device.set_props(BATTERY1_IFACE, Percentage=dbus.Byte(level))

    def stats(self):
        return {
            "connected": dbus.Boolean(self.connected),
            "inRange": dbus.Boolean(self.in_range),
            "sessions": dbus.UInt32(sum(len(c.sessions) for c in self.characteristics())),
            "connectCalls": dbus.UInt32(self.connect_calls),
            "startNotifyCalls": dbus.UInt32(self.start_notify_calls),
            "pairCalls": dbus.UInt32(self.pair_calls),
            "paired": dbus.Boolean(bool(self.device is not None and self.device.props[DEVICE_IFACE]["Paired"])),
            "bonded": dbus.Boolean(self.bonded),
            "advertisingAddress": dbus.String(self.rpa or self.address),
            "serialConnected": dbus.Boolean(self.serial is not None),
            "serialBytes": dbus.UInt64(self.serial_bytes),
        }

    def shutdown(self):
        """Stop every timer of this device (it is being removed)."""
        self.close_serial()
        self.epoch += 1
        if self.back_in_range_timer is not None:
            GLib.source_remove(self.back_in_range_timer)
            self.back_in_range_timer = None


def add_battery_service(device, handle, level):
    service = device.add_service(handle, BATTERY_SERVICE)
    return device.add_characteristic(service, handle + 1, BATTERY_LEVEL, ["read", "notify"], bytes([level]))


def add_device_info_service(device, handle, model):
    service = device.add_service(handle, DEVICE_INFO_SERVICE)
    serial = device.address.replace(":", "")
    entries = [(MANUFACTURER_NAME, "Axon mock"), (MODEL_NUMBER, model),
               (SERIAL_NUMBER, serial), (FIRMWARE_REVISION, "1.0.0")]
    for i, (uuid, text) in enumerate(entries):
        device.add_characteristic(service, handle + 1 + 2 * i, uuid, ["read"], text.encode())


class NotificationPacer:
    """Sends notifications at `rate` per second by the monotonic clock while a stream is possible.

    A GLib timeout every STREAM_TICK_MS sends every notification that is due, so the rate does not
    drift with timer jitter and a stall is caught up rather than skipped.
    """

    def __init__(self, rate, send_one):
        self.rate = rate
        self.send_one = send_one
        self.timer = None
        self.anchor = 0.0
        self.sent_since_anchor = 0

    @property
    def running(self):
        return self.timer is not None

    def start(self):
        if self.timer is None:
            self.anchor = time.monotonic()
            self.sent_since_anchor = 0
            self.timer = GLib.timeout_add(STREAM_TICK_MS, self._tick)
            self._tick()

    def stop(self):
        if self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None

    def set_rate(self, rate):
        # Re-anchor so the new rate counts from now and nothing already due is lost or doubled.
        self._tick()
        self.rate = rate
        self.anchor = time.monotonic()
        self.sent_since_anchor = 0

    def _tick(self):
        due = int((time.monotonic() - self.anchor) * self.rate) + 1
        while self.sent_since_anchor < due:
            if not self.send_one():
                break
            self.sent_since_anchor += 1
        return True


class Brainiac(AirDevice):
    """The Brainiac EEG headset: a 250 Hz four-channel test signal as version-1 packets.

    The sample counter runs with real time from creation, connected or not; while streaming, each
    notification takes the next `samples` samples, so a link outage is a counter jump on resumption.
    """

    KIND = "brainiac"
    OPTIONS = AirDevice.OPTIONS | {"rate", "samples", "frequency", "amplitude", "battery", "battery_interval",
                                   "status"}
    CHANNEL_PHASES = [k * math.pi / 4 for k in range(4)]  # T3, O1, T4, O2

    def __init__(self, mock, address, name, options):
        super().__init__(mock, address, name, options)
        self.advertised_uuids = [BRAINIAC_SERVICE]
        # 0xFFFF is the company identifier reserved for tests; clients see an a{qv} holding an ay.
        self.manufacturer_data = {0xFFFF: b"AXON"}
        self.rate = float(options.get("rate", 250))
        self.samples = int(options.get("samples", 1))
        if not 1 <= self.samples <= 10:
            raise invalid_args("samples must be 1...10")
        self.frequency = float(options.get("frequency", 10))
        self.amplitude = float(options.get("amplitude", 50))
        self.battery = int(options.get("battery", 87))
        self.battery_interval = float(options.get("battery_interval", 10))
        self.send_status = bool(int(options.get("status", 1)))
        self.born_mono = time.monotonic()
        self.born_unix_ms = int(time.time() * 1000)
        self.next_counter = 0
        self.order = 0
        self.sent = 0
        self.last_battery_packet = 0.0
        self.data_char = None
        self.pacer = NotificationPacer(self.rate, self._send_next)

    def build_gatt(self):
        service = self.add_service(0x000A, BRAINIAC_SERVICE)
        self.data_char = self.add_characteristic(service, 0x000B, BRAINIAC_DATA, ["notify"])
        self.add_characteristic(service, 0x000E, BRAINIAC_COMMAND, ["write", "write-without-response"])
        self.battery_char = add_battery_service(self, 0x0010, self.battery)
        add_device_info_service(self, 0x0014, "Brainiac")

    # -- the sample clock

    def realtime_counter(self):
        return int((time.monotonic() - self.born_mono) * EEG_SAMPLE_RATE)

    def time_ms_of(self, counter):
        return self.born_unix_ms + counter * 1000 // EEG_SAMPLE_RATE

    def sample_counts(self, counter):
        t = counter / EEG_SAMPLE_RATE
        base = 2 * math.pi * self.frequency * t
        return tuple(int(round(self.amplitude * math.sin(base + phase) * COUNTS_PER_MICROVOLT))
                     for phase in self.CHANNEL_PHASES)

    def current_counter(self):
        """The next sample counter: while not streaming the headset keeps sampling."""
        if self.pacer.running:
            return self.next_counter
        return max(self.next_counter, self.realtime_counter())

    # -- streaming

    def forget_gatt(self):
        super().forget_gatt()
        self.data_char = None
        self.battery_char = None
        self.pacer.stop()

    def streaming_changed(self):
        if self.data_char is not None and self.data_char.streaming:
            if not self.pacer.running:
                self.next_counter = self.current_counter()
                if self.send_status:
                    self._emit(status_packet(self.order, self.next_counter, int(time.time() * 1000),
                                             STATUS_DATA_TRANSFER_STARTED))
                self.last_battery_packet = time.monotonic()
                self.pacer.start()
        else:
            self.pacer.stop()

    def _emit(self, packet):
        if self.data_char.notify(packet):
            self.order = (self.order + 1) & 0xFFFF
            self.sent += 1
            return True
        return False

    def _send_next(self):
        counter = self.next_counter
        samples = [self.sample_counts(counter + i) for i in range(self.samples)]
        if not self._emit(eeg_packet(self.order, counter, self.time_ms_of(counter), samples)):
            return False
        self.next_counter = (counter + self.samples) & 0xFFFFFFFF
        self._maybe_send_battery_packet()
        return True

    def _maybe_send_battery_packet(self):
        if self.battery_interval <= 0:
            return
        now = time.monotonic()
        if now - self.last_battery_packet >= self.battery_interval:
            self.last_battery_packet = now
            self._emit(battery_packet(self.order, self.next_counter, int(time.time() * 1000), self.battery))

    def set_rate(self, rate):
        if rate <= 0:
            raise invalid_args("rate must be positive")
        self.rate = rate
        self.pacer.set_rate(rate)

    def set_battery(self, level):
        super().set_battery(level)
        if self.data_char is not None and self.data_char.streaming:
            self._emit(battery_packet(self.order, self.next_counter, int(time.time() * 1000), level))

    def send_status_code(self, code):
        if self.data_char is None or not self.data_char.streaming:
            return False
        return self._emit(status_packet(self.order, self.next_counter, int(time.time() * 1000), code))

    def stats(self):
        stats = super().stats()
        stats.update({
            "sent": dbus.UInt64(self.sent),
            "counter": dbus.UInt32(self.current_counter() & 0xFFFFFFFF),
            "orderNumber": dbus.UInt16(self.order),
        })
        return stats

    def shutdown(self):
        super().shutdown()
        self.pacer.stop()


class HeartRate(AirDevice):
    """A heart-rate band: Heart Rate Measurement (flags 0x00, 8-bit bpm) once per second."""

    KIND = "heartrate"
    OPTIONS = AirDevice.OPTIONS | {"bpm", "battery", "rate"}

    def __init__(self, mock, address, name, options):
        super().__init__(mock, address, name, options)
        self.advertised_uuids = [HEART_RATE_SERVICE, BATTERY_SERVICE]
        self.bpm = int(options.get("bpm", 62))
        self.battery = int(options.get("battery", 74))
        self.rate = float(options.get("rate", 1))
        self.sent = 0
        self.measurement_char = None
        self.pacer = NotificationPacer(self.rate, self._send_next)

    def build_gatt(self):
        # Handles deliberately differ from the Brainiac's: clients must look characteristics up by UUID.
        service = self.add_service(0x0020, HEART_RATE_SERVICE)
        self.measurement_char = self.add_characteristic(service, 0x0021, HEART_RATE_MEASUREMENT, ["notify"])
        self.add_characteristic(service, 0x0024, uuid16(0x2A38), ["read"], bytes([1]))  # body sensor: chest
        self.battery_char = add_battery_service(self, 0x0030, self.battery)
        add_device_info_service(self, 0x0040, "Heartband")

    def forget_gatt(self):
        super().forget_gatt()
        self.measurement_char = None
        self.battery_char = None
        self.pacer.stop()

    def streaming_changed(self):
        if self.measurement_char is not None and self.measurement_char.streaming:
            self.pacer.start()
        else:
            self.pacer.stop()

    def _send_next(self):
        if not self.measurement_char.notify(bytes([0x00, self.bpm & 0xFF])):
            return False
        self.sent += 1
        return True

    def set_rate(self, rate):
        if rate <= 0:
            raise invalid_args("rate must be positive")
        self.rate = rate
        self.pacer.set_rate(rate)

    def stats(self):
        stats = super().stats()
        stats["sent"] = dbus.UInt64(self.sent)
        return stats

    def shutdown(self):
        super().shutdown()
        self.pacer.stop()


class Vacated(AirDevice):
    """What an unbonded device's old object stands for after the device moved to a new resolvable private address:
    nobody advertises there any more, so Connect fails as an LE connection attempt to an absent device does."""

    KIND = "vacated"

    def __init__(self, mock, address, name):
        super().__init__(mock, address, name, {})
        self.in_range = False

    def build_gatt(self):
        """Never connected, so never asked for GATT objects."""


KINDS = {cls.KIND: cls for cls in (Brainiac, HeartRate)}


def load_kind_modules():
    """Adds the device kinds of kinds/*.py, so each adapter's simulated device lives in a file of its own.

    Each module sees this one as the global `mock` (AirDevice, NotificationPacer, uuid16, add_battery_service,
    BluezError, ...) and lists its AirDevice subclasses in DEVICE_KINDS.
    """
    import glob
    import importlib.util
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kinds")
    for path in sorted(glob.glob(os.path.join(folder, "*.py"))):
        name = "mock_kind_" + os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        module.mock = sys.modules[__name__]
        spec.loader.exec_module(module)
        for cls in getattr(module, "DEVICE_KINDS", ()):
            KINDS[cls.KIND] = cls



# ---------------------------------------------------------------------------------------------------
# Discovery

class Scanner:
    """While discovery runs: devices that are in range and match a filter appear; RSSI updates each second."""

    def __init__(self, mock):
        self.mock = mock
        self.timer = None
        self.tick = 0

    def set_running(self, running):
        if running and self.timer is None:
            self.timer = GLib.timeout_add(SCAN_INTERVAL_MS, self._periodic)
            self.scan_soon()
        elif not running and self.timer is not None:
            GLib.source_remove(self.timer)
            self.timer = None

    def scan_soon(self):
        """Advertisements are seen within a few milliseconds of discovery starting."""
        GLib.timeout_add(20, lambda: self.scan(update_rssi=False) and False)

    def _periodic(self):
        self.tick += 1
        self.scan(update_rssi=True)
        return True

    def scan(self, update_rssi):
        adapter = self.mock.adapter
        if not adapter.discovering:
            return False
        for air in list(self.mock.air.values()):
            if not air.in_range or not adapter.matches_any_filter(air):
                continue
            if air.device is None:
                self.mock.export_device(air)
            elif update_rssi:
                # A little jitter, as a real radio has, so each update is a real change.
                jitter = (-1, 1)[self.tick % 2]
                air.device.set_props(DEVICE_IFACE, RSSI=dbus.Int16(air.rssi + jitter))
        return False


# ---------------------------------------------------------------------------------------------------
# Control API for tests

class Control(dbus.service.Object):
    """org.axon.MockBluez1 on /org/axon/mock: the test's hand on the air."""

    def __init__(self, mock):
        self.mock = mock
        super().__init__(mock.conn, CONTROL_PATH)

    @dbus.service.method(CONTROL_IFACE, in_signature="sssa{sv}", out_signature="o")
    def AddDevice(self, kind, address, name, options):
        air = self.mock.add_device(str(kind), str(address), str(name),
                                   {str(k): v for k, v in options.items()})
        return dbus.ObjectPath(device_path(air.bluez_address()))

    @dbus.service.method(CONTROL_IFACE, in_signature="sb", out_signature="")
    def SetInRange(self, address, in_range):
        self.mock.air_device(address).set_in_range(bool(in_range))

    @dbus.service.method(CONTROL_IFACE, in_signature="ss", out_signature="")
    def RotateAddress(self, address, rpa):
        self.mock.air_device(address).rotate_address(str(rpa))

    @dbus.service.method(CONTROL_IFACE, in_signature="sd", out_signature="")
    def LinkLoss(self, address, seconds):
        self.mock.air_device(address).link_loss(float(seconds))

    @dbus.service.method(CONTROL_IFACE, in_signature="su", out_signature="")
    def FailNextConnects(self, address, count):
        self.mock.air_device(address).fail_next_connects = int(count)

    @dbus.service.method(CONTROL_IFACE, in_signature="sd", out_signature="")
    def SetRate(self, address, rate):
        self.mock.air_device(address).set_rate(float(rate))

    @dbus.service.method(CONTROL_IFACE, in_signature="sy", out_signature="")
    def SetBattery(self, address, level):
        self.mock.air_device(address).set_battery(int(level))

    @dbus.service.method(CONTROL_IFACE, in_signature="sy", out_signature="b")
    def SendStatus(self, address, code):
        air = self.mock.air_device(address)
        if not isinstance(air, Brainiac):
            raise invalid_args("only a brainiac sends status packets")
        return dbus.Boolean(air.send_status_code(int(code)))

    @dbus.service.method(CONTROL_IFACE, in_signature="ssas", out_signature="b")
    def Act(self, address, action, arguments):
        """Something happens on a device (what, per kind: its act method); whether it reached the central at once."""
        air = self.mock.air_device(address)
        act = getattr(air, "act", None)
        if act is None:
            raise invalid_args("a %s has no actions" % air.KIND)
        return dbus.Boolean(act(str(action), [str(a) for a in arguments]))

    @dbus.service.method(CONTROL_IFACE, in_signature="ssay", out_signature="b")
    def SendRaw(self, address, uuid, value):
        char = self.mock.air_device(address).characteristic(str(uuid))
        if char is None:
            return dbus.Boolean(False)
        return dbus.Boolean(char.notify(bytes(value)))

    @dbus.service.method(CONTROL_IFACE, in_signature="say", out_signature="b")
    def SendSerial(self, address, value):
        return dbus.Boolean(self.mock.air_device(address).send_serial(bytes(value)))

    @dbus.service.method(CONTROL_IFACE, in_signature="", out_signature="as")
    def GetProfiles(self):
        return string_array(sorted(self.mock.profile_manager.profiles))

    @dbus.service.method(CONTROL_IFACE, in_signature="", out_signature="")
    def ReleaseProfiles(self):
        self.mock.profile_manager.release_all()

    @dbus.service.method(CONTROL_IFACE, in_signature="s", out_signature="a{sv}")
    def GetStats(self, address):
        return dbus.Dictionary(self.mock.air_device(address).stats(), signature="sv")

    @dbus.service.method(CONTROL_IFACE, in_signature="ss", out_signature="a(ays)")
    def GetWrites(self, address, uuid):
        char = self.mock.air_device(address).characteristic(str(uuid))
        writes = char.writes if char is not None else []
        return dbus.Array([dbus.Struct((byte_array(v), dbus.String(t)), signature="ays") for v, t in writes],
                          signature="(ays)")

    @dbus.service.method(CONTROL_IFACE, in_signature="", out_signature="")
    def Reset(self):
        self.mock.reset()


# ---------------------------------------------------------------------------------------------------
# The mock as a whole

class Mock:
    def __init__(self, conn, battery_plugin=False):
        self.conn = conn
        self.battery_plugin = battery_plugin  # hide the Battery service, offer Battery1 (BlueZ's default)
        self.exported = {}   # path -> Exported, in export order (what GetManagedObjects lists)
        self.air = {}        # identity address -> AirDevice
        self.vacated = []    # Device objects left behind by unbonded devices that changed their address
        self.watched = set()
        self.root = Root(self)
        self.scanner = Scanner(self)
        self.adapter = Adapter(self)
        self.exported[self.adapter.path] = self.adapter
        self.control = Control(self)
        self.profile_manager = ProfileManager(self)
        conn.add_signal_receiver(self._name_owner_changed, signal_name="NameOwnerChanged",
                                 dbus_interface="org.freedesktop.DBus", bus_name="org.freedesktop.DBus",
                                 path="/org/freedesktop/DBus")

    # -- signals

    def emit_properties_changed(self, path, iface, changed, invalidated=()):
        msg = dbus.lowlevel.SignalMessage(path, PROPS_IFACE, "PropertiesChanged")
        msg.append(iface, dbus.Dictionary(changed, signature="sv"), dbus.Array(invalidated, signature="s"),
                   signature="sa{sv}as")
        self.conn.send_message(msg)

    def _emit_interfaces_added(self, obj):
        msg = dbus.lowlevel.SignalMessage("/", OM_IFACE, "InterfacesAdded")
        msg.append(dbus.ObjectPath(obj.path), obj.interface_map(), signature="oa{sa{sv}}")
        self.conn.send_message(msg)

    def _emit_interfaces_removed(self, obj):
        msg = dbus.lowlevel.SignalMessage("/", OM_IFACE, "InterfacesRemoved")
        msg.append(dbus.ObjectPath(obj.path), string_array(list(obj.interface_map().keys())),
                   signature="oas")
        self.conn.send_message(msg)

    # -- the object tree

    def is_exported(self, obj):
        return self.exported.get(obj.path) is obj

    def _export(self, obj):
        self.exported[obj.path] = obj
        self._emit_interfaces_added(obj)

    def _unexport(self, obj):
        if self.exported.pop(obj.path, None) is obj:
            self._emit_interfaces_removed(obj)
            obj.remove_from_connection()

    def export_device(self, air):
        air.device = Device(self, air)
        self._export(air.device)

    def export_gatt(self, air):
        for service in air.services:
            if self.battery_plugin and service.uuid == BATTERY_SERVICE:
                # Claimed by the battery plugin: BlueZ does not export it as GATT objects.
                for obj in [service] + service.characteristics:
                    obj.remove_from_connection()
                continue
            self._export(service)
            for char in service.characteristics:
                self._export(char)

    def add_interface(self, obj, iface, props):
        """Add an interface to an exported object: InterfacesAdded with just that interface."""
        if iface in obj.props:
            return
        obj.props[iface] = props
        msg = dbus.lowlevel.SignalMessage("/", OM_IFACE, "InterfacesAdded")
        msg.append(dbus.ObjectPath(obj.path), dbus.Dictionary({iface: dbus.Dictionary(props, signature="sv")},
                                                              signature="sa{sv}"), signature="oa{sa{sv}}")
        self.conn.send_message(msg)

    def remove_interface(self, obj, iface):
        if obj.props.pop(iface, None) is None:
            return
        msg = dbus.lowlevel.SignalMessage("/", OM_IFACE, "InterfacesRemoved")
        msg.append(dbus.ObjectPath(obj.path), string_array([iface]), signature="oas")
        self.conn.send_message(msg)

    def unexport_device(self, air):
        """Remove the device's objects, children first, as BlueZ does on RemoveDevice."""
        for service in reversed(air.services):
            for char in reversed(service.characteristics):
                self._unexport(char)
            self._unexport(service)
        air.forget_gatt()
        if air.device is not None:
            self._unexport(air.device)
            air.device = None

    def vacate(self, air):
        """Leave the device's object behind at its old address (see AirDevice.rotate_address); its GATT objects
        go, and the device gets a new object when a discovery finds it at its new address."""
        old = air.device
        for service in reversed(air.services):
            for char in reversed(service.characteristics):
                self._unexport(char)
            self._unexport(service)
        air.forget_gatt()
        ghost = Vacated(self, str(old.props[DEVICE_IFACE]["Address"]), air.name)
        ghost.device = old
        old.air = ghost
        air.device = None
        self.vacated.append(ghost)
        if self.adapter.discovering:
            self.scanner.scan_soon()

    # -- the air

    def add_device(self, kind, address, name, options):
        if kind not in KINDS:
            raise invalid_args("unknown device kind '%s' (known: %s)" % (kind, ", ".join(sorted(KINDS))))
        if address.upper() in self.air:
            raise invalid_args("a device with address %s exists" % address)
        air = KINDS[kind](self, address, name, options)
        self.air[air.address] = air
        if air.bonded:
            # Paired before (a Classic device's PIN pairing): BlueZ knows it from its storage, no discovery needed.
            self.export_device(air)
        if self.adapter.discovering:
            self.scanner.scan_soon()
        return air

    def air_device(self, address):
        air = self.air.get(str(address).upper())
        if air is None:
            raise BluezError("DoesNotExist", "No device %s in the air" % address)
        return air

    def reset(self):
        self.adapter.stop_all()
        for air in list(self.air.values()):
            air.disconnect()
            air.shutdown()
            self.unexport_device(air)
        self.air.clear()
        for ghost in self.vacated:
            self.unexport_device(ghost)
        self.vacated.clear()

    # -- clients

    def watch_client(self, name):
        self.watched.add(name)

    def _name_owner_changed(self, name, old_owner, new_owner):
        """A client that leaves the bus loses its discovery and its notify sessions."""
        if new_owner or name not in self.watched:
            return
        self.watched.discard(name)
        self.adapter.forget_client(name)
        self.profile_manager.forget_client(name)
        for air in self.air.values():
            for char in air.characteristics():
                char.drop_client(name)


# ---------------------------------------------------------------------------------------------------
# Startup

def die_with_parent():
    """End this process when the process that started it has gone, so no mock outlives a killed test
    (leash.py says why PR_SET_PDEATHSIG alone is not enough)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import leash
    leash.unblock_signals()
    leash.watch_parent(lambda: os._exit(1))


def parse_device_spec(spec):
    """KIND,ADDRESS,NAME[,key=value...] → (kind, address, name, options)."""
    parts = spec.split(",")
    if len(parts) < 3:
        raise SystemExit("--device wants KIND,ADDRESS,NAME[,key=value...], got %r" % spec)
    options = {}
    for item in parts[3:]:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit("--device option %r is not key=value" % item)
        options[key.strip()] = value.strip()
    return parts[0].strip(), parts[1].strip(), parts[2].strip(), options


PRESETS = {
    "demo": [("brainiac", "C0:FF:EE:00:00:01", "Brainiac-0001", {"frequency": "10"}),
             ("heartrate", "C0:FF:EE:00:00:02", "Heartband-0002", {})],
}

# After PRESETS, so a kind module can add its device to a preset.
load_kind_modules()


def main():
    die_with_parent()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bus", required=True, help="D-Bus address of the private bus")
    parser.add_argument("--device", action="append", default=[], metavar="KIND,ADDRESS,NAME[,key=value...]")
    parser.add_argument("--preset", choices=sorted(PRESETS))
    parser.add_argument("--battery-plugin", action="store_true",
                        help="as BlueZ with its battery plugin: no Battery service GATT objects, org.bluez.Battery1 "
                             "on connected devices instead")
    args = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    conn = dbus.bus.BusConnection(args.bus)
    mock = Mock(conn, battery_plugin=args.battery_plugin)
    specs = list(PRESETS.get(args.preset, [])) + [parse_device_spec(s) for s in args.device]
    for kind, address, name, options in specs:
        try:
            mock.add_device(kind, address, name, options)
        except dbus.DBusException as e:
            print("mock_bluetoothd: --device %s,%s,%s: %s" % (kind, address, name, e.get_dbus_message()),
                  file=sys.stderr)
            return 2

    reply = conn.request_name(BLUEZ, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if reply != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        print("mock_bluetoothd: org.bluez is already owned on this bus", file=sys.stderr)
        return 1

    loop = GLib.MainLoop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, lambda: loop.quit() or False)
    print("READY", flush=True)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
