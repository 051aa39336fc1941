/// A ZIP of a share's files, laid out whole before its first byte is sent: stored entries (the files' bytes as they
/// are, in the order the share holds them), UTF-8 names, and ZIP64 records wherever a size, an offset or the count of
/// entries needs them. Its length, and what any range of it holds, follow from the files' names, sizes and CRC-32s
/// alone, so a download of it has a `Content-Length` and resumes with `Range` like a single file's.
public struct ZipArchive: Sendable {
    struct Entry: Sendable {
        let name: [UInt8]
        let size: Int64
        let checksum: UInt32
        /// Where its local header begins in the archive.
        let offset: Int64
        /// Where its bytes begin in the share's bytes.
        let start: Int64

        var isLarge: Bool { size >= 0xFFFF_FFFF }
        var localLength: Int64 { 30 + Int64(name.count) + (isLarge ? 20 : 0) }
        var dataOffset: Int64 { offset + localLength }
        var centralExtra: Int { (isLarge ? 16 : 0) + (offset >= 0xFFFF_FFFF ? 8 : 0) }
        var centralLength: Int64 { 46 + Int64(name.count) + Int64(centralExtra == 0 ? 0 : 4 + centralExtra) }
    }

    let entries: [Entry]
    /// Where the central directory begins, and where each entry's header in it begins from there (one more: its end).
    let centralStart: Int64
    let centralOffsets: [Int64]
    let dosDate: UInt16
    let dosTime: UInt16
    /// The archive's bytes.
    public let length: Int64
    /// The bytes of the files it holds.
    public let dataLength: Int64

    /// How many files it holds.
    public var entryCount: Int { entries.count }

    /// Where the files' last byte ends in the archive (its end, when every file is empty): a download has taken every
    /// file once a range reaching it has gone, whatever records follow.
    public var endOfData: Int64 {
        entries.last { $0.size > 0 }.map { $0.dataOffset + $0.size } ?? length
    }

    /// The archive of `files` (with their CRC-32s, in the same order), each dated `modified`.
    public init(files: [BundleFile], checksums: [UInt32], modified: Timestamp) {
        precondition(files.count == checksums.count, "one checksum per file")
        var entries: [Entry] = []
        entries.reserveCapacity(files.count)
        var (offset, start): (Int64, Int64) = (0, 0)
        for (file, checksum) in zip(files, checksums) {
            let entry = Entry(name: Array(file.name.utf8), size: file.size, checksum: checksum, offset: offset, start: start)
            entries.append(entry)
            offset = entry.dataOffset + file.size
            start += file.size
        }
        var centralOffsets: [Int64] = [0]
        centralOffsets.reserveCapacity(entries.count + 1)
        for entry in entries { centralOffsets.append(centralOffsets.last! + entry.centralLength) }
        self.entries = entries
        self.centralStart = offset
        self.centralOffsets = centralOffsets
        (dosDate, dosTime) = Self.dosDateTime(modified)
        dataLength = start
        let central = centralOffsets.last!
        let needsZip64 = entries.count >= 0xFFFF || offset >= 0xFFFF_FFFF || central >= 0xFFFF_FFFF
        length = offset + central + (needsZip64 ? 56 + 20 : 0) + 22
    }

    /// What `range` of the archive holds, in order: bytes of its records, and ranges of the share's bytes.
    public func pieces(in range: Range<Int64>) -> ZipPieces {
        ZipPieces(archive: self, range: range.clamped(to: 0..<length))
    }

    /// How many of the files' bytes lie in `range` of the archive.
    public func dataBytes(in range: Range<Int64>) -> Int64 {
        Int64(dataSpan(in: range).count)
    }

    /// The range of the files' bytes that lies in `range` of the archive.
    public func dataSpan(in range: Range<Int64>) -> Range<Int64> {
        dataBytes(before: range.lowerBound)..<dataBytes(before: range.upperBound)
    }

    /// How many of the files' bytes lie before `position` of the archive.
    func dataBytes(before position: Int64) -> Int64 {
        guard position < centralStart else { return dataLength }
        guard let index = lastEntry(startingAtOrBefore: position) else { return 0 }
        let entry = entries[index]
        return entry.start + min(max(position - entry.dataOffset, 0), entry.size)
    }

    /// The last entry whose local header begins at or before `position`.
    func lastEntry(startingAtOrBefore position: Int64) -> Int? {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].offset <= position { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The last central header that begins at or before `position` (an offset from the directory's start); the
    /// entries' count when it is past them all (the end records).
    func lastCentralHeader(startingAtOrBefore position: Int64) -> Int {
        var (low, high) = (0, centralOffsets.count)
        while low < high {
            let middle = (low + high) / 2
            if centralOffsets[middle] <= position { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    /// MS-DOS's date and time of an instant, in UTC, which is what ZIP entries carry (1980 at the earliest).
    static func dosDateTime(_ time: Timestamp) -> (date: UInt16, time: UInt16) {
        let (day, millisecond) = time.wallClock(offsetMilliseconds: 0)
        guard day.year >= 1980 else { return (1 << 5 | 1, 0) }
        let seconds = Int(millisecond / 1000)
        let date = UInt16(min(day.year - 1980, 127) << 9 | day.month << 5 | day.day)
        return (date, UInt16((seconds / 3600) << 11 | (seconds % 3600 / 60) << 5 | (seconds % 60 / 2)))
    }
}
