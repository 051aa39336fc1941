import Foundation
import PackagePlugin

/// Compiles repository files into targets, so `shared` works from any directory once installed:
/// `migrations/*.sql` into ShareSQLite, `migrations/postgresql/*.sql` into SharePostgres, `openapi.yaml` and the web page's files (`web/`) into ShareServer.
@main
struct EmbedTexts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        switch target.name {
        case "ShareSQLite":
            return [try command("EmbeddedMigrations", files(in: root.appending(path: "migrations"), extensions: ["sql"]), context)]
        case "SharePostgres":
            let folder = root.appending(path: "migrations/postgresql")
            return [try command("EmbeddedPostgresMigrations", files(in: folder, extensions: ["sql"]), context)]
        case "ShareServer":
            return [
                try command("EmbeddedDocuments", [root.appending(path: "openapi.yaml")], context),
                try command("EmbeddedWebPage", files(in: root.appending(path: "web"), extensions: ["html", "css", "js"]), context),
            ]
        default:
            return []
        }
    }

    private func files(in folder: URL, extensions: Set<String>) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { extensions.contains($0.pathExtension) }
    }

    private func command(_ enumName: String, _ files: [URL], _ context: PluginContext) throws -> Command {
        let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
        return .buildCommand(
            displayName: "Embedding \(files.count) file(s) as \(enumName)",
            executable: try context.tool(named: "TextEmbedder").url,
            arguments: [enumName, output.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output]
        )
    }
}
