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

    /// Column `index`, a `bigint[]` of one dimension without NULLs; NULL is an empty array.
    func integers(_ index: Int) throws -> [Int64] {
        try array(index, of: .int8Array) { bytes, at, length in length == 8 ? bytes.getInteger(at: at, as: Int64.self) : nil }
    }

    /// Column `index`, a `text[]` of one dimension without NULLs; NULL is an empty array.
    func strings(_ index: Int) throws -> [String] {
        try array(index, of: .textArray) { bytes, at, length in bytes.getString(at: at, length: length) }
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

    /// Column `index`, an array of `type` whose elements `read` finds (given the buffer, where an element starts and its
    /// length), or as `decode` does when the array has another shape; NULL is an empty array.
    private func array<Element>(
        _ index: Int, of type: PostgresDataType, read: (ByteBuffer, Int, Int) -> Element?
    ) throws -> [Element] where [Element]: PostgresDecodable {
        let cell = self[index]
        guard let bytes = cell.bytes else { return [] }
        guard cell.format == .binary, cell.dataType == type, let elements = Self.elements(of: bytes, read: read) else {
            return try cell.decode([Element].self)
        }
        return elements
    }

    /// The elements of an array in PostgreSQL's binary form (dimensions, a NULL flag, the elements' type, each
    /// dimension's length and lower bound, then each element's length and bytes); nil unless one dimension, no NULL.
    private static func elements<Element>(of bytes: ByteBuffer, read: (ByteBuffer, Int, Int) -> Element?) -> [Element]? {
        var at = bytes.readerIndex
        func next() -> Int? {
            defer { at += 4 }
            return bytes.getInteger(at: at, as: Int32.self).map(Int.init)
        }
        guard let dimensions = next(), next() != nil, next() != nil else { return nil }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let count = next(), count >= 0, next() != nil else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(Swift.min(count, bytes.readableBytes / 4))
        for _ in 0..<count {
            guard let length = next(), length >= 0, let element = read(bytes, at, length) else { return nil }
            elements.append(element)
            at += length
        }
        return elements
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
