import Foundation
import ShareKit

/// One record of an import, read from its members when they are as plain as an export writes them (strings without
/// escapes, whole numbers, `null`, `true`, `false`); any other record is read by `JSONBody.decode`, whose fields and
/// refusals these match. Foundation's decoder was the import's largest cost per record.
enum ImportLine {
    static func fields(_ bytes: [UInt8]) throws(ShareError) -> NewShareBody {
        if let members = JSONObjectMembers(bytes), let fields = plainFields(members) { return fields }
        return try JSONBody.decode(NewShareBody.self, from: Data(bytes))
    }

    /// Nil when a member is not plain, a field's value is not of its type, or a key is given twice.
    static func plainFields(_ members: JSONObjectMembers) -> NewShareBody? {
        guard members.repeatedKey == nil else { return nil }
        var fields = NewShareBody()
        for (key, bytes) in members.members {
            guard let value = PlainValue(bytes) else { return nil }
            if let field = texts[key] {
                guard case .some(let text) = value.text else { return nil }
                fields[keyPath: field] = text
            } else if let field = numbers[key] {
                guard case .some(let number) = value.number else { return nil }
                fields[keyPath: field] = number.map(WholeNumber.init)
            } else if key == "code" {
                guard case .some(let text) = value.text else { return nil }
                fields.code = text.map(CodeChoice.init(code:))
            } else if key == "state" {
                guard case .some(let text) = value.text else { return nil }
                guard let name = text else { continue }
                guard let state = ShareState(rawValue: name) else { return nil }
                fields.state = state
            }
        }
        return fields
    }

    private static let texts: [String: WritableKeyPath<NewShareBody, String?> & Sendable] = [
        "id": \.id, "name": \.name, "folder": \.folder, "createdAt": \.createdAt, "trashedAt": \.trashedAt,
        "thumbnailImage": \.thumbnailImage, "source": \.source, "expiresAt": \.expiresAt, "sender": \.sender, "message": \.message,
    ]
    private static let numbers: [String: WritableKeyPath<NewShareBody, WholeNumber?> & Sendable] = [
        "size": \.size, "maxDownloads": \.maxDownloads, "downloads": \.downloads,
    ]
}

/// A JSON value that needs no decoding beyond its bytes: a string without escapes, a whole number of up to 18
/// digits, or a literal.
private enum PlainValue {
    case string(String)
    case whole(Int64)
    case null
    case boolean

    init?(_ bytes: ArraySlice<UInt8>) {
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "\"") {
            let inside = bytes.dropFirst().dropLast()
            guard bytes.count >= 2, bytes.last == UInt8(ascii: "\""), !inside.contains(UInt8(ascii: "\\")),
                let text = String(validating: inside, as: UTF8.self)
            else { return nil }
            self = .string(text)
        } else if bytes.elementsEqual("null".utf8) {
            self = .null
        } else if bytes.elementsEqual("true".utf8) || bytes.elementsEqual("false".utf8) {
            self = .boolean
        } else if let whole = Self.whole(bytes) {
            self = .whole(whole)
        } else {
            return nil
        }
    }

    /// `-?(0|[1-9][0-9]*)`, short enough to fit: JSON's grammar for a whole number, without fraction or exponent.
    private static func whole(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? bytes.dropFirst() : bytes
        guard (1...18).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.first != 0x30 || digits.count == 1
        else { return nil }
        let magnitude = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        return negative ? -magnitude : magnitude
    }

    /// A text field's value, `.some(nil)` for `null`; nil when the value is of another type.
    var text: String?? {
        switch self {
        case .string(let text): .some(text)
        case .null: .some(nil)
        default: nil
        }
    }

    /// A whole-number field's value, `.some(nil)` for `null`; nil when the value is of another type.
    var number: Int64?? {
        switch self {
        case .whole(let whole): .some(whole)
        case .null: .some(nil)
        default: nil
        }
    }
}
