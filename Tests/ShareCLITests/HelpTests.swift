import Testing

@testable import ShareCLI

/// What `--help` tells a new user.
@Suite struct HelpTests {
    @Test func everySortValueIsDescribed() {
        for command in [ListCommand.self, FindCommand.self] as [any ShareSubcommand.Type] {
            let help = ShareCommand.helpMessage(for: command, columns: 120)
            let values = help.split(separator: "\n").filter { $0.hasPrefix("        ") && $0.contains(" - ") }
            #expect(values.count == 3, "\(help)")
            #expect(values.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).hasSuffix("-") }, "\(values)")
            #expect(help.contains("created") && help.contains("when it was shared"))
        }
    }
}
