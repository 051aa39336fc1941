import ShareKit

/// A one-line progress display that redraws itself on a terminal: a bar, the percentage, the bytes, the rate over the
/// last few seconds and the time left (`Uploading a.mov  [########            ]  40%  10.0 MB of 25.0 MB  2.1 MB/s
/// 7 s left`), where a resumed transfer began, and at the end how long it took.
final class ProgressLine {
    private let output: any TextOutput
    private let label: String
    private let total: Int64?
    /// Time since the transfer began; a test's own clock.
    private let elapsed: () -> Duration
    private var shown = ""
    private var drawnAt: Duration?
    private var samples: [(at: Duration, done: Int64)] = []
    private var resumedFrom: Int64?
    private var firstDone: Int64?
    private var lastDone: Int64 = 0

    static let barWidth = 20
    /// The span the rate is measured over.
    static let rateWindow = Duration.seconds(5)

    init(output: any TextOutput, label: String, total: Int64?, elapsed: (() -> Duration)? = nil) {
        self.output = output
        self.label = label
        self.total = total
        let start = ContinuousClock.now
        self.elapsed = elapsed ?? { ContinuousClock.now - start }
    }

    /// Notes that the transfer resumed with `done` bytes already there: said beside the figures.
    func resumed(from done: Int64) {
        guard done > 0 else { return }
        resumedFrom = done
    }

    func show(_ done: Int64) {
        let now = elapsed()
        firstDone = firstDone ?? done
        lastDone = done
        samples = samples.filter { now - $0.at < Self.rateWindow } + [(now, done)]
        // At most ten redraws a second: uploads call back for every piece.
        if let drawnAt, now - drawnAt < .milliseconds(100), done != total { return }
        drawnAt = now
        var words = [label]
        if let total, total > 0 {
            let filled = Int(min(done, total) * Int64(Self.barWidth) / total)
            words.append("[" + String(repeating: "#", count: filled) + String(repeating: " ", count: Self.barWidth - filled) + "]")
            words.append("\(done * 100 / total)%" + (resumedFrom.map { " (resumed from \($0 * 100 / total)%)" } ?? ""))
            words.append("\(ByteSize.text(done)) of \(ByteSize.text(total))")
        } else {
            words.append(ByteSize.text(done))
        }
        if let rate = rate(now: now) {
            words.append("\(ByteSize.text(rate))/s")
            if let total, done < total { words.append("\(Self.duration(seconds: Double(total - done) / Double(rate))) left") }
        }
        redraw(words.joined(separator: "  "))
    }

    /// Bytes a second over the last `rateWindow`, once half a second of it is known.
    private func rate(now: Duration) -> Int64? {
        guard let first = samples.first, let last = samples.last, last.at - first.at >= .milliseconds(500) else { return nil }
        return Int64(Double(last.done - first.done) / Self.seconds(last.at - first.at))
    }

    /// Says what the transfer is waiting for, in place of its figures.
    func say(_ words: String) {
        samples = []
        redraw("\(label)  \(words)")
    }

    /// Redraws only when the text changes.
    private func redraw(_ text: String) {
        guard text != shown else { return }
        shown = text
        output.write("\r\u{1B}[K" + TerminalText.escape(text))
    }

    func clear() {
        output.write("\r\u{1B}[K")
    }

    /// Clears the line and says what was done and how long it took: `Uploaded a.mov: 25.0 MB in 12 s`.
    func finish(_ what: String) {
        clear()
        let moved = lastDone - (firstDone ?? 0)
        output.write(TerminalText.escape("\(what): \(ByteSize.text(moved)) in \(Self.duration(seconds: Self.seconds(elapsed())))") + "\n")
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `45 s`, `3 min`, `2 h 5 min`.
    static func duration(seconds: Double) -> String {
        guard seconds.isFinite else { return "a while" }
        if seconds < 60 { return "\(max(1, Int(seconds.rounded()))) s" }
        if seconds < 3600 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int(seconds / 3600)) h \(Int((seconds.truncatingRemainder(dividingBy: 3600) / 60).rounded())) min"
    }
}
