import ShareKit

/// Where the previous page ended: the last record's sort value and id, for keyset paging.
///
/// On the wire it is opaque (base64url); it also records the sort it was made for, so it cannot be misapplied.
public struct ShareCursor: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case integer(Int64)
        case text(String)
    }

    public let sort: ListingSort
    public let order: ListingOrder
    public let value: Value
    public let id: String

    public init(sort: ListingSort, order: ListingOrder, value: Value, id: String) {
        self.sort = sort
        self.order = order
        self.value = value
        self.id = id
    }

    /// `v1 <sort> <order> <id> <value>`, base64url without padding.
    public var encoded: String {
        let valueText: String
        switch value {
        case .integer(let number): valueText = String(number)
        case .text(let text): valueText = text
        }
        let plain = ["v1", sort.rawValue, order.rawValue, id, valueText].joined(separator: " ")
        return Base64URL.encode(plain.utf8)
    }

    /// Decodes a cursor made by `encoded`; nil for anything else.
    public init?(encoded: String) {
        guard let bytes = Base64URL.decode(encoded), let plain = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = plain.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "v1", let sort = ListingSort(rawValue: String(parts[1])),
            let order = ListingOrder(rawValue: String(parts[2])), ShareID.isPlausible(parts[3])
        else { return nil }
        switch sort {
        case .name:
            value = .text(String(parts[4]))
        case .createdAt, .size, .downloads:
            guard let number = Int64(parts[4]) else { return nil }
            value = .integer(number)
        }
        self.sort = sort
        self.order = order
        self.id = String(parts[3])
    }
}
