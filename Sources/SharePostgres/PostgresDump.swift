import Foundation
import ShareChildProcess
import ShareKit

/// PostgreSQL's own tools for the automatic backups of a PostgreSQL history: `pg_dump` writes a consistent copy
/// (custom format, which `pg_restore` reads), and `pg_restore --list` reads it back before it counts as a backup.
struct PostgresDump: Sendable {
    let address: PostgresAddress
    let password: String?
    private let dump: String
    private let restore: String

    /// Finds both tools on `PATH`; says to install them when they are missing.
    init(address: PostgresAddress, password: String?) throws {
        self.address = address
        self.password = password
        let find = { (tool: String) throws in
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            guard let folder = folders.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }) else {
                throw PostgresSetupFailure(
                    "[database] backup_dir: automatic backups of PostgreSQL run \(tool), which is not on PATH (Debian: apt-get install postgresql-client)"
                )
            }
            return "\(folder)/\(tool)"
        }
        dump = try find("pg_dump")
        restore = try find("pg_restore")
    }

    /// Dumps the database into `file` (through `file.partial`, renamed once read back whole) and says its size.
    func write(to file: String) async throws -> String {
        let partial = file + ".partial"
        do {
            // Private from its first byte, as SQLite's backups are: pg_dump writes into the file as it finds it.
            guard FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw ToolFailure(description: "cannot create \(partial)")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: partial)
            try await run(dump, ["--format=custom", "--file=\(partial)", "--dbname=\(address)"])
            try await run(restore, ["--list", partial])
            try FileManager.default.moveItem(atPath: partial, toPath: file)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        let bytes = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        return "pg_dump of \(address.database), \(bytes) bytes, read back by pg_restore"
    }

    /// Runs `tool` to its end; one that fails is an error holding the last line it wrote to stderr.
    private func run(_ tool: String, _ arguments: [String]) async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        if let password { environment["PGPASSWORD"] = password }
        process.environment = environment
        // Into a file rather than a pipe, which a tool saying much would fill and stop on.
        let errorsPath = FileManager.default.temporaryDirectory.appending(path: "share-\(UUID().uuidString).stderr").path
        guard FileManager.default.createFile(atPath: errorsPath, contents: nil), let errors = FileHandle(forWritingAtPath: errorsPath) else {
            throw ToolFailure(description: "cannot write \(errorsPath)")
        }
        defer {
            try? errors.close()
            try? FileManager.default.removeItem(atPath: errorsPath)
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let status = await process.exit()
        guard status == 0 else {
            let said = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
            let line = said.split(separator: "\n").last.map(String.init) ?? "no message"
            throw ToolFailure(description: "\(URL(fileURLWithPath: tool).lastPathComponent) exited with status \(status): \(line)")
        }
    }
}

/// A tool of PostgreSQL's that failed, and what it said.
struct ToolFailure: Error, CustomStringConvertible {
    let description: String
}
