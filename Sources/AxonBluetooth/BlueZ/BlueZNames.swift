/// BlueZ 5.66's D-Bus names (`doc/*-api.txt` of BlueZ).
enum BlueZ {
    static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let gattServiceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"

    /// Match rules, added before the calls whose signals they catch.
    static let matchRules = [
        "type='signal',sender='org.bluez',path='/',interface='org.freedesktop.DBus.ObjectManager'",
        "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'",
        "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
    ]

    /// BlueZ's error names that mean "already under way" and are benign to a caller that wants the same outcome.
    static let inProgress = "org.bluez.Error.InProgress"
    static let alreadyConnected = "org.bluez.Error.AlreadyConnected"
    /// `Device1.Pair` on a device that is paired already.
    static let alreadyExists = "org.bluez.Error.AlreadyExists"

    static func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) -> DBusMethodCall {
        DBusMethodCall(destination: service, path: path, interface: interface, member: member, arguments: arguments)
    }
}
