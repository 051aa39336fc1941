/// Bytes from the server on their way to a terminal (`--json`, `export`): every character `TerminalText` would
/// escape is escaped, line breaks stay. A character split between two writes is held back until it is whole.
final class TerminalEscapingOutput: TextOutput {
    private let terminal: any TextOutput
    /// The start of a UTF-8 sequence the last write ended in the middle of.
    private var held: [UInt8] = []

    init(terminal: any TextOutput) {
        self.terminal = terminal
    }

    func write(bytes: [UInt8]) {
        var bytes = held + bytes
        let whole = Self.wholeCharactersLength(bytes)
        held = Array(bytes[whole...])
        bytes.removeSubrange(whole...)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        terminal.write(lines.map { TerminalText.escape(String($0)) }.joined(separator: "\n"))
    }

    /// How many of `bytes` end on a character boundary: a lead byte among the last three whose sequence
    /// needs more bytes than follow it marks where the unfinished character starts.
    private static func wholeCharactersLength(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.count - back]
            guard byte & 0xC0 == 0x80 else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return length > back ? bytes.count - back : bytes.count
            }
        }
        return bytes.count
    }
}
