/// Why the database could not be opened; each message names the file and what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case notADatabase(path: String)
    case newerSchema(path: String, unknownMigrations: [String])
    case cannotOpen(path: String, reason: String)
    /// Eight generated ids in a row were taken: practically impossible with 40 random bits.
    case noFreeID
    /// Another process (a running `shared`) has the database open.
    case inUse(path: String)
    /// A backup's destination exists already.
    case exists(path: String)
    /// `PRAGMA integrity_check` found damage.
    case damaged(path: String, report: String)
    /// A restore would replace a history with one that holds fewer records.
    case fewerRecords(backup: Int, current: Int)
    /// A backup holds what `shared` would not have written: another schema, or records breaking the field rules.
    case foreignContents(path: String, reason: String)
    /// A restore was asked to put a database in its own place.
    case sameFile(backup: String, target: String)
    /// A backup's checks did not finish in time (a hostile file may make SQLite work without end).
    case checksTookTooLong(path: String, seconds: Int)
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
        case .notADatabase(let path):
            return "\(path) is not a SQLite database; refusing to touch it (move it away or choose another --db)"
        case .newerSchema(let path, let unknown):
            return "\(path) was written by a newer version of shared (unknown migrations: \(unknown.joined(separator: ", "))); "
                + "upgrade shared or restore a backup"
        case .cannotOpen(let path, let reason):
            return "cannot open database \(path): \(reason)"
        case .noFreeID:
            return "could not draw an unused share id"
        case .inUse(let path):
            return "\(path) is open in another process (a running shared?); stop it first"
        case .exists(let path):
            return "\(path) exists already; choose a new file"
        case .damaged(let path, let report):
            return "\(path) is damaged (integrity check: \(report))"
        case .foreignContents(let path, let reason):
            return "\(path) is not a backup shared can restore: \(reason)"
        case .sameFile(let backup, let target):
            return "\(backup) is the database \(target) itself; restore from a copy"
        case .checksTookTooLong(let path, let seconds):
            return "checking \(path) took longer than \(seconds) seconds; refusing it"
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
        case .fewerRecords(let backup, let current):
            return "the backup holds \(backup) records and the history \(current): give --force to replace it all the same"
        }
    }
}
