import Foundation

// Usage: TextEmbedder ENUM OUTPUT.swift FILE...
// Writes Swift source declaring `enum ENUM` with every file's name (with and without its extension) and text,
// in file-name order, so that the binaries carry their schema, documents and web page instead of reading them
// from the working directory.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: TextEmbedder ENUM OUTPUT.swift FILE...\n".utf8))
    exit(2)
}
let (enumName, output) = (arguments[0], arguments[1])

var entries: [String] = []
for path in arguments.dropFirst(2).sorted(by: { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }) {
    let file = (path as NSString).lastPathComponent
    let name = (file as NSString).deletingPathExtension
    let text = try String(contentsOfFile: path, encoding: .utf8)
    // A raw string whose delimiter cannot occur in the text.
    var hashes = "#"
    while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    entries.append("        (name: \"\(name)\", file: \"\(file)\", text: \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),")
}

let source = """
    // Generated at build time by TextEmbedder. Do not edit.
    enum \(enumName) {
        static let files: [(name: String, file: String, text: String)] = [
    \(entries.joined(separator: "\n"))
        ]
    }

    """
try source.write(toFile: output, atomically: true, encoding: .utf8)
