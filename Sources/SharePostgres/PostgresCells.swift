import NIOCore
import PostgresNIO

/// A cell read straight from its binary form. PostgresNIO's `decode` goes through generic code that looks up type
/// metadata for every cell, which took a quarter of a node's time for the statistics' 540 month rows; anything
/// these readers do not expect (another type or format, a NULL where none may be) goes to `decode`, for its
/// conversions and its errors.
extension PostgresCell {
    /// A `bigint`, `integer` or `smallint` (NULL: the library's error).
    func integer() throws -> Int64 {
        try optionalInteger() ?? decode(Int64.self)
    }

    /// A `bigint`, `integer` or `smallint`, or NULL.
    func optionalInteger() throws -> Int64? {
        guard let bytes else { return nil }
        switch (format, dataType, bytes.readableBytes) {
        case (.binary, .int8, 8): return bytes.getInteger(at: bytes.readerIndex, as: Int64.self)
        case (.binary, .int4, 4): return bytes.getInteger(at: bytes.readerIndex, as: Int32.self).map(Int64.init)
        case (.binary, .int2, 2): return bytes.getInteger(at: bytes.readerIndex, as: Int16.self).map(Int64.init)
        default: return try decode(Int64.self)
        }
    }

    /// A `text` or `varchar` (NULL: the library's error).
    func string() throws -> String {
        try optionalString() ?? decode(String.self)
    }

    /// A `text` or `varchar`, or NULL.
    func optionalString() throws -> String? {
        guard let bytes else { return nil }
        return isText ? String(buffer: bytes) : try decode(String.self)
    }

    /// A `text` or `varchar` as its UTF-8 bytes, with no `String` made of them (NULL: the library's error).
    func text() throws -> ByteBuffer {
        try optionalText() ?? ByteBuffer(string: decode(String.self))
    }

    /// A `text` or `varchar` as its UTF-8 bytes, or NULL.
    func optionalText() throws -> ByteBuffer? {
        guard let bytes else { return nil }
        return isText ? bytes : ByteBuffer(string: try decode(String.self))
    }

    /// A `boolean`.
    func boolean() throws -> Bool {
        guard format == .binary, dataType == .bool, let bytes, bytes.readableBytes == 1 else { return try decode(Bool.self) }
        return bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) != 0
    }

    /// A `bigint[]` of one dimension without NULLs; NULL is an empty array.
    func integers() throws -> [Int64] {
        try array(of: .int8Array) { bytes, at, length in length == 8 ? bytes.getInteger(at: at, as: Int64.self) : nil }
    }

    /// A `text[]` of one dimension without NULLs; NULL is an empty array.
    func strings() throws -> [String] {
        try array(of: .textArray) { bytes, at, length in bytes.getString(at: at, length: length) }
    }

    private var isText: Bool { format == .binary && (dataType == .text || dataType == .varchar) }

    /// An array of `type` whose elements `read` finds (given the buffer, where an element starts and its length), or
    /// as `decode` does when the array has another shape; NULL is an empty array.
    private func array<Element>(
        of type: PostgresDataType, read: (ByteBuffer, Int, Int) -> Element?
    ) throws -> [Element] where [Element]: PostgresDecodable {
        guard let bytes else { return [] }
        guard format == .binary, dataType == type, let elements = Self.elements(of: bytes, read: read) else {
            return try decode([Element].self)
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
}

extension PostgresRandomAccessRow {
    func optionalInteger(_ index: Int) throws -> Int64? { try self[index].optionalInteger() }
    func integers(_ index: Int) throws -> [Int64] { try self[index].integers() }
    func strings(_ index: Int) throws -> [String] { try self[index].strings() }
}

extension PostgresRow.Iterator {
    /// The row's next cell; a row shorter than its statement's columns is the library's error for a missing cell.
    mutating func following() throws -> PostgresCell {
        guard let cell = next() else { throw PostgresDecodingError.Code.missingData }
        return cell
    }
}
