import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct ImportCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add many shares from a JSON array or NDJSON file (ids and dates kept when given).",
        discussion: """
            The file is streamed, whatever its size; a progress bar shows on a terminal. Once it is all sent, \
            share waits while the server stores the records (a large import takes minutes; up to an hour, or 60 \
            times timeout_seconds), and says so. Valid records are stored; invalid ones are listed by line, and \
            the exit status is then 6.

            Examples:
              share import history.ndjson
              share export > backup.ndjson && share --server https://new.example.org import backup.ndjson
              generate-records | share import -
            """)

    @Argument(help: "The file to read, or - for standard input.")
    var file: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let descriptor = file == "-" ? 0 : open(file, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read \(file): no such file or no permission", status: .localFile)
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var info = stat()
        let size = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int64(info.st_size) : nil
        let progress = context.statusLine.map { ProgressLine(output: $0, label: "Importing \(file)", total: size) }
        let upload = UploadSource(
            descriptor: descriptor, size: size, progress: { progress?.show($0) },
            waiting: { since in progress?.say("all sent; the server is storing the records (\(since.components.seconds) s)") })
        let answer = try context.call { () throws(ClientError) in try context.api.importShares(from: upload) }
        progress?.clear()
        let report = answer.report
        if context.json {
            context.printJSON(answer.body)
        } else {
            context.print("Imported \(report.imported) \(report.imported == 1 ? "share" : "shares")")
            for problem in report.problems {
                context.print("  line \(problem.line): \(TerminalText.escape(problem.detail))")
            }
            if report.rejected > report.problems.count {
                context.print("  … and \(report.rejected - report.problems.count) more")
            }
        }
        if report.rejected > 0 {
            throw CommandFailure("\(report.rejected) \(report.rejected == 1 ? "record was" : "records were") not imported", status: .rejected)
        }
    }
}
