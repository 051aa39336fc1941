/// Text from a server, made safe and measurable for a terminal.
enum TerminalText {
    /// Shows escaped every character that is not drawn as itself: controls (`\x1B`, `\u{85}`), which could move
    /// the cursor, clear the screen or fake other lines, and the invisible format characters (Unicode category Cf:
    /// bidirectional controls such as U+202E and U+061C, zero-width characters, the BOM, tag characters), which
    /// could reorder or hide what is shown; also the line and paragraph separators.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: escaped += "\\t"
            case 0x0A: escaped += "\\n"
            case 0x0D: escaped += "\\r"
            case 0x00..<0x20, 0x7F: escaped += "\\x" + hex(scalar.value, digits: 2)
            default:
                guard isHidden(scalar) else {
                    escaped.unicodeScalars.append(scalar)
                    continue
                }
                escaped += "\\u{" + hex(scalar.value, digits: 4) + "}"
            }
        }
        return escaped
    }

    /// Characters a terminal does not draw as themselves.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Columns the text takes in a terminal: East Asian wide characters take two, combining marks none.
    static func width(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// Pads `text` with spaces to `columns` display columns.
    static func pad(_ text: String, to columns: Int, alignRight: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, columns - width(text)))
        return alignRight ? padding + text : text + padding
    }

    private static func width(of scalar: Unicode.Scalar) -> Int {
        // Below U+0300 (combining marks start there) every character shown takes one column.
        if scalar.value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.value == 0x200B { return 0 }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks, and the emoji that terminals draw two columns wide.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F3, 0x25FD...0x25FE,
        0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB,
        0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
