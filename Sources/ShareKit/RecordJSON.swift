import Foundation

/// Writes share records as JSON bytes directly: what `WireJSON.encoder()` writes for a `ShareRecord`, byte for
/// byte (sorted keys, `/` unescaped), at a fraction of the cost, for listings of up to a thousand rows.
///
/// Hand-written because listings are the hot path: copying columns as bytes from SQLite into this writer, instead
/// of records through `JSONEncoder`, took a 100-row page from 3.9k to ~6.5k requests a second (docs/benchmarks.md,
/// "A 100-row page"). `RecordJSONTests` checks it against `JSONEncoder` on random records.
public enum RecordJSON {
    /// Appends one record object; its text fields are given as UTF-8 bytes (`String.utf8`, or a database column's).
    /// `link` and `form` write what the record has of a link, `files` the JSON of a share's several files;
    /// `thumbnailImage` (an export's, in base64) and `owner` (an export of every history's) are what only exports add. Keys in sorted order, as the wire encoder writes.
    @inlinable
    public static func append<Text: Collection<UInt8>>(
        id: Text, name: Text, folder: Text, createdAt: Int64, size: Int64, type: Text, trashedAt: Int64?, thumbnail: Bool = false,
        link: LinkColumns<Text>? = nil, files: Text? = nil, form: RecordForm? = nil, thumbnailImage: UnsafeRawBufferPointer? = nil,
        owner: Text? = nil, to bytes: inout [UInt8]
    ) {
        bytes.append(UInt8(ascii: "{"))
        let opens = link?.token != nil
        if let code = link?.code, form?.showsCodes ?? false {
            appendKey("code", to: &bytes)
            appendString(utf8: code, to: &bytes)
        }
        appendKey("createdAt", to: &bytes)
        appendTime(createdAt, to: &bytes)
        if opens, let link {
            appendKey("downloads", to: &bytes)
            appendInteger(link.downloads, to: &bytes)
        }
        if let expiresAt = link?.expiresAt {
            appendKey("expiresAt", to: &bytes)
            appendTime(expiresAt, to: &bytes)
        }
        if let files {
            // Kept as the JSON the record shows (`BundleFiles.json`).
            appendKey("files", to: &bytes)
            bytes.append(contentsOf: files)
        }
        appendKey("folder", to: &bytes)
        appendString(utf8: folder, to: &bytes)
        appendKey("id", to: &bytes)
        appendString(utf8: id, to: &bytes)
        if let form, opens || form.links.namesEveryRecord {
            appendLink(form.links, id: id, token: link?.token, to: &bytes)
        }
        if let maxDownloads = link?.maxDownloads {
            appendKey("maxDownloads", to: &bytes)
            appendInteger(maxDownloads, to: &bytes)
        }
        if let message = link?.message {
            appendKey("message", to: &bytes)
            appendString(utf8: message, to: &bytes)
        }
        appendKey("name", to: &bytes)
        appendString(utf8: name, to: &bytes)
        if let owner {
            appendKey("owner", to: &bytes)
            appendString(utf8: owner, to: &bytes)
        }
        if let sender = link?.sender {
            appendKey("sender", to: &bytes)
            appendString(utf8: sender, to: &bytes)
        }
        appendKey("size", to: &bytes)
        appendInteger(size, to: &bytes)
        if let source = link?.source {
            appendKey("source", to: &bytes)
            appendString(utf8: source, to: &bytes)
        }
        if opens, let link, let form {
            appendKey("state", to: &bytes)
            appendString(utf8: link.state(at: form.now).rawValue.utf8, to: &bytes)
        }
        if link?.stored == true {
            appendKey("stored", to: &bytes)
            bytes.append(contentsOf: "true".utf8)
        }
        if thumbnail {
            appendKey("thumbnail", to: &bytes)
            bytes.append(contentsOf: "true".utf8)
        }
        if let thumbnailImage {
            appendKey("thumbnailImage", to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: Data(thumbnailImage).base64EncodedString().utf8)
            bytes.append(UInt8(ascii: "\""))
        }
        if let trashedAt {
            appendKey("trashedAt", to: &bytes)
            appendTime(trashedAt, to: &bytes)
        }
        appendKey("type", to: &bytes)
        appendString(utf8: type, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"link":"…"` when `links` gives the record one.
    @usableFromInline
    static func appendLink<Text: Collection<UInt8>>(_ links: ShareLinks, id: Text, token: Text?, to bytes: inout [UInt8]) {
        var link: [UInt8] = []
        guard links.append(id: id, token: token, to: &link) else { return }
        appendKey("link", to: &bytes)
        appendString(utf8: link, to: &bytes)
    }

    /// `"key":`, after a comma unless it is the object's first.
    @usableFromInline
    static func appendKey(_ key: StaticString, to bytes: inout [UInt8]) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    @usableFromInline
    static func appendTime(_ milliseconds: Int64, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        Timestamp(millisecondsSinceEpoch: milliseconds).appendRFC3339(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An integer's decimal digits, without making a `String`.
    @usableFromInline
    static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(number.magnitude, to: &bytes)
    }

    /// The decimal digits of `number`.
    static func appendDigits(_ number: UInt64, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = number
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// A JSON string, given as its UTF-8 bytes, as Foundation writes it: `"` and `\` escaped, control
    /// characters as `\n`-style or `\u00XX`.
    @inlinable
    public static func appendString(utf8 text: some Collection<UInt8>, to bytes: inout [UInt8]) {
        // Bytes in one piece are searched without the collection's indexes (a database cell's are in one piece).
        if text.withContiguousStorageIfAvailable({ appendQuoted($0, to: &bytes) }) == nil { appendQuoted(text, to: &bytes) }
    }

    @inlinable
    static func appendQuoted(_ text: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most names need no escaping at all: copy them whole.
        if !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        appendEscaped(text, to: &bytes)
    }

    @usableFromInline
    static func appendEscaped(_ text: some Collection<UInt8>, to bytes: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
