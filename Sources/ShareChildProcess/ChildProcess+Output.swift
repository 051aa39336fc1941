import Foundation

extension ChildProcess {
    /// What a program run to its end said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` to its end and returns what it printed, stdout and stderr together; `Failure` with that text
    /// unless it exited 0. The output goes through a file, not a pipe: a server a script leaves running keeps the
    /// script's descriptors open after the script ends.
    public static func output(of executable: String, _ arguments: [String]) throws -> String {
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
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard child.terminationStatus == 0 else { throw Failure(description: "\(executable) \(arguments.joined(separator: " ")): \(text)") }
        return text
    }
}
