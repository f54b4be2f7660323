/// An event marker stored with a recording: a stimulus code or a user mark at one frame.
///
/// Threading: a value type; share freely.
public struct RecordingMarker: Sendable, Hashable, Codable {
    /// The frame (sample index from the recording's first frame) the marker belongs to.
    public var frame: Int
    /// The marker's value as the file wrote it (muse-lsl: 1 or 2 for the stimulus class; OpenBCI: any number
    /// the GUI's marker input received). Rows whose marker is 0 carry no marker.
    public var value: Double
    /// The marker's text, for formats whose events are text (EDF+ annotations: `"T0"`); `nil` for numeric markers.
    public var text: String?

    /// Creates a marker.
    public init(frame: Int, value: Double, text: String? = nil) {
        self.frame = frame
        self.value = value
        self.text = text
    }
}
