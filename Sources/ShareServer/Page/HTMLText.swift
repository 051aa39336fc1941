/// Text written into HTML, as element content or a quoted attribute value: never read as markup, and never turned
/// around by a bidirectional control (`report\u{202E}fdp.exe` shown as `reportexe.pdf`): those are written as
/// their code points.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case _ where character.unicodeScalars.contains(where: isBidiControl):
                for scalar in character.unicodeScalars {
                    escaped += isBidiControl(scalar) ? "&lt;U+\(String(scalar.value, radix: 16, uppercase: true))&gt;" : String(scalar)
                }
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
