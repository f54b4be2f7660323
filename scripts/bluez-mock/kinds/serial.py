"""Bluetooth Classic serial-port devices for the mock bluetoothd (loaded by mock_bluetoothd.load_kind_modules;
`mock` is that module).

hs3spp  An iHealth HS3 as it really is (docs/hs3-serial.md): a Bluetooth Classic device with a public address that
     offers the Serial Port Profile (0x1101) and was paired before, so BlueZ knows it from its storage and its
     Device1 object (Paired, Bonded) exists from the start. It has no GATT. Device1.ConnectProfile("…1101…") with a
     profile registered through ProfileManager1 hands one end of a socket pair to that profile in
     Profile1.NewConnection; the control method SendSerial writes the scale's bytes into the other end, and
     DisconnectProfile sends RequestDisconnection, then closes it. Stats: serialConnected, serialBytes.
     Options: send (hex byte strings joined by "+": written one after another as soon as a profile connection is
     accepted, as someone stepping on the scale; for a command that cannot be fed from outside), rssi.
"""

SERIAL_PORT = mock.uuid16(0x1101)


class HS3SerialPort(mock.AirDevice):
    KIND = "hs3spp"
    OPTIONS = mock.AirDevice.OPTIONS | {"send"}

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        try:
            self.chunks = [bytes.fromhex(chunk) for chunk in str(options.get("send", "")).split("+") if chunk]
        except ValueError:
            raise mock.invalid_args("send takes hex byte strings joined by +, not %s" % options["send"])
        self.address_type = "public"
        self.advertised_uuids = [SERIAL_PORT]
        self.profile_uuids = (SERIAL_PORT,)
        self.bonded = True

    def build_gatt(self):
        """A Classic device: no GATT services."""
        self.services = []

    def profile_connected(self):
        for chunk in self.chunks:
            self.send_serial(chunk)


DEVICE_KINDS = [HS3SerialPort]
