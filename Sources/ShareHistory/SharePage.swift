/// A page of a listing.
public struct SharePage: Sendable, Equatable {
    /// The records as a JSON array, exactly as `GET /share` answers.
    public var body: [UInt8]
    /// Present when more records follow.
    public var next: ShareCursor?

    public init(body: [UInt8], next: ShareCursor?) {
        self.body = body
        self.next = next
    }
}
