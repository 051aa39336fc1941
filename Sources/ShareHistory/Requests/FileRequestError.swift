import ShareKit

/// Why a file request refuses: the server answers each with its own status.
public enum FileRequestError: Error, Equatable, Sendable {
    /// The owner has no request by this id (404).
    case notFound(id: String)
    /// Its owner closed it, or it expired (410).
    case closed(FileRequest.State)
    /// It has every file it asked for, counting those on their way (409).
    case full(maxFiles: Int64)
    /// A file larger than it takes (413).
    case tooLarge(maxBytes: Int64)
    /// As many files as it receives at once are on their way (429).
    case busy(limit: Int)

    /// Whether request `request` takes a file of `size` bytes at `now`, `inProgress` files being on their way: the
    /// refusal when it does not.
    public static func refusal(of size: Int64, by request: FileRequest, inProgress: Int) -> FileRequestError? {
        if request.state == .closed || request.state == .expired { return .closed(request.state) }
        if let maxFiles = request.maxFiles, request.received + Int64(inProgress) >= maxFiles { return .full(maxFiles: maxFiles) }
        if let maxBytes = request.maxBytes, size > maxBytes { return .tooLarge(maxBytes: maxBytes) }
        if inProgress >= FileRequest.maxInProgress { return .busy(limit: FileRequest.maxInProgress) }
        return nil
    }
}

/// The open request whose link has a token, and whose it is ('' for nobody's).
public struct OpenedRequest: Sendable {
    public let request: FileRequest
    public let owner: String

    public init(request: FileRequest, owner: String) {
        self.request = request
        self.owner = owner
    }
}
