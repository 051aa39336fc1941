import Foundation
import GRDB
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport

/// A fresh database file in its own temporary folder, as the daemon would open it: for tests that open it
/// again, or look at it from another connection.
public func temporaryDatabasePath() throws -> String {
    try temporaryFolder("store").appending(path: "share.db").path
}

extension SQLiteStore {
    /// A new, empty, migrated database in memory.
    public static func temporary() throws -> SQLiteStore {
        try SQLiteStore(writer: DatabaseQueue())
    }
}

extension SharePage {
    /// The page's records, read back from its JSON as a client would.
    public var records: [ShareRecord] {
        get throws { try WireJSON.decoder().decode([ShareRecord].self, from: Data(body)) }
    }
}

extension ShareQuery {
    /// Decodes and resolves query parameters as the server does, in one step.
    public init(parameters: [(name: String, value: String)], defaultZone: ZonedCalendar) throws(ShareError) {
        try self.init(ListingQuery(parameters: parameters), defaultZone: defaultZone)
    }
}
