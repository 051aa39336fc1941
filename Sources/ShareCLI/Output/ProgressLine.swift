import ShareKit

/// A one-line progress display that redraws itself on a terminal.
final class ProgressLine {
    private let output: any TextOutput
    private let label: String
    private let total: Int64?
    private var shown = ""

    init(output: any TextOutput, label: String, total: Int64?) {
        self.output = output
        self.label = label
        self.total = total
    }

    func show(_ done: Int64) {
        let text: String
        if let total, total > 0 {
            text = "\(label)  \(done * 100 / total)%  \(ByteSize.text(done)) of \(ByteSize.text(total))"
        } else {
            text = "\(label)  \(ByteSize.text(done))"
        }
        redraw(text)
    }

    /// Says what the transfer is waiting for, in place of its figures.
    func say(_ words: String) {
        redraw("\(label)  \(words)")
    }

    /// Redraws only when the text changes: uploads call back for every piece.
    private func redraw(_ text: String) {
        guard text != shown else { return }
        shown = text
        output.write("\r\u{1B}[K" + TerminalText.escape(text))
    }

    func clear() {
        output.write("\r\u{1B}[K")
    }
}
