/// What a store could not do, whichever it is; each message names what and what to do. A SQLite file's own troubles
/// are `SQLiteFileError`.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case newerSchema(path: String, unknownMigrations: [String])
    /// Eight generated ids in a row were taken: practically impossible with 40 random bits.
    case noFreeID
    /// The running totals do not add up to the records.
    case totalsDiffer(path: String, rows: Int)
    /// Records whose owner is not the user whose history they were written to (`OwnerRecords`).
    case misplacedRecords(path: String, report: String)
    /// A served database holds what `shared` would not have written: a record breaking the field rules, an old schema.
    case notAsWritten(path: String, reason: String)
    /// The files of the bytes behind shares could not be written or read.
    case files(action: String, reason: String)
    /// Shares whose bytes are missing or not whole: `hashes` names some of them.
    case missingBytes(path: String, count: Int, hashes: [String])

    public var description: String {
        switch self {
        case .newerSchema(let path, let unknown):
            return "\(path) was written by a newer version of shared (unknown migrations: \(unknown.joined(separator: ", "))); "
                + "upgrade shared or restore a backup"
        case .noFreeID:
            return "could not draw an unused share id"
        case .totalsDiffer(let path, let rows):
            return "the running totals of \(path) differ from its records in \(rows == 1 ? "1 row" : "\(rows) rows"); "
                + "rebuild them with shared check --repair-totals"
        case .misplacedRecords(let path, let report):
            return "\(path) holds records in the wrong history: \(report)"
        case .notAsWritten(let path, let reason):
            return "\(path) holds what shared would not have written: \(reason)"
        case .missingBytes(let path, let count, let hashes):
            return
                "\(path) lacks the bytes of \(count == 1 ? "1 file" : "\(count) files") its shares need (\(hashes.prefix(3).joined(separator: ", ")))"
        case .files(let action, let reason):
            return "could not \(action): \(reason)"
        }
    }
}
