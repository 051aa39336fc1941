import ShareKit

/// ANSI colour, on only when the output is a terminal (or `--color always`) and `NO_COLOR` is unset.
struct TerminalStyle: Sendable {
    let enabled: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// Each icon category in its own colour, like the app's type icons.
    func category(_ text: String, _ category: IconCategory) -> String {
        let codes: [IconCategory: String] = [
            .image: "35", .pdf: "31", .doc: "34", .txt: "37", .ppt: "33", .xls: "32", .zip: "36", .audio: "95", .video: "94",
        ]
        return wrap(text, codes[category] ?? "0")
    }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
