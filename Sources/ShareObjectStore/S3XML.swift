import Foundation

/// The few values S3's XML answers carry that the client reads (an upload's id, a listing's keys, an error's code):
/// the text of elements by name, in order. S3 writes plain, well-formed XML of elements and text; nothing else of
/// XML is needed, and nothing of it is trusted beyond these values.
enum S3XML {
    /// The text of every element named `name`, unescaped, in document order.
    static func values(of name: String, in xml: String) -> [String] {
        var values: [String] = []
        var rest = Substring(xml)
        let open = "<\(name)>"
        let close = "</\(name)>"
        while let start = rest.range(of: open) {
            guard let end = rest.range(of: close, range: start.upperBound..<rest.endIndex) else { break }
            values.append(unescaped(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return values
    }

    /// The text of the first element named `name`.
    static func value(of name: String, in xml: String) -> String? {
        values(of: name, in: xml).first
    }

    /// Text with XML's five named entities and numeric references replaced by their characters.
    static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) { result.unicodeScalars.append(scalar) } else { result += rest[amp...semicolon] }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// `text` with `&`, `<` and `>` escaped, for a request's XML body.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
