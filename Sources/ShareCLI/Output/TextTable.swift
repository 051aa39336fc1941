/// Rows of cells padded into columns as a terminal shows them (wide characters take two columns), for every table
/// the CLI prints. Cells are taken as given: callers escape what came from a server, and style after padding, so
/// that escape sequences never upset the alignment.
enum TextTable {
    /// Each cell padded to its column's widest cell, to the right in `rightAligned` columns; a last column that is
    /// left-aligned is not padded, so lines carry no trailing spaces.
    static func padded(_ rows: [[String]], rightAligned: Set<Int> = []) -> [[String]] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { TerminalText.width($0[column]) }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                let aligned = rightAligned.contains(column)
                return column == columns - 1 && !aligned ? text : TerminalText.pad(text, to: widths[column], alignRight: aligned)
            }
        }
    }

    /// The padded rows as lines, two spaces between columns, the first (the header) in bold.
    static func render(_ rows: [[String]], rightAligned: Set<Int> = [], style: TerminalStyle) -> String {
        padded(rows, rightAligned: rightAligned).enumerated().map { index, cells in
            let line = cells.joined(separator: "  ")
            return index == 0 ? style.bold(line) : line
        }.joined(separator: "\n")
    }
}
