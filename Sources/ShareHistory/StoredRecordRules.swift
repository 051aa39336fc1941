import ShareKit

/// The rules every stored record passes, whatever keeps it: what an import would have stored. A check of a store or
/// of a backup names the first record that breaks one.
package enum StoredRecordRules {
    /// Why a record stored with these columns is not one `shared` would have stored; nil when it is.
    package static func problem(
        id: String, name: String, nameKey: String?, folder: String, createdAt: Int64?, size: Int64?, type: String?, trashedAt: Int64?
    ) -> String? {
        do {
            guard try ShareID.validate(id) == id else { return "has an id that is not as stored" }
            guard try FileName.validate(name) == name else { return "has a name that is not stored as NFC" }
            guard try FolderPath.normalize(folder) == folder else { return "has a folder that is not normalised" }
        } catch {
            return "breaks a field rule: \(error.detail)"
        }
        guard nameKey == SearchKey.fold(name) else { return "has a search key that is not its name's" }
        guard type == IconCategory(fileName: name).rawValue else { return "has a type that its name does not give" }
        guard let size, size >= 0 else { return "has a size that is not 0 or more bytes" }
        guard let createdAt, timeRange.contains(createdAt) else { return "has a creation time out of range" }
        if let trashedAt, !timeRange.contains(trashedAt) { return "has a trash time out of range" }
        return nil
    }

    /// The instants a record's times may hold: RFC 3339 years 0000 to 9999.
    private static let timeRange =
        Timestamp(rfc3339: "0000-01-01T00:00:00Z")!.millisecondsSinceEpoch...Timestamp(rfc3339: "9999-12-31T23:59:59.999Z")!.millisecondsSinceEpoch
}
