/// The one range of bytes a request for a file asks for (`Range: bytes=…`, RFC 9110 §14): several ranges, or a
/// range of another unit, are answered with the whole file, as the RFC allows.
enum ByteRange: Equatable {
    /// The whole file (no range, or one not honoured).
    case whole
    case part(Range<Int64>)
    /// A range wholly past the end: 416.
    case unsatisfiable

    init(header: String?, size: Int64) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        let first = Int64(bounds[0])
        let last = Int64(bounds[1])
        switch (bounds[0].isEmpty, bounds[1].isEmpty) {
        case (true, false):
            // The last n bytes.
            guard let count = last, count >= 0 else {
                self = .whole
                return
            }
            self = count == 0 || size == 0 ? .unsatisfiable : .part(max(0, size - count)..<size)
        case (false, _):
            guard let first, first >= 0, bounds[1].isEmpty || (last ?? -1) >= first else {
                self = .whole
                return
            }
            guard first < size else {
                self = .unsatisfiable
                return
            }
            self = .part(first..<min(size, (last ?? (size - 1)) + 1))
        case (true, true):
            self = .whole
        }
    }
}
