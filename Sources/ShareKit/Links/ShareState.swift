/// Whether a share's link opens: `revoked` by its owner (for good), else `expired` (past its time or its downloads),
/// else `active`.
public enum ShareState: String, Codable, Hashable, Sendable, CaseIterable {
    case active, expired, revoked

    /// The state of a link with these limits at `now`.
    public static func of(
        revokedAt: Timestamp?, expiresAt: Timestamp?, maxDownloads: Int64?, downloads: Int64, at now: Timestamp
    ) -> ShareState {
        if revokedAt != nil { return .revoked }
        if let expiresAt, expiresAt <= now { return .expired }
        if let maxDownloads, downloads >= maxDownloads { return .expired }
        return .active
    }
}
