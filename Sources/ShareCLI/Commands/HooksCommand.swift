import ArgumentParser
import ShareClient
import ShareKit

/// `share hooks`: the webhooks that send this history's events to a URL.
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Send this history's events to a URL as they happen: signed webhooks.",
        discussion: """
            Each delivery is a POST of the event's JSON, signed as Standard Webhooks 1.0 says (webhook-id, \
            webhook-timestamp, webhook-signature) with the secret shown once when the hook is made. A delivery that \
            fails is tried again later, in order; a hook whose receiver answers 410, or fails every retry, stops \
            (share whoami says so) until it is enabled again.

            Examples:
              share hooks add https://example.com/hooks/share --events uploaded,downloaded
              share hooks
              share hooks log Xb1QeT9aKp2m
              share hooks retry Xb1QeT9aKp2m 41
              share hooks rm Xb1QeT9aKp2m
            """,
        subcommands: [HooksListCommand.self, HooksAddCommand.self, HooksRemoveCommand.self, HooksLogCommand.self, HooksRetryCommand.self],
        defaultSubcommand: HooksListCommand.self)
}

struct HooksListCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List this history's webhooks.")

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let (hooks, body) = try context.call { () throws(ClientError) in try context.api.hooks() }
        guard !context.json else { return context.printJSON(body) }
        guard !hooks.isEmpty else { return context.print("No webhooks. Add one with: share hooks add URL") }
        let rows = hooks.map { hook in
            [
                hook.id, TerminalText.escape(hook.url), hook.events.joined(separator: ","),
                hook.enabled ? "sending" : "stopped: " + TerminalText.escape(hook.disabledReason ?? "disabled"),
                TerminalText.escape(hook.description),
            ]
        }
        var table = GrowingTable(header: ["ID", "URL", "EVENTS", "STATE", "DESCRIPTION"])
        context.print(table.lines(rows, style: context.style).joined(separator: "\n"))
    }
}

struct HooksAddCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Send this history's events to URL; prints the hook's secret, shown this once.")

    @Argument(help: "Where the events are posted: an http:// or https:// URL of a public host.")
    var url: String

    @Option(help: ArgumentHelp("The events to send, separated by commas (default: every one).", valueName: "uploaded,downloaded,…"))
    var events = "*"

    @Option(help: "What the hook is for, as the list shows it.")
    var description: String?

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        let names = events.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let (hook, body) = try context.call { () throws(ClientError) in
            try context.api.addHook(url: url, events: names, description: description)
        }
        guard !context.json else { return context.printJSON(body) }
        context.print("Added webhook \(hook.id) → \(TerminalText.escape(hook.url)) (\(hook.events.joined(separator: ",")))")
        context.print("  secret: \(hook.secret ?? "") (shown this once: the receiver checks signatures with it)")
    }
}

struct HooksRemoveCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a webhook: it sends nothing more.")

    @Argument(help: "The webhook's id.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.call { () throws(ClientError) in try context.api.removeHook(id: id) }
        context.print("Removed webhook \(TerminalText.escape(id)).")
    }
}

struct HooksLogCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Show a webhook's deliveries, newest first: each try, its answer and how long it took.")

    @Argument(help: "The webhook's id.")
    var id: String

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.printPages(
            header: ["DELIVERY", "WHEN", "EVENT", "TYPE", "TRY", "ANSWER", "MS", "ERROR"], rightAligned: [0, 2, 4, 6],
            empty: "No deliveries of webhook \(TerminalText.escape(id)) yet.",
            { page throws(ClientError) in try context.api.hookDeliveries(id: id, page) }
        ) { delivery in
            [
                String(delivery.id), Formats.localTime(delivery.at, in: context.zone, seconds: true), delivery.eventId,
                TerminalText.escape(delivery.type), String(delivery.attempt), delivery.status == 0 ? "-" : String(delivery.status),
                String(delivery.ms), TerminalText.escape(delivery.error ?? ""),
            ]
        }
    }
}

struct HooksRetryCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Send a delivery's event to its webhook again (a stopped webhook starts again).")

    @Argument(help: "The webhook's id.")
    var id: String

    @Argument(help: "The delivery's number, as share hooks log shows it.")
    var delivery: Int64

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        try context.call { () throws(ClientError) in try context.api.retryDelivery(hook: id, delivery: delivery) }
        context.print("Delivery \(delivery) of webhook \(TerminalText.escape(id)) will be sent again.")
    }
}
