/// Why a SQLite file could not be opened, backed up or restored; each message names the file and what to do.
public enum SQLiteFileError: Error, CustomStringConvertible, Equatable {
    case notADatabase(path: String)
    case cannotOpen(path: String, reason: String)
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

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not a SQLite database; refusing to touch it (move it away or choose another --db)"
        case .cannotOpen(let path, let reason):
            return "cannot open database \(path): \(reason)"
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
        case .fewerRecords(let backup, let current):
            return "the backup holds \(backup) records and the history \(current): give --force to replace it all the same"
        }
    }
}
