import CZlib

/// The CRC-32 of bytes given in pieces (ISO-HDLC, as ZIP and gzip use it), by zlib.
public struct CRC32: Sendable {
    public private(set) var value: UInt32 = 0

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        value = UInt32(crc32_z(UInt(value), base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }
}
