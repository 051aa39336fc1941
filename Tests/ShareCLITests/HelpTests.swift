import ShareKit
import Testing

@testable import ShareCLI

/// What `--help` tells a new user.
@Suite struct HelpTests {
    @Test func everySortValueIsDescribed() {
        for command in [ListCommand.self, FindCommand.self] as [any ShareSubcommand.Type] {
            let help = ShareCommand.helpMessage(for: command, columns: 120)
            let values = help.split(separator: "\n").filter { $0.hasPrefix("        ") && $0.contains(" - ") }
            #expect(values.count == ListingSort.allCases.count, "\(help)")
            #expect(values.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).hasSuffix("-") }, "\(values)")
            #expect(help.contains("created") && help.contains("when it was shared"))
        }
    }

    /// A paragraph of a command's help is one line in its source, so the terminal wraps it at its own width; a line
    /// broken in the source shows as a ragged break in the middle of a sentence.
    @Test func everyParagraphOfEveryCommandsHelpIsOneLine() {
        for command in ShareCommand.configuration.subcommands {
            let lines = command.configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            // A line of prose ends its sentence (or introduces what follows); examples are indented.
            let broken = lines.filter { line in
                !line.isEmpty && !line.hasPrefix(" ") && !(line.hasSuffix(".") || line.hasSuffix(":") || line.hasSuffix(")"))
            }
            #expect(broken.isEmpty, "share \(command.configuration.commandName ?? ""): \(broken)")
        }
    }
}
