// AxonScales — which scale model a Bluetooth LE advertisement describes.

import AxonDevices

extension ScaleModel {
    /// The model a scale's advertisement describes, so that a scale found by scanning opens without being told its
    /// model (the seed's `getAllCurrentHSxInstance` knows each connected scale's model): the Bluetooth SIG Weight
    /// Scale or Body Composition service is a ``standard`` scale; Axon's iHealth service (``ScaleGATT/service``,
    /// `docs/scale-protocol.md`) with an advertised name that starts with the model (`HS5-0011`, `HS4 2031`,
    /// `iHealth HS3`, any case) is that model. `nil` for anything else, and for the iHealth service under a name that
    /// names no model: connect with the model given, which the scale's answer to `identify` then confirms.
    public static func advertised(name: String?, services: [BluetoothUUID]) -> ScaleModel? {
        if services.contains(ScaleGATT.service) {
            var text = (name ?? "").uppercased()
            if text.hasPrefix("IHEALTH") { text = String(text.dropFirst("IHEALTH".count)) }
            text = String(text.drop { $0 == " " || $0 == "-" || $0 == "_" })
            return [ScaleModel.hs3, .hs4, .hs5].first { text.hasPrefix($0.rawValue.uppercased()) }
        }
        if services.contains(ScaleGATT.weightScaleService) || services.contains(ScaleGATT.bodyCompositionService) {
            return .standard
        }
        return nil
    }
}
