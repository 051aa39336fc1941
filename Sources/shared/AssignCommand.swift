import ArgumentParser
import ShareHistory
import ShareKit
import ShareSQLite

/// `shared assign --to USER`: records from before per-user histories, which belong to nobody, become a user's.
struct AssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Give the records that belong to nobody (made before per-user histories) to a user.",
        discussion: """
            Under histories = "per-user" each user sees only their own records; records made while histories \
            were shared belong to nobody until they are assigned. Their trash, events and running totals go with \
            them. Run it while shared is stopped (it takes the database's lock); it changes nothing a second time.

            Example:
              shared assign --to alice
            """)

    @Option(help: "The user who receives the records.")
    var to: String

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard Credential.isUserName(to) else {
            throw ValidationError("--to must be a user name: \(Credential.userNameRule), got '\(to)'")
        }
    }

    func run() async throws {
        let assigned = try await database.withStore { store in try await store.assignUnowned(to: to) }
        print("\(assigned == 1 ? "1 record" : "\(assigned) records") assigned to \(to)")
    }
}
