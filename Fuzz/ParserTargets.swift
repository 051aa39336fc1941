// The libFuzzer entry of `scripts/fuzz-parsers`: every parser of what a client writes as a number, a time or a
// cursor, one chosen per run by SHARE_FUZZ_TARGET. Each checks what must hold of any input, and traps where it does not.
import ShareKit

#if canImport(Glibc)
import Glibc
#endif

private let target: @Sendable ([UInt8]) -> Void = {
    let name = getenv("SHARE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = ParserTargets.all[name] else {
        fatalError("SHARE_FUZZ_TARGET must be one of \(ParserTargets.all.keys.sorted())")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    target(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}

enum ParserTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "byte-range": { byteRange($0) }, "client-digits": { clientDigits($0) }, "timestamp": { timestamp($0) },
        "listing-query": { listingQuery($0) }, "cursor": { cursor($0) },
    ]

    /// `Range` against a file of any size (the input's first eight bytes): a part is never empty nor past the end.
    static func byteRange(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return }
        let size = Int64(bitPattern: bytes[..<8].reduce(0) { $0 << 8 | UInt64($1) }) & .max
        let header = String(decoding: bytes[8...], as: UTF8.self)
        if case .part(let part) = ByteRange(header: header, size: size) {
            precondition(part.lowerBound >= 0 && part.upperBound <= size && !part.isEmpty, "\(header) of \(size): \(part)")
        }
        if case .unsatisfiable = ByteRange(header: header, size: size) { precondition(header.hasPrefix("bytes=")) }
    }

    /// Digits alone, read as the number they write; a bound is never below the number.
    static func clientDigits(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let value = Int64(clientDigits: text) {
            precondition(value >= 0 && text.utf8.allSatisfy { (48...57).contains($0) }, text)
            precondition(String(value) == String(text.drop { $0 == "0" }).ifEmpty("0"), text)
            precondition(Int64(clientBound: text) == value, text)
        } else if let bound = Int64(clientBound: text) {
            precondition(bound == .max, "only a number too large for 63 bits is a bound and not a number: \(text)")
        }
    }

    /// A time or a day that parses is within the years RFC 3339 writes, and writes itself back.
    static func timestamp(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let time = Timestamp(rfc3339: text) {
            precondition(time >= .earliest && time <= .latest, text)
            precondition(Timestamp(rfc3339: time.description) == time, text)
        }
        if let day = CalendarDay(text) { precondition(CalendarDay(day.description) == day, text) }
    }

    /// A listing's query string decodes, or is refused naming its parameter; what decodes encodes to itself.
    static func listingQuery(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let query = try ListingQuery(query: text)
            precondition((try? ListingQuery(query: query.formEncoded)) == query, text)
        } catch .invalidParameter(let name, _) {
            precondition(!name.isEmpty, text)
        } catch {
            preconditionFailure("\(text): \(error)")
        }
    }

    /// A cursor from a client is one the server made, or none: what decodes encodes to itself.
    static func cursor(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let cursor = ShareCursor(encoded: text) { precondition(ShareCursor(encoded: cursor.encoded) == cursor, text) }
        if let position = EventCursor.position(text) { precondition(position >= 0 && EventCursor.position(EventCursor.encode(position)) == position) }
    }
}

extension String {
    fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
