/// A bearer token and the label that names, in each record's history, who used it (never the token itself).
public struct Credential: Sendable, Equatable {
    public let label: String
    public let secret: String

    public init(label: String, secret: String) {
        self.label = label
        self.secret = secret
    }

    /// What changes made without a token (no tokens configured) are recorded as.
    public static let localLabel = "local"

    /// 1–64 of `A-Z a-z 0-9 . _ -`: a label a log line and a table show as it is.
    public static func isLabel(_ text: some StringProtocol) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { FormEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") }
    }
}
