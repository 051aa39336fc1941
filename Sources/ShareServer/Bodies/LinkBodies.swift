import ShareHistory
import ShareKit

/// A code in a body: one chosen (a string), or `true` for one the server draws.
struct CodeChoice: Decodable {
    let code: String

    init(code: String) {
        self.code = code
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let chosen = try? container.decode(String.self) {
            code = chosen
        } else if try container.decode(Bool.self) {
            code = ExtractionCode.generate()
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be a code (4 to 32 letters or digits) or true for a new one")
        }
    }

    /// The code, checked.
    func checked() throws(ShareError) -> String {
        try ExtractionCode.validate(code)
    }
}

/// A field of a `PATCH` body that may be left out (unchanged), `null` (cleared) or given.
enum PatchField<Value: Decodable>: Decodable {
    case cleared
    case given(Value)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .cleared : .given(try container.decode(Value.self))
    }

    /// nil when left out, `.some(nil)` when cleared, else the value `check` makes of it.
    static func change<Checked>(_ field: PatchField?, _ check: (Value) throws(ShareError) -> Checked) throws(ShareError) -> Checked?? {
        switch field {
        case nil: return nil
        case .cleared: return .some(nil)
        case .given(let value): return .some(try check(value))
        }
    }
}

extension KeyedDecodingContainer {
    /// The field at `key` of a `PATCH` body: one given as null is read as such (cleared), not as one left out.
    func patchField<Value>(_ key: Key) throws -> PatchField<Value>? {
        contains(key) ? try decode(PatchField<Value>.self, forKey: key) : nil
    }
}

/// The rules of a link's fields in a body, each failure naming its field.
enum LinkFields {
    static func expiresAt(_ text: String) throws(ShareError) -> Timestamp {
        guard let time = Timestamp(rfc3339: text) else {
            throw .invalidField("expiresAt", "must be an RFC 3339 time such as 2021-01-24T00:00:00Z, got '\(text)'")
        }
        return time
    }

    static func maxDownloads(_ number: WholeNumber) throws(ShareError) -> Int64 {
        guard number.value >= 1 else { throw .invalidField("maxDownloads", "must be 1 or more, got \(number.value)") }
        return number.value
    }

    /// A new share's link from a body's fields: its limits, its code and what its recipient's page says.
    static func newLink(
        source: String?, expiresAt: String?, maxDownloads: WholeNumber?, code: CodeChoice?, sender: String?, message: String?
    ) throws(ShareError) -> NewLink {
        NewLink(
            source: try source.map { url throws(ShareError) in try ShareSource.validate(url) },
            expiresAt: try expiresAt.map { text throws(ShareError) in try Self.expiresAt(text) },
            maxDownloads: try maxDownloads.map { number throws(ShareError) in try Self.maxDownloads(number) },
            code: try code.map { choice throws(ShareError) in try choice.checked() },
            sender: try sender.map { text throws(ShareError) in try ShareGreeting.sender(text) },
            message: try message.map { text throws(ShareError) in try ShareGreeting.message(text) })
    }
}
