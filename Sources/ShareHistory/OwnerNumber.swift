/// The number every record carries as its owner, the same on every store: users are numbered from 1 as each first
/// writes to their history; these two are no user's.
package enum OwnerNumber {
    /// Nobody's records: the one history of shared histories, and those from before per-user ones.
    package static let nobody: Int64 = 0
    /// What a history whose user has never written holds: no record carries it.
    package static let none: Int64 = -1
}
