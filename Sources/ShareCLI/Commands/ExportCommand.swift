import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct ExportCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every live share (with --with-trash, every share) to standard output as NDJSON, streamed.",
        discussion: """
            Examples:
              share export > shares.ndjson
              share export --with-trash > everything.ndjson && share --server http://new:8080 import everything.ndjson
              share export --everyone > all-users.ndjson      (an admin: every user's, each line with its owner)
            """)

    @Flag(help: "Include the trash, each record with its trashedAt: an import of it restores the history as it was.")
    var withTrash = false

    @Flag(help: "Every user's history, each record with its owner (admins, under per-user histories).")
    var everyone = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.call { () throws(ClientError) in
            try context.api.exportShares(includingTrash: withTrash, everyone: everyone) { context.rawOutput.write(bytes: $0) }
        }
    }
}
