/// The records of a `ZipArchive` as PKWARE's APPNOTE lays them out, little-endian: an entry's local header, its
/// central directory header, and the end of the central directory (with ZIP64's end record and locator before it when
/// the archive needs them).
enum ZipRecords {
    /// Made by: Unix (3), version 4.5, so that unzipping tools give files the mode in the external attributes.
    static let madeBy: UInt16 = 3 << 8 | 45
    /// Bit 11: names are UTF-8.
    static let utf8Names: UInt16 = 1 << 11
    /// A regular file, readable by all, writable by its owner (0100644), in the attributes' high half.
    static let fileMode: UInt32 = 0o100644 << 16

    static func local(_ entry: ZipArchive.Entry, _ archive: ZipArchive) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.localLength))
        bytes.append(le: UInt32(0x0403_4B50))
        appendCommon(entry, archive, needs: entry.isLarge ? 45 : 20, to: &bytes)
        bytes.append(le: entry.isLarge ? UInt16(20) : 0)
        bytes += entry.name
        if entry.isLarge {
            bytes.append(le: UInt16(0x0001))
            bytes.append(le: UInt16(16))
            bytes.append(le: UInt64(entry.size))
            bytes.append(le: UInt64(entry.size))
        }
        return bytes
    }

    static func central(_ entry: ZipArchive.Entry, _ archive: ZipArchive) -> [UInt8] {
        let farOffset = entry.offset >= 0xFFFF_FFFF
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.centralLength))
        bytes.append(le: UInt32(0x0201_4B50))
        bytes.append(le: madeBy)
        appendCommon(entry, archive, needs: entry.centralExtra == 0 ? 20 : 45, to: &bytes)
        bytes.append(le: UInt16(entry.centralExtra == 0 ? 0 : 4 + entry.centralExtra))
        bytes.append(le: UInt16(0))  // comment
        bytes.append(le: UInt16(0))  // disk
        bytes.append(le: UInt16(0))  // internal attributes
        bytes.append(le: fileMode)
        bytes.append(le: farOffset ? 0xFFFF_FFFF : UInt32(entry.offset))
        bytes += entry.name
        if entry.centralExtra > 0 {
            bytes.append(le: UInt16(0x0001))
            bytes.append(le: UInt16(entry.centralExtra))
            if entry.isLarge {
                bytes.append(le: UInt64(entry.size))
                bytes.append(le: UInt64(entry.size))
            }
            if farOffset { bytes.append(le: UInt64(entry.offset)) }
        }
        return bytes
    }

    /// What both headers of an entry say alike, from the version needed to extract it to its name's length: stored,
    /// UTF-8, its time, CRC-32 and sizes (in ZIP64's extra field when past 32 bits).
    private static func appendCommon(_ entry: ZipArchive.Entry, _ archive: ZipArchive, needs version: UInt16, to bytes: inout [UInt8]) {
        bytes.append(le: version)
        bytes.append(le: utf8Names)
        bytes.append(le: UInt16(0))  // stored
        bytes.append(le: archive.dosTime)
        bytes.append(le: archive.dosDate)
        bytes.append(le: entry.checksum)
        let size = entry.isLarge ? 0xFFFF_FFFF : UInt32(entry.size)
        bytes.append(le: size)
        bytes.append(le: size)
        bytes.append(le: UInt16(entry.name.count))
    }

    static func end(_ archive: ZipArchive) -> [UInt8] {
        let count = archive.entries.count
        let (start, size) = (archive.centralStart, archive.centralOffsets.last!)
        var bytes: [UInt8] = []
        if archive.length - start - size > 22 {
            bytes.append(le: UInt32(0x0606_4B50))
            bytes.append(le: UInt64(44))
            bytes.append(le: madeBy)
            bytes.append(le: UInt16(45))
            bytes.append(le: UInt32(0))
            bytes.append(le: UInt32(0))
            bytes.append(le: UInt64(count))
            bytes.append(le: UInt64(count))
            bytes.append(le: UInt64(size))
            bytes.append(le: UInt64(start))
            bytes.append(le: UInt32(0x0706_4B50))
            bytes.append(le: UInt32(0))
            bytes.append(le: UInt64(start + size))
            bytes.append(le: UInt32(1))
        }
        bytes.append(le: UInt32(0x0605_4B50))
        bytes.append(le: UInt16(0))
        bytes.append(le: UInt16(0))
        bytes.append(le: UInt16(min(count, 0xFFFF)))
        bytes.append(le: UInt16(min(count, 0xFFFF)))
        bytes.append(le: UInt32(min(size, 0xFFFF_FFFF)))
        bytes.append(le: UInt32(min(start, 0xFFFF_FFFF)))
        bytes.append(le: UInt16(0))
        return bytes
    }
}

extension [UInt8] {
    fileprivate mutating func append<Number: FixedWidthInteger>(le number: Number) {
        Swift.withUnsafeBytes(of: number.littleEndian) { append(contentsOf: $0) }
    }
}
