import Foundation
import Glibc
import ShareChildProcess
import ShareTestSupport

#if canImport(Glibc)
#endif

/// nginx or Caddy, started in the foreground from a generated configuration and stopped with the test.
final class Proxy: @unchecked Sendable {
    let process = ChildProcess()

    /// nginx serving `server` (a `server { … }` block), ready when `isReady` says so.
    static func nginx(server: String, in folder: URL, isReady: () -> Bool) throws -> Proxy {
        let prefix = folder.appending(path: "nginx")
        try FileManager.default.createDirectory(at: prefix.appending(path: "logs"), withIntermediateDirectories: true)
        let config = """
            daemon off;
            \(getuid() == 0 ? "user root;" : "")
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/logs/error.log;
            events {}
            http {
                access_log off;
                client_body_temp_path \(prefix.path)/body;
                proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi;
                uwsgi_temp_path \(prefix.path)/uwsgi;
                scgi_temp_path \(prefix.path)/scgi;
                \(server)
            }
            """
        let file = prefix.appending(path: "nginx.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        return try Proxy(executable: "/usr/sbin/nginx", arguments: ["-p", prefix.path, "-c", file.path], environment: nil, isReady: isReady)
    }

    /// Caddy serving `caddyfile` (its admin endpoint off), ready when `isReady` says so.
    static func caddy(caddyfile: String, in folder: URL, isReady: () -> Bool) throws -> Proxy {
        let file = folder.appending(path: "Caddyfile")
        // No admin endpoint: it would take the same port for every test.
        try ("{\n\tadmin off\n}\n" + caddyfile).write(to: file, atomically: true, encoding: .utf8)
        let home = folder.appending(path: "caddy").path
        return try Proxy(
            executable: "/usr/bin/caddy", arguments: ["run", "--config", file.path, "--adapter", "caddyfile"],
            environment: ["HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home, "PATH": "/usr/bin:/bin"], isReady: isReady)
    }

    private init(executable: String, arguments: [String], environment: [String: String]?, isReady: () -> Bool) throws {
        process.executableURL = URL(filePath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let running = process
        do {
            try waitUntilBlocking("\(executable) ready", within: .seconds(15)) {
                guard running.isRunning else { throw DaemonError(description: "stopped") }
                return isReady()
            }
        } catch {
            throw DaemonError(description: "\(executable) did not start")
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}
