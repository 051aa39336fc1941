/// Why a call to the object store did not do what it asked.
public enum S3Failure: Error, Equatable, CustomStringConvertible {
    /// The store could not be reached, broke the connection, or took longer than the call may.
    case unreachable(store: String, reason: String)
    /// The store answered with an error: its HTTP status and S3's error code (`NoSuchBucket`, `SlowDown`…).
    case refused(store: String, status: Int, code: String, message: String)

    public var description: String {
        switch self {
        case .unreachable(let store, let reason): "the object store (\(store)) does not answer: \(reason)"
        case .refused(let store, let status, let code, let message):
            "the object store (\(store)) refused: \(status) \(code)\(message.isEmpty ? "" : ", \(message)")"
        }
    }

    /// A failure that the same call may not meet again: the store busy or briefly away.
    public var isPassing: Bool {
        switch self {
        case .unreachable: true
        case .refused(_, let status, let code, _): status >= 500 || code == "SlowDown" || code == "RequestTimeout"
        }
    }

    /// The S3 error code, when the store answered with one.
    public var code: String? {
        if case .refused(_, _, let code, _) = self { return code }
        return nil
    }
}
