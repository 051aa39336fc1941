import Foundation

// Usage: MigrationEmbedder OUTPUT.swift MIGRATION.sql...
// Writes Swift source holding every migration's name and SQL, in file-name order, so that the
// binaries carry their schema and never read it from the working directory.

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: MigrationEmbedder OUTPUT.swift MIGRATION.sql...\n".utf8))
    exit(2)
}

var entries: [String] = []
for path in arguments.dropFirst().sorted(by: { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }) {
    let file = (path as NSString).lastPathComponent
    let name = (file as NSString).deletingPathExtension
    guard name.range(of: #"^[0-9]{4}_[a-z0-9_]+$"#, options: .regularExpression) != nil else {
        FileHandle.standardError.write(Data("error: \(path): migration files are named NNNN_lower_snake.sql\n".utf8))
        exit(1)
    }
    let sql = try String(contentsOfFile: path, encoding: .utf8)
    // A raw string whose delimiter cannot occur in the SQL.
    var hashes = "#"
    while sql.contains("\"\"\"" + hashes) || sql.contains("\\" + hashes) { hashes += "#" }
    entries.append("        (name: \"\(name)\", sql: \(hashes)\"\"\"\n\(sql)\n\"\"\"\(hashes)),")
}

let source = """
    // Generated from migrations/*.sql at build time. Do not edit.
    enum EmbeddedMigrations {
        static let all: [(name: String, sql: String)] = [
    \(entries.joined(separator: "\n"))
        ]
    }

    """
try source.write(toFile: output, atomically: true, encoding: .utf8)
