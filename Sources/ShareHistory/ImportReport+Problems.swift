import ShareKit

extension ImportReport.Problem {
    /// A record of an import whose id the history (or an earlier line) holds already, in every store's words.
    package static func idTaken(line: Int, id: String) -> ImportReport.Problem {
        ImportReport.Problem(line: line, detail: "a share with id '\(id)' exists already")
    }
}
