import ShareClient

/// A failure to report in one line on stderr, with its exit status.
struct CommandFailure: Error {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    init(_ error: ClientError) {
        self.init(error.message, status: ExitStatus(for: error))
    }
}
