import Foundation

/// `GET /users`: one user's live records, as an admin sees them.
public struct UserUsage: Codable, Sendable, Equatable {
    public var user: String
    public var count: Int
    /// Exact beyond 64 bits, like every sum of sizes.
    public var bytes: Decimal

    public init(user: String, count: Int, bytes: Decimal) {
        self.user = user
        self.count = count
        self.bytes = bytes
    }
}
