"""Bluetooth Classic serial-port devices for the mock bluetoothd (loaded by mock_bluetoothd.load_kind_modules;
`mock` is that module).

hs3spp  An iHealth HS3 as it really is (docs/hs3-serial.md): a Bluetooth Classic device with a public address that
     offers the Serial Port Profile (0x1101) and was paired before, so BlueZ knows it from its storage and its
     Device1 object (Paired, Bonded) exists from the start. It has no GATT. Device1.ConnectProfile("…1101…") with a
     profile registered through ProfileManager1 hands one end of a socket pair to that profile in
     Profile1.NewConnection; the control method SendSerial writes the scale's bytes into the other end, and
     DisconnectProfile sends RequestDisconnection, then closes it. Stats: serialConnected, serialBytes.
     Options: rssi.
"""

SERIAL_PORT = mock.uuid16(0x1101)


class HS3SerialPort(mock.AirDevice):
    KIND = "hs3spp"

    def __init__(self, mock_, address, name, options):
        super().__init__(mock_, address, name, options)
        self.address_type = "public"
        self.advertised_uuids = [SERIAL_PORT]
        self.profile_uuids = (SERIAL_PORT,)
        self.bonded = True

    def build_gatt(self):
        """A Classic device: no GATT services."""
        self.services = []


DEVICE_KINDS = [HS3SerialPort]
