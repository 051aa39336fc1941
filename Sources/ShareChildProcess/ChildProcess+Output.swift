import Foundation

extension ChildProcess {
    /// What a program run to its end said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` to its end: its exit status and what it printed, stdout and stderr together. The output goes
    /// through a file, not a pipe: a server a script leaves running keeps the script's descriptors open after it ends.
    public static func finished(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appending(path: "child-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            throw Failure(description: "cannot write \(file.path)")
        }
        defer { try? handle.close() }
        let child = ChildProcess()
        child.executableURL = URL(filePath: executable)
        child.arguments = arguments
        child.standardOutput = handle
        child.standardError = handle
        try child.run()
        child.waitUntilExit()
        return (child.terminationStatus, (try? String(contentsOf: file, encoding: .utf8)) ?? "")
    }

    /// What `executable` printed when run to its end (`finished`); `Failure` with that text unless it exited 0.
    public static func output(of executable: String, _ arguments: [String]) throws -> String {
        let (status, text) = try finished(executable, arguments)
        guard status == 0 else { throw Failure(description: "\(executable) \(arguments.joined(separator: " ")): \(text)") }
        return text
    }
}
