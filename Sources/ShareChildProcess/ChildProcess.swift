import CSpawn
import Foundation
import Synchronization

/// A program run as a child of this process, as Foundation's `Process` runs one, started by `posix_spawn` with every
/// descriptor but its standard three closed in the child. Foundation's own `Process.run()` lists `/proc/self/fd` to
/// close them and reads past the end of glibc's buffer when doing so (a SIGSEGV now and then, in a process that
/// starts many children: swift-corelibs-foundation's pull request 5472), so neither `shared` nor its tests use it.
public final class ChildProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's whole environment; nil: this process's.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `FileHandle`, or a `Pipe` whose reading end the child reads; nil: this process's.
    public var standardInput: Any?
    /// A `FileHandle`, or a `Pipe` whose writing end the child writes; nil: this process's.
    public var standardOutput: Any?
    public var standardError: Any?

    private let state = Mutex<State>(State())

    private struct State {
        var pid: pid_t = 0
        /// How it ended, once it has: its `waitpid` status.
        var status: Int32?
    }

    public struct SpawnFailure: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public var processIdentifier: Int32 { state.withLock { $0.pid } }

    /// Starts the program.
    public func run() throws {
        guard let path = executableURL?.path else { throw SpawnFailure(description: "no program to run") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            switch Self.descriptor(of: stream, for: target) {
            case nil: break
            // `FileHandle.nullDevice` has no descriptor of its own.
            case let descriptor? where descriptor < 0: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case let descriptor?: posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let folder = currentDirectoryURL?.path { posix_spawn_file_actions_addchdir_np(&actions, folder) }

        // The child starts with no signal blocked and every one at its default (this process ignores SIGPIPE).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environ = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environ { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw SpawnFailure(description: "cannot run \(path): \(String(cString: strerror(result)))") }
        state.withLock { $0.pid = pid }
        // The child holds its ends of the pipes now: closing this process's copies lets a reader see its end.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        for stream in [standardOutput, standardError] {
            if let pipe = stream as? Pipe { try? pipe.fileHandleForWriting.close() }
        }
    }

    /// The descriptor the child gets as `target` from `stream`.
    private static func descriptor(of stream: Any?, for target: Int32) -> Int32? {
        switch stream {
        case let handle as FileHandle: handle.fileDescriptor
        case let pipe as Pipe: target == STDIN_FILENO ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        default: nil
        }
    }

    public var isRunning: Bool {
        guard status(waiting: false) == nil else { return false }
        return state.withLock { $0.pid } != 0
    }

    /// Waits for the program to end.
    public func waitUntilExit() {
        _ = status(waiting: true)
    }

    /// Waits for the program to end on a thread of its own, leaving this task's free.
    public func exit() async -> Int32 {
        await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread {
                self.waitUntilExit()
                done.resume(returning: self.terminationStatus)
            }
        }
    }

    /// Its exit status, or the signal that ended it.
    public var terminationStatus: Int32 {
        guard let status = status(waiting: false) else { return 0 }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    }

    /// Asks the program to stop (SIGTERM).
    public func terminate() {
        let pid = state.withLock { $0.pid }
        if pid != 0 { kill(pid, SIGTERM) }
    }

    /// The `waitpid` status once the program has ended, reaping it: at once, or when it ends with `waiting`.
    private func status(waiting: Bool) -> Int32? {
        let (pid, known) = state.withLock { ($0.pid, $0.status) }
        if let known { return known }
        guard pid != 0 else { return nil }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, waiting ? 0 : WNOHANG)
            if reaped == pid {
                state.withLock { $0.status = status }
                return status
            }
            if reaped == -1 && errno == EINTR { continue }
            if reaped == -1 && errno == ECHILD {
                // Another thread reaped it and is about to say how it ended (a second at most).
                for _ in 0..<1000 {
                    if let known = state.withLock({ $0.status }) { return known }
                    usleep(1000)
                }
                state.withLock { $0.status = $0.status ?? 0xFF00 }
                return state.withLock { $0.status }
            }
            return nil
        }
    }
}
