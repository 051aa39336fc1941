import ArgumentParser
import ShareClient
import ShareKit

struct ExpireCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "expire",
        abstract: "Set when a share's link stops opening: later, sooner, or never.",
        discussion: """
            A time already past closes the link now; --never opens it again if time was all that closed it.

            Examples:
              share expire 7K2M9QDX --in 7d
              share expire 7K2M9QDX --at 2021-01-24
              share expire 7K2M9QDX --never
            """)

    @Argument(help: "The share id.")
    var id: String

    @Option(name: .customLong("in"), help: "A span from now: 30m, 12h, 7d, 2w.")
    var span: String?

    @Option(help: "A date (the link opens through its end, in your zone) or an RFC 3339 time.")
    var at: String?

    @Flag(help: "The link never stops opening by time.")
    var never = false

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func validate() throws {
        guard [span != nil, at != nil, never].filter({ $0 }).count == 1 else { throw ValidationError("give one of --in, --at and --never") }
    }

    func run(in context: CommandContext) throws {
        let time: Timestamp? =
            if let span { try LinkExpiry.after(span) } else if let at { try LinkExpiry.at(at, in: context.zone) } else { nil }
        let answer = try context.call { () throws(ClientError) in try context.api.expire(id: id, at: time) }
        let until = time.map { "until \(Formats.localTime($0, in: context.zone)) (\(context.zone.identifier))" } ?? "with no end date"
        context.report(answer, "The link of \(TerminalText.escape(answer.record.id)) opens \(until)")
    }
}
