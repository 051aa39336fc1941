import ShareKit

/// What a batch does to each of its records (`POST /share/batch`).
public enum BatchChange: Equatable, Sendable {
    case move(folder: String)
    case trash
    case restore
    case purge

    /// Whether it finds records in the trash too: a restore acts on the trash, a purge on any record; a move and a
    /// trashing on live records, as their one-record requests do.
    package var reachesTrash: Bool {
        switch self {
        case .move, .trash: return false
        case .restore, .purge: return true
        }
    }
}

/// Which records a batch acts on.
public enum BatchTargets: Equatable, Sendable {
    /// These ids, each of which must be found.
    case ids([String])
    /// Every record a listing with these filters would show, all its pages (its trash for a restore).
    case matching(ShareQuery)

    /// The most records one batch acts on: its one transaction holds every other writer of the history (SQLite's
    /// one writer) for about a second at this size, not for minutes at a million.
    public static let maxRecords = 10_000

    /// What a filter matching more than `maxRecords` is told.
    package static var tooManyMatches: ShareError {
        .invalidField(
            "filter",
            "matches more than \(maxRecords) shares, and one batch acts on at most \(maxRecords) (so that other changes wait "
                + "at most about a second): narrow the filter, or send the batch again until it matches none")
    }
}
