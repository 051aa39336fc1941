import ArgumentParser

extension CommandContext {
    /// Whether the person at the terminal says yes to `question`; `--yes` (`assumed`) says it for a script. Without a
    /// terminal and without `--yes`, the command refuses to `action`.
    func confirm(_ question: String, assumed: Bool, refusing action: String) throws -> Bool {
        if assumed { return true }
        guard input.isTerminal else { throw ValidationError("refusing to \(action) without --yes when input is not a terminal") }
        output.write(question + " [y/N] ")
        guard let answer = input.readLine()?.lowercased(), answer == "y" || answer == "yes" else { return false }
        return true
    }
}
