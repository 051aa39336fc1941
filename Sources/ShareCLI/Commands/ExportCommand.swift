import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct ExportCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every share to standard output as NDJSON, streamed.",
        discussion: "Example:\n  share export > backup.ndjson")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.call { () throws(ClientError) in try context.api.exportShares { context.rawOutput.write(bytes: $0) } }
    }
}
