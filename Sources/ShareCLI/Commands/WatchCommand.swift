import ArgumentParser
import Foundation
import ShareClient
import ShareKit

struct WatchCommand: ShareSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print this history's events as they happen, one line each, until interrupted.",
        discussion: """
            A share uploaded from another device, renamed, downloaded through its link: each shows as it happens. \
            When the connection breaks, watch comes back and goes on from the last event it printed. With --json, \
            each line is the event's JSON as webhooks receive it.

            Examples:
              share watch
              share watch --json | jq -r 'select(.type == "share.downloaded") | .data.share.name'
            """)

    @OptionGroup var global: GlobalOptions
    @ParentCommand var root: ShareCommand

    func run(in context: CommandContext) throws {
        var last: String?
        var opened = false
        var failures = 0
        while true {
            do {
                try context.api.followEvents(after: last, opened: { opened = true }) { id, data in
                    last = id
                    failures = 0
                    print(data, in: context)
                }
            } catch {
                // Once the stream has opened, a break is passing: watch comes back, saying so now and then.
                guard opened, error.isTransient else { throw CommandFailure(error) }
                failures += 1
                if failures % 10 == 1 { context.statusLine?.write("share: \(error.message); trying again\n") }
            }
            Thread.sleep(forTimeInterval: min(Double(failures), 5) + 0.2)
        }
    }

    private func print(_ data: String, in context: CommandContext) {
        guard !context.json else { return context.printJSON(Data(data.utf8)) }
        guard let message = try? WireJSON.decoder().decode(EventMessage.self, from: Data(data.utf8)) else { return }
        context.print(
            "\(Formats.localTime(message.timestamp, in: context.zone, seconds: true))  \(TerminalText.escape(EventSentence.of(message)))  "
                + "· \(TerminalText.escape(message.data.share.id))")
    }
}
