import AxonStreams

extension Recording {
    /// The recording's markers as an event stream's samples, in frame order.
    ///
    /// Each sample's payload is the marker's text (EDF+ annotations: `"T0"`), or its numeric value written the
    /// shortest way (`"1.0"` → `"1"`, `"2.5"`) for numeric markers; `deviceTime` and `arrivalTime` are both the
    /// recording's time of the marker's frame (``time(ofFrame:)``: Unix seconds when the file has timestamps),
    /// because a file has no host arrival; `counter` is the frame index.
    ///
    ///     let events = try EDFFileReader().read(path: "S001R01.edf").markerEvents()
    ///     events[0].payload, events[0].deviceTime   // "T0", 1250093700.0
    ///
    /// Threading: a pure function of the value; any thread. Complexity: O(markers).
    public func markerEvents() -> [EventSample<String>] {
        markers.map { marker in
            let time = time(ofFrame: marker.frame)
            return EventSample(
                payload: marker.text ?? Self.markerText(marker.value), arrivalTime: time, deviceTime: time,
                counter: UInt64(marker.frame))
        }
    }

    /// A stream descriptor for ``markerEvents()``: content type `Markers`, rate 0, one text channel, the same
    /// source as the recording with `/markers` appended. Threading: any thread.
    public var markerDescriptor: StreamDescriptor {
        StreamDescriptor(
            name: descriptor.name + " markers", contentType: .markers,
            channels: [ChannelInfo(label: "marker", unit: "")],
            nominalRate: 0, format: .string, sourceID: descriptor.sourceID + "/markers", metadata: descriptor.metadata)
    }

    private static func markerText(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
