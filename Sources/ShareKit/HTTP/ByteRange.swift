/// The one range of bytes a request for a file asks for (`Range: bytes=…`, RFC 9110 §14): several ranges, or a
/// range of another unit, are answered with the whole file, as the RFC allows.
///
/// Every bound a client writes is read as digits alone, and no arithmetic on it can overflow: a last byte past
/// `Int64.max` is the file's end, like any other past it.
public enum ByteRange: Equatable, Sendable {
    /// The whole file (no range, or one not honoured).
    case whole
    /// Bytes of the file, never empty, never past its end.
    case part(Range<Int64>)
    /// A range wholly past the end: 416.
    case unsatisfiable

    public init(header: String?, size: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingSpacesAndTabs
        guard let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let firstText = spec[..<dash]
        let lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            // The last n bytes.
            guard let count = Int64(clientBound: lastText) else {
                self = .whole
                return
            }
            self = count == 0 || size == 0 ? .unsatisfiable : .part((size - min(count, size))..<size)
            return
        }
        guard let first = Int64(clientBound: firstText) else {
            self = .whole
            return
        }
        let last: Int64
        if lastText.isEmpty {
            last = .max
        } else {
            guard let given = Int64(clientBound: lastText), given >= first else {
                self = .whole
                return
            }
            last = given
        }
        guard first < size else {
            self = .unsatisfiable
            return
        }
        // `size - 1` is below `Int64.max`, so the end of the range cannot overflow.
        self = .part(first..<(min(last, size - 1) + 1))
    }

    /// The bytes this answer sends of a file of `size` bytes: nil for none (416).
    public func sent(of size: Int64) -> Range<Int64>? {
        switch self {
        case .whole: 0..<size
        case .part(let part): part
        case .unsatisfiable: nil
        }
    }
}

extension Substring {
    fileprivate var trimmingSpacesAndTabs: Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return self[start...end]
    }
}
