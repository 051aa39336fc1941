/// Why the database could not be opened; each message names the file and what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case notADatabase(path: String)
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotOpen(path: String, reason: String)
    /// Eight generated ids in a row were taken: practically impossible with 40 random bits.
    case noFreeID

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not a SQLite database; refusing to touch it (move it away or choose another --db)"
        case .newerSchema(let path, let unknown):
            return "\(path) was written by a newer version of shared (unknown migrations: \(unknown.joined(separator: ", "))); "
                + "upgrade shared or restore a backup"
        case .cannotOpen(let path, let reason):
            return "cannot open database \(path): \(reason)"
        case .noFreeID:
            return "could not draw an unused share id"
        }
    }
}
