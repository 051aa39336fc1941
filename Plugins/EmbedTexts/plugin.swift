import Foundation
import PackagePlugin

/// Compiles repository files into targets, so `shared` works from any directory once installed:
/// `migrations/*.sql` into ShareStore, `openapi.yaml` into ShareServer.
@main
struct EmbedTexts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let (enumName, files): (String, [URL])
        switch target.name {
        case "ShareStore":
            let folder = root.appending(path: "migrations")
            enumName = "EmbeddedMigrations"
            files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
        case "ShareServer":
            enumName = "EmbeddedDocuments"
            files = [root.appending(path: "openapi.yaml")]
        default:
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) file(s) as \(enumName)",
                executable: try context.tool(named: "TextEmbedder").url,
                arguments: [enumName, output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
