"""An ELM327 OBD-II dongle on Bluetooth LE: the serial-over-GATT service most BLE dongles expose.

Service 0xFFF0 with 0xFFF1 (notify: the dongle's output) and 0xFFF2 (write, write without response: commands).
Behind it is a real ELM327: the elm327-emulator the OBD tests run, reached over TCP (option tcp=HOST:PORT). Bytes
written to 0xFFF2 go to the emulator; what it answers comes back as notifications of at most 20 bytes (the payload
of the default ATT MTU), as a cheap dongle sends them.

    --device elm327,AA:BB:CC:00:00:05,OBDII,tcp=127.0.0.1:35000
"""

import socket

from gi.repository import GLib

SERVICE = mock.uuid16(0xFFF0)
NOTIFY = mock.uuid16(0xFFF1)
WRITE = mock.uuid16(0xFFF2)
CHUNK = 20


class ELM327Dongle(mock.AirDevice):
    """Relays GATT writes to an ELM327 emulator over TCP and its answers back as notifications."""

    KIND = "elm327"
    OPTIONS = mock.AirDevice.OPTIONS | {"tcp"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        if "tcp" not in options:
            raise mock.invalid_args("an elm327 device needs tcp=HOST:PORT (the emulator behind it)")
        host, _, port = str(options["tcp"]).rpartition(":")
        self.target = (host, int(port))
        self.advertised_uuids = [SERVICE]
        self.notify_char = None
        self.sock = None
        self.watch = None

    def build_gatt(self):
        service = self.add_service(0x0050, SERVICE)
        self.notify_char = self.add_characteristic(service, 0x0051, NOTIFY, ["notify"])
        self.add_characteristic(service, 0x0054, WRITE, ["write", "write-without-response"])
        mock.add_device_info_service(self, 0x0060, "ELM327 BLE")

    def forget_gatt(self):
        super().forget_gatt()
        self.notify_char = None
        self._hang_up()

    def written(self, characteristic, value, write_type):
        if characteristic.uuid != WRITE:
            return
        if self.sock is None:
            self._dial()
        try:
            self.sock.sendall(value)
        except OSError:
            self._hang_up()

    def _dial(self):
        self.sock = socket.create_connection(self.target, timeout=2)
        self.sock.setblocking(False)
        self.watch = GLib.io_add_watch(self.sock.fileno(), GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, self._readable)

    def _readable(self, _fd, _condition):
        try:
            data = self.sock.recv(4096)
        except BlockingIOError:
            return True
        except OSError:
            data = b""
        if not data:
            self.watch = None
            self._hang_up()
            return False
        for start in range(0, len(data), CHUNK):
            if self.notify_char is not None:
                self.notify_char.notify(data[start:start + CHUNK])
        return True

    def _hang_up(self):
        if self.watch is not None:
            GLib.source_remove(self.watch)
            self.watch = None
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def shutdown(self):
        super().shutdown()
        self._hang_up()


DEVICE_KINDS = [ELM327Dongle]
