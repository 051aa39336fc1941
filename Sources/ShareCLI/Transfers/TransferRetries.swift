import Foundation
import ShareClient

/// A transfer tried again from where it stands, while what broke it may pass: `share add`'s uploads and `share get`'s
/// downloads.
enum TransferRetries {
    /// Tries before the command gives up (an upload's journal, a download's part file, keep what got through).
    static let attempts = 5

    /// Runs `transfer` (given its try's number) until it succeeds. A failure that `retrying` words, given the try's
    /// number (what the progress line then says), is tried again after a wait that doubles from a second; any other,
    /// or the last, ends the command.
    static func run<T>(
        progress: ProgressLine?, retrying: (ClientError, _ number: Int) -> String? = interrupted, _ transfer: (_ number: Int) throws -> T
    ) throws -> T {
        var number = 1
        while true {
            do {
                return try transfer(number)
            } catch let error as ClientError {
                guard let words = retrying(error, number), number < attempts else { throw CommandFailure(error) }
                progress?.say(words)
                sleep(UInt32(min(8, 1 << (number - 1))))
                number += 1
            }
        }
    }

    /// The words for a failure that may pass by itself, the try's `number` among them.
    static func interrupted(_ error: ClientError, _ number: Int) -> String? {
        error.isTransient ? "interrupted; resuming (\(number) of \(attempts - 1))" : nil
    }
}
