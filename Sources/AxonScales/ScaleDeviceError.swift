/// The error codes the iHealth SDK defines per scale model (seed section 6), with the raw values of its enums and
/// its meanings. A scale reports one of these in an `ScaleFrame.error(code:)` frame; ``ScaleError/device(_:)``
/// carries it to the caller.
///
/// Threading: value types; share freely.
public enum ScaleDeviceError: Sendable, Hashable, CustomStringConvertible {
    case hs3(HS3Error)
    case hs4(HS4Error)
    case hs5(HS5Error)

    /// The code for `model` with the SDK's raw value, or `nil` if the model defines no such code. A standard
    /// (WSS/BCS) scale reports no codes of its own; its codes are read as the HS5's.
    public init?(model: ScaleModel, code: Int) {
        switch model {
        case .hs3: guard let e = HS3Error(rawValue: code) else { return nil }; self = .hs3(e)
        case .hs4: guard let e = HS4Error(rawValue: code) else { return nil }; self = .hs4(e)
        case .hs5, .standard: guard let e = HS5Error(rawValue: code) else { return nil }; self = .hs5(e)
        }
    }

    /// The SDK's raw value.
    public var code: Int {
        switch self {
        case .hs3(let e): e.rawValue
        case .hs4(let e): e.rawValue
        case .hs5(let e): e.rawValue
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .hs3(let e): "HS3 error \(e.rawValue): \(e.meaning)"
        case .hs4(let e): "HS4 error \(e.rawValue): \(e.meaning)"
        case .hs5(let e): "HS5 error \(e.rawValue): \(e.meaning)"
        }
    }
}

/// `HS3DeviceError` of the SDK: values 1…7 in declaration order, user verification 111.
public enum HS3Error: Int, Sendable, Hashable, CaseIterable {
    case lowPower = 1, overload, calibration, movement, noMemory, disconnect, sendTimeout
    case userInvalid = 111

    /// The SDK's comment for the code.
    public var meaning: String {
        switch self {
        case .lowPower: "low battery"
        case .overload: "weight capacity is exceeded (Er2)"
        case .calibration: "the scale calibration error (Er4)"
        case .movement: "movement while measuring (Er7)"
        case .noMemory: "no memory"
        case .disconnect: "device disconnect"
        case .sendTimeout: "communication error"
        case .userInvalid: "user verify error"
        }
    }
}

/// `HS4DeviceError` of the SDK: values 1…12 in declaration order, user verification 111.
public enum HS4Error: Int, Sendable, Hashable, CaseIterable {
    case lowPower = 1, initializationFailed, overload, unsteady, bluetoothError, movement, invalid, memoryAccess
    case noMemory, disconnect, sendTimeout, receivedWeightError
    case userInvalid = 111

    /// The SDK's comment for the code.
    public var meaning: String {
        switch self {
        case .lowPower: "battery level is low"
        case .initializationFailed: "the scale failed to initialize (Er0)"
        case .overload: "maximum weight has been exceeded (Er1)"
        case .unsteady: "the scale can't capture a steady reading (Er2)"
        case .bluetoothError: "Bluetooth connection error (Er4)"
        case .movement: "movement while measuring (Er7)"
        case .invalid: "invalid (Er8)"
        case .memoryAccess: "scale memory access error (Er9)"
        case .noMemory: "no memory"
        case .disconnect: "device disconnect"
        case .sendTimeout: "communication error"
        case .receivedWeightError: "received weight error"
        case .userInvalid: "user verify error"
        }
    }
}

/// `HS5DeviceError` of the SDK, with its explicit values (0, 5…16, 111).
public enum HS5Error: Int, Sendable, Hashable, CaseIterable {
    case overTime = 0
    case userInScale = 5
    case lowPower = 6
    case er0 = 7, er1 = 8, er2 = 9, er7 = 10, er8 = 11, er9 = 12
    case busy = 13
    case noMemory = 14
    case createUserError = 15
    case disconnect = 16
    case userInvalid = 111

    /// The SDK's comment for the code.
    public var meaning: String {
        switch self {
        case .overTime: "communication error (timeout)"
        case .userInScale: "communication error (user in scale)"
        case .lowPower:
            "make sure batteries are installed correctly; if the problem persists, replace with a new set of batteries"
        case .er0: "remove the batteries, wait 1 minute and then replace with a new set of batteries (Er0)"
        case .er1: "the current weight may be beyond the measurement range of 330 lbs/150 kg (Er1)"
        case .er2: "stand still on all four electrodes with bare feet (Er2)"
        case .er7: "communication error (Er7)"
        case .er8: "communication error (Er8)"
        case .er9: "communication error (Er9)"
        case .busy: "scale is busy"
        case .noMemory: "no memory"
        case .createUserError: "the user could not be created"
        case .disconnect: "device disconnect"
        case .userInvalid: "user verify error"
        }
    }
}
