import Foundation

/// `GET /share/stats`: how many shares and bytes, in total, per icon category and per day (in the request's zone).
public struct ShareStats: Codable, Sendable, Equatable {
    /// A count of shares and the bytes they add up to (exact: sums can exceed 64 bits).
    public struct Total: Codable, Sendable, Equatable {
        public var count: Int
        public var bytes: Decimal

        public init(count: Int = 0, bytes: Decimal = 0) {
            self.count = count
            self.bytes = bytes
        }
    }

    public struct Day: Codable, Sendable, Equatable {
        public var day: String
        public var count: Int
        public var bytes: Decimal

        public init(day: String, count: Int, bytes: Decimal) {
            self.day = day
            self.count = count
            self.bytes = bytes
        }
    }

    public var count: Int
    public var bytes: Decimal
    /// Keyed by icon category; categories with no shares are absent.
    public var types: [String: Total]
    /// Days with shares, oldest first.
    public var days: [Day]

    public init(count: Int, bytes: Decimal, types: [String: Total], days: [Day]) {
        self.count = count
        self.bytes = bytes
        self.types = types
        self.days = days
    }
}
