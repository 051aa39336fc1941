/// What `shared check` found of the bytes behind shares: the contents kept and their bytes, the ones a share
/// needs that are missing or short (a failure), and the ones no share needs (left by a crash between a commit and
/// the removal of its file; harmless, and named so that they can be deleted).
public struct FileAudit: Sendable, CustomStringConvertible {
    public var files = 0
    public var bytes: Int64 = 0
    /// The hashes of contents a share needs that are missing or not whole.
    public var missing: [String] = []
    public var unclaimed = 0
    public var unclaimedBytes: Int64 = 0

    public init() {}

    public var description: String {
        "\(files == 1 ? "1 file" : "\(files) files") of shares (\(bytes) bytes) whole"
            + (unclaimed == 0 ? "" : "; \(unclaimed) no share needs (\(unclaimedBytes) bytes), which may be deleted")
    }
}
