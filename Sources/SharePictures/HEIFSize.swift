/// The largest picture a HEIF file declares: every `ispe` property (an image's width and height) under
/// `meta` → `iprp` → `ipco`, found by walking the boxes. A grid's own `ispe` is its whole size, its tiles' are
/// smaller, so the largest is what decoding the primary picture makes.
enum HEIFSize {
    static func largest(in bytes: [UInt8]) -> (width: Int, height: Int)? {
        let reader = HeaderBytes(bytes)
        guard let meta = boxes(reader, in: 0..<bytes.count).first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: a version and flags before its children.
        guard let properties = boxes(reader, in: (meta.content.lowerBound + 4)..<meta.content.upperBound).first(where: { $0.type == "iprp" }),
            let container = boxes(reader, in: properties.content).first(where: { $0.type == "ipco" })
        else { return nil }
        let sizes = boxes(reader, in: container.content).filter { $0.type == "ispe" }.compactMap { box -> (width: Int, height: Int)? in
            guard box.content.count >= 12, let width = reader.bigEndian(at: box.content.lowerBound + 4, count: 4),
                let height = reader.bigEndian(at: box.content.lowerBound + 8, count: 4)
            else { return nil }
            return (width, height)
        }
        return sizes.max { $0.width * $0.height < $1.width * $1.height }
    }

    private struct Box {
        let type: String
        let content: Range<Int>
    }

    /// The boxes one after another in `range`; stops at the first whose size does not fit.
    private static func boxes(_ reader: HeaderBytes, in range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, let size = reader.bigEndian(at: offset, count: 4), let type = reader.ascii(at: offset + 4, count: 4) {
            var header = 8
            var length = size
            if size == 1 {
                // A 64-bit size follows the type; no header can be that large, and a wrapped one fails the fit below.
                guard let large = reader.bigEndian(at: offset + 8, count: 8) else { break }
                (header, length) = (16, large)
            } else if size == 0 {
                length = range.upperBound - offset
            }
            guard length >= header, length <= range.upperBound - offset else { break }
            found.append(Box(type: type, content: (offset + header)..<(offset + length)))
            offset += length
        }
        return found
    }
}
