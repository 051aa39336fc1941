import ShareClient

/// How `share` ends, by kind of failure: documented in `share --help` and docs/cli.md.
enum ExitStatus: Int32 {
    case success = 0
    /// The server failed, or answered something unexpected.
    case failure = 1
    case unreachable = 3
    case unauthorized = 4
    case notFound = 5
    /// The server rejected the request (400, 409, 413), or some records of an import.
    case rejected = 6
    /// The server took the connection but did not answer in time.
    case noAnswer = 7
    /// ArgumentParser's and sysexits' usage error.
    case usage = 64
    /// A local file could not be read (sysexits' EX_NOINPUT).
    case localFile = 66
    /// share.toml or a `SHARE_*` variable is wrong (sysexits' EX_CONFIG).
    case configuration = 78

    init(for error: ClientError) {
        switch error {
        case .unreachable: self = .unreachable
        case .noAnswer: self = .noAnswer
        case .unauthorized, .forbidden: self = .unauthorized
        case .notFound: self = .notFound
        case .rejected, .conflict: self = .rejected
        case .serverFailed, .unexpected, .interrupted: self = .failure
        }
    }
}
