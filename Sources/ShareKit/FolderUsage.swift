import Foundation

/// `GET /share/folders`: one subfolder of the folder asked about, with the live records in it and below it.
public struct FolderUsage: Codable, Sendable, Equatable {
    /// The subfolder's path (`/reports/2021`).
    public var folder: String
    /// Its last segment (`2021`).
    public var name: String
    public var count: Int
    /// Exact beyond 64 bits, like every sum of sizes.
    public var bytes: Decimal

    public init(folder: String, name: String, count: Int, bytes: Decimal) {
        self.folder = folder
        self.name = name
        self.count = count
        self.bytes = bytes
    }
}
