/// Rows of cells padded into columns as a terminal shows them (wide characters take two columns), for every table
/// the CLI prints. Cells are taken as given: callers escape what came from a server, and style after padding, so
/// that escape sequences never upset the alignment.
enum TextTable {
    /// Each cell padded to its column's widest cell, to the right in `rightAligned` columns; a last column that is
    /// left-aligned is not padded, so lines carry no trailing spaces.
    static func padded(_ rows: [[String]], rightAligned: Set<Int> = []) -> [[String]] {
        pad(rows, to: widths(of: rows), rightAligned: rightAligned)
    }

    /// The width of each column: its widest cell.
    static func widths(of rows: [[String]]) -> [Int] {
        guard let columns = rows.first?.count else { return [] }
        return (0..<columns).map { column in rows.map { TerminalText.width($0[column]) }.max() ?? 0 }
    }

    /// Each cell padded to `widths`, as `padded` does.
    static func pad(_ rows: [[String]], to widths: [Int], rightAligned: Set<Int> = []) -> [[String]] {
        let columns = widths.count
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

/// A table printed a page at a time, as pages arrive: each column as wide as its widest cell so far, so that rows
/// line up with those before them wherever they can without holding them; the header comes with the first page.
struct GrowingTable {
    let header: [String]
    let rightAligned: Set<Int>
    private var widths: [Int]
    private var headerShown = false

    init(header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
        widths = TextTable.widths(of: [header])
    }

    /// `rows` padded, the columns widened first where a cell needs it, and the header, padded, before the first.
    mutating func pad(_ rows: [[String]]) -> (header: [String]?, rows: [[String]]) {
        let needed = TextTable.widths(of: rows)
        if !needed.isEmpty { widths = zip(widths, needed).map(max) }
        let header = headerShown ? nil : TextTable.pad([header], to: widths, rightAligned: rightAligned)[0]
        headerShown = true
        return (header, TextTable.pad(rows, to: widths, rightAligned: rightAligned))
    }

    /// `pad`'s result as lines, two spaces between columns, the header in bold.
    mutating func lines(_ rows: [[String]], style: TerminalStyle) -> [String] {
        let (header, padded) = pad(rows)
        return (header.map { [style.bold($0.joined(separator: "  "))] } ?? []) + padded.map { $0.joined(separator: "  ") }
    }
}
