import Foundation
import ShareKit
import ShareStore

/// A fresh database file in its own temporary folder, as the daemon would open it.
func temporaryDatabasePath() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appending(path: "share-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appending(path: "share.db").path
}

extension ShareDatabase {
    /// Opens a new, empty, migrated database on a temporary file.
    static func temporary() throws -> ShareDatabase {
        try ShareDatabase(path: try temporaryDatabasePath())
    }

    /// Stores a record from raw fields, as a client would send them.
    @discardableResult
    func add(_ name: String, size: Int64 = 1, folder: String? = nil, at createdAt: String? = nil, id: String? = nil) async throws
        -> ShareRecord
    {
        try await createShare(NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size))
    }
}

extension SharePage {
    /// The page's records, read back from its JSON as a client would.
    var records: [ShareRecord] {
        get throws { try WireJSON.decoder().decode([ShareRecord].self, from: Data(body)) }
    }
}

extension ShareQuery {
    /// Decodes and resolves query parameters as the server does, in one step.
    init(parameters: [(name: String, value: String)], defaultZone: ZonedCalendar) throws(ShareError) {
        try self.init(ListingQuery(parameters: parameters), defaultZone: defaultZone)
    }
}
