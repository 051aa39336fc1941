/// A bearer token and the user it signs in (never recorded itself: events name the user).
public struct Credential: Sendable, Equatable {
    public let user: String
    public let secret: String

    public init(user: String, secret: String) {
        self.user = user
        self.secret = secret
    }

    /// Who a request is when no way of signing in is configured; reserved, never a configured user's name.
    public static let localUser = "local"

    /// 1–64 of `A-Z a-z 0-9 . _ @ -`: a name that a log line, an event and a table show as it is.
    public static func isUserName(_ text: some StringProtocol) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (FormEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~")) || $0 == UInt8(ascii: "@") }
    }

    /// Whether `name` is the reserved `local` in any case (`LOCAL` would read as it in events and logs).
    public static func isReserved(_ name: some StringProtocol) -> Bool {
        name.lowercased() == localUser
    }

    /// What a user name must be, for messages.
    public static let userNameRule = "1–64 of A-Z, a-z, 0-9, '.', '_', '@' and '-'"

    /// A token as configured: non-empty, no spaces (a token file line splits on them).
    public static func isSecret(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && !text.contains(where: \.isWhitespace)
    }
}
