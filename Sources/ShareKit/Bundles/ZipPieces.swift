/// A piece of a range of a ZIP archive: bytes of its records, or a range of the share's bytes (a file's, or part of
/// one).
public enum ZipPiece: Equatable, Sendable {
    case records([UInt8])
    case data(Range<Int64>)
}

/// The pieces of a range of a `ZipArchive`, made as they are asked for: records next to each other come as one piece
/// of up to `recordBytes`, so a directory of many entries is written in few calls and never held whole.
public struct ZipPieces: Sequence, IteratorProtocol, Sendable {
    static let recordBytes = 65_536

    /// A part of the archive, in order: an entry's local header, its bytes, its central header, the end records.
    private enum Part {
        case local(Int)
        case data(Int)
        case central(Int)
        case end, done
    }

    private let archive: ZipArchive
    private let range: Range<Int64>
    private var part: Part
    private var position: Int64

    init(archive: ZipArchive, range: Range<Int64>) {
        self.archive = archive
        self.range = range
        if range.isEmpty {
            (part, position) = (.done, range.lowerBound)
        } else if range.lowerBound < archive.centralStart, let index = archive.lastEntry(startingAtOrBefore: range.lowerBound) {
            (part, position) = (.local(index), archive.entries[index].offset)
        } else {
            let index = archive.lastCentralHeader(startingAtOrBefore: range.lowerBound - archive.centralStart)
            let start = archive.centralStart + archive.centralOffsets[index]
            (part, position) = index == archive.entries.count ? (.end, start) : (.central(index), start)
        }
    }

    public mutating func next() -> ZipPiece? {
        var records: [UInt8] = []
        while position < range.upperBound {
            if case .data(let index) = part {
                let entry = archive.entries[index]
                let clipped = clip(length: entry.size)
                // Records gathered so far go first; the data comes at the next call.
                if !records.isEmpty, !clipped.isEmpty { return .records(records) }
                advance(by: entry.size)
                if !clipped.isEmpty {
                    return .data((entry.start + clipped.lowerBound - entry.dataOffset)..<(entry.start + clipped.upperBound - entry.dataOffset))
                }
                continue
            }
            guard let bytes = recordBytes() else { break }
            let clipped = clip(length: Int64(bytes.count))
            if !clipped.isEmpty { records += bytes[Int(clipped.lowerBound - position)..<Int(clipped.upperBound - position)] }
            advance(by: Int64(bytes.count))
            if records.count >= Self.recordBytes { break }
        }
        return records.isEmpty ? nil : .records(records)
    }

    /// What of the `length` bytes from `position` lies in the range asked for: empty when none does.
    private func clip(length: Int64) -> Range<Int64> {
        let start = Swift.max(position, range.lowerBound)
        return start..<Swift.max(start, Swift.min(position + length, range.upperBound))
    }

    /// The bytes of the current part, a record.
    private func recordBytes() -> [UInt8]? {
        switch part {
        case .local(let index): return ZipRecords.local(archive.entries[index], archive)
        case .central(let index): return ZipRecords.central(archive.entries[index], archive)
        case .end: return ZipRecords.end(archive)
        case .data, .done: return nil
        }
    }

    private mutating func advance(by bytes: Int64) {
        position += bytes
        let count = archive.entries.count
        switch part {
        case .local(let index): part = .data(index)
        case .data(let index): part = index + 1 < count ? .local(index + 1) : (count == 0 ? .end : .central(0))
        case .central(let index): part = index + 1 < count ? .central(index + 1) : .end
        case .end, .done: part = .done
        }
    }
}
