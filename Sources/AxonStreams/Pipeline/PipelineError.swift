/// What can go wrong when running a pipeline.
public enum PipelineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operating system refused to start a thread.
    case threadStartFailed(name: String, errno: Int32)
    /// `start()` was called on a pipeline that already ran.
    case alreadyStarted
    /// `makeWriter()` was called on a pipeline that has a source of its own, or twice.
    case writerUnavailable
    /// A source, processor or sink failed; the message says which and why.
    case stageFailed(stage: String, message: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .threadStartFailed(let name, let errno): "could not start thread \(name) (errno \(errno))"
        case .alreadyStarted: "the pipeline was already started; build a new one to run again"
        case .writerUnavailable: "this pipeline has its own source, or its writer was already taken"
        case .stageFailed(let stage, let message): "\(stage) failed: \(message)"
        }
    }
}
