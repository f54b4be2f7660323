// AxonC — axon_writer_config checked and turned into the EDF writer's stream and options.

import AxonRecording
import AxonStreams
import CAxonABI

/// What ``AxonRecording/EDFWriter`` is made from, out of a C config: every field checked that the writer's own checks
/// do not name in the C config's terms.
struct WriterSettings {
    let descriptor: StreamDescriptor
    let options: EDFWriter.Options
    /// The first sample's Unix time, or nil when unknown.
    let startTime: Double?

    init(_ config: axon_writer_config, in function: String) throws(CallFailure) {
        guard config.struct_size == MemoryLayout<axon_writer_config>.stride else {
            throw .invalidArgument(
                "\(function): config.struct_size is \(config.struct_size), not "
                    + "\(MemoryLayout<axon_writer_config>.stride): set the config up with axon_writer_config_default first"
            )
        }
        let format: EDFWriter.Format
        switch config.format {
        case AXON_FORMAT_EDF_PLUS: format = .edfPlus
        case AXON_FORMAT_BDF_PLUS: format = .bdfPlus
        default:
            throw .invalidArgument(
                "\(function): format = \(config.format); it must be AXON_FORMAT_EDF_PLUS or AXON_FORMAT_BDF_PLUS")
        }
        let channels = config.channel_count
        guard channels >= 1, channels <= 65_536 else {
            throw .invalidArgument("\(function): channel_count = \(channels); it must lie in 1…65536")
        }
        guard config.sample_rate > 0, config.sample_rate.isFinite else {
            throw .invalidArgument("\(function): sample_rate = \(config.sample_rate); it must be finite and positive")
        }
        guard let unitPointer = config.unit else { throw .null("config.unit", in: function) }
        guard let unit = String(validatingCString: unitPointer) else {
            throw .invalidArgument("\(function): unit is not UTF-8")
        }
        let labels = try AxonC.channelLabels(config.channel_labels, count: channels, in: function)
        var range: ClosedRange<Double>?
        if config.physical_min != 0 || config.physical_max != 0 {
            guard config.physical_min < config.physical_max, config.physical_min.isFinite, config.physical_max.isFinite
            else {
                throw .invalidArgument(
                    "\(function): physical range \(config.physical_min)…\(config.physical_max) must be finite and not empty"
                )
            }
            range = config.physical_min...config.physical_max
        }
        guard config.start_time.isNaN || config.start_time.isFinite else {
            throw .invalidArgument("\(function): start_time = \(config.start_time); finite, or NaN for unknown")
        }
        startTime = config.start_time.isNaN ? nil : config.start_time
        descriptor = StreamDescriptor(
            name: "Axon C interface", contentType: .eeg,
            channels: labels.map { ChannelInfo(label: $0, unit: unit, range: range) }, nominalRate: config.sample_rate,
            format: .float64, sourceID: "axon-c")
        var options = EDFWriter.Options(format: format)
        options.recordDuration = config.record_seconds
        options.startDateIsKnown = startTime != nil
        self.options = options
    }
}
