/// What can go wrong when running a pipeline.
///
/// Equality and hashing compare ``description`` (``EquatableByDescription``): a ``stageFailed(stage:cause:)``'s cause
/// is any error, kept as the value the stage threw.
public enum PipelineError: Error, Sendable, EquatableByDescription {
    /// The operating system refused to start a thread.
    case threadStartFailed(name: String, errno: Int32)
    /// `start()` was called on a pipeline that already ran.
    case alreadyStarted
    /// `makeWriter()` was called on a pipeline that has a source of its own, or twice.
    case writerUnavailable
    /// A processor or sink could not open: its name and the error it threw.
    case stageFailed(stage: String, cause: any Error)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .threadStartFailed(let name, let errno): "could not start thread \(name) (errno \(errno))"
        case .alreadyStarted: "the pipeline was already started; build a new one to run again"
        case .writerUnavailable: "this pipeline has its own source, or its writer was already taken"
        case .stageFailed(let stage, let cause): "\(stage) failed: \(cause)"
        }
    }
}

/// A source or sink that failed while the pipeline ran and was taken out: which one, and the error it threw.
///
/// Its ``description`` reads `source NAME: cause`, `sink NAME: cause` or `sink NAME close: cause`. Equality and hashing
/// compare that description.
///
/// Threading: a value; use it on any thread.
public struct PipelineFailure: Error, Sendable, EquatableByDescription {
    /// The stage as the description names it: `source NAME`, `sink NAME` or `sink NAME close`.
    public let stage: String
    /// The error the stage threw.
    public let cause: any Error

    /// A failure of `stage` with `cause`.
    public init(stage: String, cause: any Error) {
        self.stage = stage
        self.cause = cause
    }

    /// `stage: cause`.
    public var description: String { "\(stage): \(cause)" }
}
