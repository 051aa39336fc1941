import Foundation
import ShareChildProcess
import ShareTestSupport

/// The built `share` binary, beside this test bundle (or at `$SHARE_BINARY`).
let shareBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["SHARE_BINARY"] { return URL(filePath: path) }
    return sharedBinary.deletingLastPathComponent().appending(path: "share")
}()

/// What one run of `share` printed and how it ended.
struct ShareRun {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs `share` to completion with a clean environment pointing at `server`, reading `input` as stdin.
func share(_ arguments: [String], server: String, environment: [String: String] = [:], input: String = "") throws -> ShareRun {
    let folder = try temporaryFolder()
    let process = ChildProcess()
    process.executableURL = shareBinary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin", "SHARE_SERVER": server, "TZ": "UTC"]
        .merging(environment) { $1 }
    let stdout = folder.appending(path: "stdout")
    let stderr = folder.appending(path: "stderr")
    FileManager.default.createFile(atPath: stdout.path, contents: nil)
    FileManager.default.createFile(atPath: stderr.path, contents: nil)
    let stdin = folder.appending(path: "stdin")
    try Data(input.utf8).write(to: stdin)
    process.standardOutput = try FileHandle(forWritingTo: stdout)
    process.standardError = try FileHandle(forWritingTo: stderr)
    process.standardInput = try FileHandle(forReadingFrom: stdin)
    try process.run()
    process.waitUntilExit()
    return ShareRun(
        status: process.terminationStatus, stdout: try String(contentsOf: stdout, encoding: .utf8),
        stderr: try String(contentsOf: stderr, encoding: .utf8))
}
