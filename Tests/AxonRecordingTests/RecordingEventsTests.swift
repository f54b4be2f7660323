import AxonStreams
import Testing

@testable import AxonRecording

@Suite("Recording markers as event samples")
struct RecordingEventsTests {
    @Test("Muse stimulus markers: payload is the value, times are the recording's Unix stamps")
    func museMarkers() throws {
        let muse = try TestData.muse.get()
        let events = muse.markerEvents()
        #expect(events.count == 23)
        #expect(events.filter { $0.payload == "1" }.count == 19)
        #expect(events.filter { $0.payload == "2" }.count == 4)
        #expect(events[0].counter == UInt64(muse.markers[0].frame))
        #expect(events[0].deviceTime == muse.timestamps?[muse.markers[0].frame])
        #expect(events[0].arrivalTime == events[0].deviceTime)
        #expect(zip(events, events.dropFirst()).allSatisfy { ($0.deviceTime ?? 0) <= ($1.deviceTime ?? 0) })
        #expect(muse.markerDescriptor.nominalRate == 0 && muse.markerDescriptor.format == .string)
    }

    @Test("markers keep their text through segments")
    func textSurvivesSegments() throws {
        let descriptor = StreamDescriptor(
            name: "t", contentType: .eeg, channels: [ChannelInfo(label: "A", unit: "")], nominalRate: 10,
            format: .float32, sourceID: "s")
        let recording = Recording(
            descriptor: descriptor, values: (0..<100).map(Double.init),
            markers: [RecordingMarker(frame: 5, value: 0, text: "T1"), RecordingMarker(frame: 50, value: 2.5)])
        let part = try recording.segment(from: 4, to: 8)
        #expect(part.markers == [RecordingMarker(frame: 10, value: 2.5)])
        let events = recording.markerEvents()
        #expect(events.map(\.payload) == ["T1", "2.5"])
        #expect(events.map(\.deviceTime) == [0.5, 5])
        #expect(recording.frames(0..<10).markers.first?.text == "T1")
    }
}
