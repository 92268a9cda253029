import MoviesData

/// Writes the data layer's ``DataEvent``s to the daemon's ``Logger`` (and so to the journal).
public struct LoggerEventLog: EventLog {
    /// The logger events are written to.
    public let logger: Logger

    /// Creates the adapter.
    public init(logger: Logger) { self.logger = logger }

    public func isEnabled(_ severity: DataEvent.Severity) -> Bool { logger.isEnabled(Self.level(severity)) }

    public func record(_ event: DataEvent) { logger.log(Self.level(event.severity), event.message) }

    /// The log level a data-layer severity is written at.
    static func level(_ severity: DataEvent.Severity) -> LogLevel {
        switch severity {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
