/// Cuts a byte stream holding a JSON array of objects, or NDJSON (one object per line), into one chunk per
/// record as the bytes arrive, so an import of any size is read with constant memory.
struct RecordStreamSplitter {
    /// One record's bytes and the line it starts on.
    struct Record {
        let line: Int
        /// Nil for a record larger than `maxRecordBytes`: it was read past without keeping it, to be reported.
        let bytes: [UInt8]?
    }

    /// Why the stream cannot be read on: the records before it were fine.
    struct Failure: Error {
        let line: Int
        let reason: String
    }

    private enum Layout { case unknown, array, lines }
    /// Where the reader stands between records.
    private enum Expecting { case start, value, separatorOrEnd, nothing }

    let maxRecordBytes: Int
    private var layout = Layout.unknown
    private var expecting = Expecting.start
    private var record: [UInt8] = []
    /// The record being read is over the limit: its bytes are no longer kept, only its end is looked for.
    private var oversized = false
    private var recordLine = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var line = 1
    /// How much of a UTF-8 byte order mark (which some editors write) the stream began with, until it is whole
    /// or something else came; nil once past the start. Passed over, as JSON readers do.
    private var byteOrderMarkRead: Int? = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(maxRecordBytes: Int) {
        self.maxRecordBytes = maxRecordBytes
    }

    /// Appends the records `bytes` completes to `records`; those completed before a failure are kept there.
    mutating func feed(_ bytes: some Sequence<UInt8>, into records: inout [Record]) throws(Failure) {
        for byte in bytes {
            if let read = byteOrderMarkRead {
                if read < 3 && byte == Self.byteOrderMark[read] {
                    byteOrderMarkRead = read + 1
                    continue
                }
                guard read == 0 || read == 3 else { throw Failure(line: 1, reason: "the stream starts with bytes that are not UTF-8 JSON") }
                byteOrderMarkRead = nil
            }
            if depth > 0 {
                if let done = take(byte) { records.append(done) }
            } else {
                try between(byte)
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
        }
    }

    /// Checks that the stream did not stop inside a record or an unclosed array.
    func finish() throws(Failure) {
        if depth > 0 { throw Failure(line: recordLine, reason: "the record starting here is not complete") }
        if layout == .array && expecting != .nothing { throw Failure(line: line, reason: "the JSON array is not closed with ']'") }
    }

    /// A byte inside a record: follow strings and nesting until the object closes.
    private mutating func take(_ byte: UInt8) -> Record? {
        if !oversized {
            record.append(byte)
            if record.count > maxRecordBytes {
                oversized = true
                record = []
            }
        }
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return nil
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
        guard depth == 0 else { return nil }
        defer { (record, oversized) = ([], false) }
        expecting = layout == .array ? .separatorOrEnd : .value
        return Record(line: recordLine, bytes: oversized ? nil : record)
    }

    /// A byte between records: whitespace, the array's brackets and commas, or the start of the next object.
    private mutating func between(_ byte: UInt8) throws(Failure) {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
            return
        case UInt8(ascii: "[") where expecting == .start:
            layout = .array
            expecting = .value
        case UInt8(ascii: "{") where expecting == .start || expecting == .value:
            if layout == .unknown { layout = .lines }
            depth = 1
            record = [byte]
            recordLine = line
        case UInt8(ascii: ",") where layout == .array && expecting == .separatorOrEnd:
            expecting = .value
        case UInt8(ascii: "]") where layout == .array && expecting != .nothing:
            expecting = .nothing
        default:
            let what = layout == .array && expecting == .nothing ? "nothing may follow the closing ']'" : "each record must be a JSON object"
            throw Failure(line: line, reason: what)
        }
    }
}
