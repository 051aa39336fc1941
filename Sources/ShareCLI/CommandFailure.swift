import ShareClient

/// A failure to report in one line on stderr, with its exit status.
struct CommandFailure: Error {
    let message: String
    let exitStatus: Int32

    static let configurationStatus: Int32 = 78
    static let localFileStatus: Int32 = 66

    init(_ message: String, exitStatus: Int32) {
        self.message = message
        self.exitStatus = exitStatus
    }

    init(_ error: ClientError) {
        self.init(error.message, exitStatus: error.exitStatus)
    }
}
