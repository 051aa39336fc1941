import Foundation
import ShareKit

/// A `ListingQuery` resolved for the store: days turned into instants in a zone, the text folded, the cursor
/// decoded, defaults applied. It names no parameter: everything about the wire stays in `ListingQuery`.
public struct ShareQuery: Equatable, Sendable {
    /// Inclusive lower bound on `createdAt`.
    public var createdFrom: Timestamp?
    /// Exclusive upper bound on `createdAt`.
    public var createdBefore: Timestamp?
    /// The folded pieces (`SearchWords`) the name must each contain; none: any name.
    public var nameWords: [String] = []
    public var types: Set<IconCategory>?
    /// Shares that open whose link is in one of these states at `statesJudgedAt`.
    public var states: Set<ShareState>?
    /// When the states are judged: once for the whole listing, so that every read of it agrees.
    public var statesJudgedAt: Timestamp?
    public var folder: String?
    /// With `folder`, include its subfolders too.
    public var recursive = false
    public var sort = ListingSort.createdAt
    public var order = ListingOrder.desc
    public var limit = ListingQuery.defaultLimit
    /// Continue after this record.
    public var cursor: ShareCursor?
    /// List the trash instead of the live records.
    public var trashed = false
    /// The zone `date`, `from` and `to` were read in, and statistics group days by.
    public var zone = ZonedCalendar(zone: .gmt)

    public init() {}

    /// Resolves `listing`, reading its days in its zone, or `defaultZone` when it names none.
    public init(_ listing: ListingQuery, defaultZone: ZonedCalendar) throws(ShareError) {
        zone = listing.zone.flatMap(ZonedCalendar.init(identifier:)) ?? defaultZone
        if let day = listing.date {
            let range = zone.range(of: day)
            narrow(from: range.lowerBound, before: range.upperBound)
        }
        if let from = listing.from { narrow(from: instant(from, dayEnd: false), before: nil) }
        if let to = listing.to { narrow(from: nil, before: instant(to, dayEnd: true)) }
        nameWords = listing.text.map(SearchWords.pieces) ?? []
        types = listing.types
        if let states = listing.states { judge(states, at: .now()) }
        folder = listing.folder
        recursive = listing.recursive ?? false
        trashed = listing.trashed ?? false
        sort = listing.sort ?? .createdAt
        order = listing.order ?? .desc
        limit = listing.limit ?? ListingQuery.defaultLimit
        if let text = listing.cursor { cursor = try Self.cursor(text, sort: sort, order: order) }
    }

    /// Lists only shares whose link is in one of `states` at `now`.
    public mutating func judge(_ states: Set<ShareState>, at now: Timestamp) {
        self.states = states
        statesJudgedAt = now
    }

    /// Tightens the `createdAt` window; bounds only ever shrink, so every filter is honoured (AND).
    private mutating func narrow(from: Timestamp?, before: Timestamp?) {
        if let from { createdFrom = max(createdFrom ?? from, from) }
        if let before { createdBefore = min(createdBefore ?? before, before) }
    }

    /// A day means its whole day in the zone (its start for `from`, the next day's start for `to`); a time itself.
    private func instant(_ bound: ListingQuery.Bound, dayEnd: Bool) -> Timestamp {
        switch bound {
        case .day(let day): return zone.start(of: dayEnd ? day.next : day)
        case .instant(let instant): return instant
        }
    }

    /// The cursor a `Link` header carried, valid only for the sort and order it was made for.
    private static func cursor(_ text: String, sort: ListingSort, order: ListingOrder) throws(ShareError) -> ShareCursor {
        let parameter = ListingQuery.Parameter.cursor.rawValue
        guard let cursor = ShareCursor(encoded: text) else {
            throw .invalidParameter(parameter, "is not a cursor this server issued; take it from a Link header")
        }
        guard cursor.sort == sort, cursor.order == order else {
            throw .invalidParameter(
                parameter, "was issued for sort=\(cursor.sort.rawValue) and order=\(cursor.order.rawValue); keep them when paging")
        }
        return cursor
    }
}
