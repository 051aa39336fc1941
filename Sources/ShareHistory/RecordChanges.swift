import ShareKit

/// The events a change of a record makes, whatever store keeps them: each of a rename, a move, a trashing or a
/// restoring, a change of the link's limits, a revocation (and its undoing, a change of limits from "revoked").
public struct RecordChange: Equatable, Sendable {
    public let action: ShareEvent.Action
    public let from: String?
    public let to: String?

    /// The events of an update from `original` to `updated`, in the order they are recorded.
    public static func between(_ original: ShareRecord, _ updated: ShareRecord) -> [RecordChange] {
        var changes: [RecordChange] = []
        if original.name != updated.name { changes.append(RecordChange(action: .renamed, from: original.name, to: updated.name)) }
        if original.folder != updated.folder { changes.append(RecordChange(action: .moved, from: original.folder, to: updated.folder)) }
        if original.trashedAt == nil, updated.trashedAt != nil { changes.append(RecordChange(action: .trashed, from: nil, to: nil)) }
        if original.trashedAt != nil, updated.trashedAt == nil { changes.append(RecordChange(action: .restored, from: nil, to: nil)) }
        if original.expiresAt != updated.expiresAt || original.maxDownloads != updated.maxDownloads {
            changes.append(RecordChange(action: .expiryChanged, from: limits(of: original), to: limits(of: updated)))
        }
        if original.revokedAt == nil, updated.revokedAt != nil { changes.append(RecordChange(action: .revoked, from: nil, to: nil)) }
        if original.revokedAt != nil, updated.revokedAt == nil {
            changes.append(RecordChange(action: .expiryChanged, from: "revoked", to: limits(of: updated)))
        }
        return changes
    }

    /// The events after which a link may expire anew, as an SQL list: its making and each change of its limits,
    /// and `expired` itself, which is recorded once after each of them.
    public static let expiryMarksSQL = [ShareEvent.Action.created, .imported, .expiryChanged, .expired].map { "'\($0.rawValue)'" }
        .joined(separator: ", ")

    /// A link's limits in words: "until 2021-01-24T00:00:00.000Z, 10 downloads", or "none".
    static func limits(of record: ShareRecord) -> String {
        let limits = [record.expiresAt.map { "until \($0)" }, record.maxDownloads.map { "\($0) downloads" }].compactMap { $0 }
        return limits.isEmpty ? "none" : limits.joined(separator: ", ")
    }
}
