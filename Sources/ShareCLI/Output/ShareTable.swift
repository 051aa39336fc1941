import Foundation
import ShareKit

/// Records as an aligned table, one row like the app's: type, name, size, local time, share id.
struct ShareTable {
    let zone: TimeZone
    let style: TerminalStyle

    func render(_ records: [ShareRecord]) -> String {
        let header = ["TYPE", "NAME", "SIZE", "SHARED", "ID"]
        let rows = records.map { record in
            [
                record.type.rawValue, TerminalText.escape(record.name), Formats.size(record.size),
                Formats.localTime(record.createdAt, in: zone), TerminalText.escape(record.id),
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { TerminalText.width($0[column]) }.max() ?? 0
        }
        var lines = [line(header, widths: widths) { _, text in style.bold(text) }]
        for (record, row) in zip(records, rows) {
            lines.append(
                line(row, widths: widths) { column, text in
                    switch column {
                    case 0: return style.category(text, record.type)
                    case 4: return style.dim(text)
                    default: return text
                    }
                })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Pads every cell but the last (sizes to the right), then styles it, so escapes never upset the alignment.
    private func line(_ cells: [String], widths: [Int], style: (Int, String) -> String) -> String {
        cells.enumerated().map { column, text in
            let padded = column == cells.count - 1 ? text : TerminalText.pad(text, to: widths[column], alignRight: column == 2)
            return style(column, padded)
        }.joined(separator: "  ")
    }
}
