import ArgumentParser
import Foundation
import ShareClient

struct AddCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Record a share of local files; prints each new id and name.",
        discussion: """
            The name and size come from the file; the server derives the type from the name.

            Examples:
              share add report.pdf
              share add *.jpg --folder /holiday
              share add scan-0042.pdf --name "Signed contract.pdf"
            """)

    @Argument(help: "Files to record.")
    var files: [String]

    @Option(help: "The folder to record them in (default /).")
    var folder: String?

    @Option(help: "Record the file under this name instead of its own (one file only).")
    var name: String?

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file") }
        if name != nil && files.count > 1 { throw ValidationError("--name applies to one file; got \(files.count)") }
    }

    func run(in context: CommandContext) throws {
        // Every file is read before any is recorded: one that cannot be read records none, so running the
        // command again after fixing it records nothing twice.
        let sizes = try files.map(Self.size(of:))
        for (path, size) in zip(files, sizes) {
            let fileName = name ?? (path as NSString).lastPathComponent
            let answer = try context.call { () throws(ClientError) in
                try context.api.create(name: fileName, size: size, folder: folder)
            }
            if context.json {
                context.printJSON(answer.body)
            } else {
                context.print("\(TerminalText.escape(answer.record.id))  \(TerminalText.escape(answer.record.name))")
            }
        }
    }

    /// The byte size of a regular file, or a failure that names it.
    private static func size(of path: String) throws -> Int64 {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw CommandFailure("cannot read \(path): no such file or no permission", status: .localFile)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber else {
            throw CommandFailure("\(path) is not a regular file", status: .localFile)
        }
        return size.int64Value
    }
}
