import NIOCore
import PostgresNIO

/// A row's cells read straight from their binary form. PostgresNIO's `decode` goes through generic code that looks
/// up type metadata for every cell, which took a quarter of a node's time for the statistics' 540 month rows;
/// anything these readers do not expect (another type or format, a NULL where none may be) goes to `decode`, for
/// its conversions and its errors.
extension PostgresRandomAccessRow {
    /// Column `index`, a `bigint`, `integer` or `smallint` (NULL: the library's error).
    func integer(_ index: Int) throws -> Int64 {
        try optionalInteger(index) ?? self[index].decode(Int64.self)
    }

    /// Column `index`, a `bigint`, `integer` or `smallint`, or NULL.
    func optionalInteger(_ index: Int) throws -> Int64? {
        try value(index, read: Self.integer)
    }

    /// Column `index`, a `text` or `varchar` (NULL: the library's error).
    func string(_ index: Int) throws -> String {
        try optionalString(index) ?? self[index].decode(String.self)
    }

    /// Column `index`, a `text` or `varchar`, or NULL.
    func optionalString(_ index: Int) throws -> String? {
        try value(index, read: Self.string)
    }

    /// Column `index`, a `boolean`.
    func boolean(_ index: Int) throws -> Bool {
        let cell = self[index]
        guard cell.format == .binary, cell.dataType == .bool, let bytes = cell.bytes, bytes.readableBytes == 1 else {
            return try cell.decode(Bool.self)
        }
        return bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) != 0
    }

    /// Column `index` as `read` finds it, or as `decode` does when `read` cannot; nil for NULL.
    private func value<T: PostgresDecodable>(_ index: Int, read: (PostgresCell) -> T?) throws -> T? {
        let cell = self[index]
        guard cell.bytes != nil else { return nil }
        return try read(cell) ?? cell.decode(T.self)
    }

    private static func integer(_ cell: PostgresCell) -> Int64? {
        guard cell.format == .binary, let bytes = cell.bytes else { return nil }
        switch (cell.dataType, bytes.readableBytes) {
        case (.int8, 8): return bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
        case (.int4, 4): return bytes.getInteger(at: bytes.readerIndex, as: Int32.self).map(Int64.init)
        case (.int2, 2): return bytes.getInteger(at: bytes.readerIndex, as: Int16.self).map(Int64.init)
        default: return nil
        }
    }

    private static func string(_ cell: PostgresCell) -> String? {
        guard cell.format == .binary, cell.dataType == .text || cell.dataType == .varchar, let bytes = cell.bytes else { return nil }
        return String(buffer: bytes)
    }
}
