import ArgumentParser
import ShareClient
import ShareKit

struct WhoamiCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show who you are to the server: your user, how you signed in, and the space your shares take.",
        discussion: """
            Examples:
              share whoami
              share whoami --json
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let answer = try context.call { () throws(ClientError) in try context.api.whoami() }
        if context.json {
            context.printJSON(answer.body)
            return
        }
        let me = answer.user
        var line = TerminalText.escape(me.user ?? "nobody (a public read)")
        if me.admin { line += " (admin)" }
        if let method = me.signedInWith { line += " · signed in by \(method)" }
        line += " · \(me.histories) history · \(ByteSize.text(me.usedBytes)) used"
        if let quota = me.quotaBytes { line += " of \(ByteSize.text(quota))" }
        let parts = [me.trashedFilesBytes.map { "\(ByteSize.text($0)) in the trash" }, me.uploadingBytes.map { "\(ByteSize.text($0)) uploading" }]
        if !parts.compactMap({ $0 }).isEmpty { line += " (\(parts.compactMap { $0 }.joined(separator: ", ")))" }
        context.print(line)
        if let stopped = me.disabledHooks {
            context.print("\(stopped) webhook\(stopped == 1 ? "" : "s") stopped sending: see share hooks, and share hooks retry")
        }
        if let feed = me.feedUrl { context.print("feed: \(TerminalText.escape(context.api.server.origin + feed))") }
    }
}
