import ArgumentParser
import Foundation
import ShareKit

/// `share`: the command line over a `shared` server.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Look back through the files you shared, and tidy them up.",
        discussion: """
            Talks to a shared server (--server, $SHARE_SERVER or [client] server in share.toml). Dates are shown \
            in your time zone (--tz, [client] timezone, else the system zone). Global options go before or after \
            the command: share --json ls, share ls --json.

            Examples:
              share ls --date 2021-01-17
              share find report
              share sort --desc
              share add report.pdf --folder /reports
              share add plan.pdf --source https://drive.example.com/s/abc --code --expires 7d
              share rename 7K2M9QDX final.pdf && share mv 7K2M9QDX /archive
              share --user bob ls          (an admin, in bob's history)

            Exit status:
              0   success
              1   the server failed or answered something unexpected
              3   the server could not be reached (is shared running?)
              4   the server refused the token or the request (401/403: a quota reached, admins only)
              5   no share has that id (404)
              6   the server rejected the request (400/409/413), or some records of an import
              7   the server took the connection but did not answer in time
              64  usage error
              66  a local file could not be read (share add)
              78  configuration error (share.toml or SHARE_* variables)
            """,
        version: ShareVersion.current,
        subcommands: [
            ListCommand.self, FindCommand.self, SortCommand.self, ShowCommand.self, AddCommand.self, GetCommand.self, ExpireCommand.self,
            RevokeCommand.self, MessageCommand.self, DownloadsCommand.self, RenameCommand.self, MoveCommand.self, RemoveCommand.self,
            TrashCommand.self,
            RestoreCommand.self, LogCommand.self,
            StatsCommand.self,
            FoldersCommand.self,
            ImportCommand.self, ExportCommand.self, WhoamiCommand.self,
            UsersCommand.self, HooksCommand.self, WatchCommand.self, RequestCommand.self, RequestsCommand.self,
        ],
        defaultSubcommand: ListCommand.self
    )

    /// Global options given before a command's name (`share --json ls`); each command merges them with its own.
    @OptionGroup var global: GlobalOptions
}

/// The `share` program: parses, runs, and reports any failure as one line on stderr with its exit status.
public enum ShareProgram {
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        do {
            var command = try ShareCommand.parseAsRoot(CodeArgument.normalize(arguments))
            try command.run()
            exit(0)
        } catch let failure as CommandFailure {
            fail(failure.message, status: failure.status.rawValue)
        } catch {
            // Help and --version print as the parser prints them; usage errors become one line.
            let status = ShareCommand.exitCode(for: error)
            guard status != .success else { ShareCommand.exit(withError: error) }
            fail(ShareCommand.message(for: error), status: status.rawValue)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Never {
        let line = TerminalText.escape(message.split(whereSeparator: \.isNewline).joined(separator: " "))
        FileHandle.standardError.write(Data("share: \(line)\n".utf8))
        exit(status)
    }
}
