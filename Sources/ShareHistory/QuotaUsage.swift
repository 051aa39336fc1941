import Foundation

/// What a history's quota counts: its live records' bytes, the files its trash still holds (kept until they are
/// purged), and what its uploads in progress have reserved.
public struct QuotaUsage: Sendable, Equatable {
    public var live: Decimal
    public var trashedFiles: Int64
    public var uploading: Int64

    public init(live: Decimal, trashedFiles: Int64, uploading: Int64) {
        self.live = live
        self.trashedFiles = trashedFiles
        self.uploading = uploading
    }

    public var total: Decimal {
        live + Decimal(trashedFiles) + Decimal(uploading)
    }
}
