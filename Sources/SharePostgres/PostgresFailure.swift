import PostgresNIO
import ShareHistory
import ShareKit

/// What the database server's errors mean to a request: a server out of reach is `ShareError.storeUnreachable`
/// (503, and the pool reconnects by itself when it is back), a full disk `storageUnavailable` (507), as SQLite's.
enum PostgresFailure: Error, CustomStringConvertible {
    /// The one row of `share_history` is missing: the database was not made by these migrations.
    case missingHistoryRow
    /// A user's number was given and could not be read back in the same transaction.
    case missingUserRow(String)
    /// Totals came back that are not what was asked: arrays of different lengths, a read that was not asked for.
    case unexpectedTotals
    /// A user was to be given a number outside a change (`PostgresOwnerNumbers.whileChanging`), where a number given
    /// by a transaction that then rolls back would be remembered as if it named the user.
    case numberingOutsideAChange(String)

    var description: String {
        switch self {
        case .missingHistoryRow: return "the database has no share_history row; was it made by shared?"
        case .missingUserRow(let user): return "the number given to user '\(user)' could not be read back"
        case .unexpectedTotals: return "the database answered totals that do not match the statement's"
        case .numberingOutsideAChange(let user): return "user '\(user)' was to be numbered outside a change"
        }
    }

    /// Runs `body`, turning the errors of a server that does not answer or cannot store into the domain's, and
    /// giving a failed transaction's own error (its closure's first, else its BEGIN's or COMMIT's).
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresTransactionError {
            throw domainError(error.closureError ?? error.beginError ?? error.commitError ?? error)
        } catch {
            throw domainError(error)
        }
    }

    private static func domainError(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        return translated(error) ?? error
    }

    /// Whether the server aborted a transaction for a conflict with another (a deadlock, a serialization failure),
    /// which the same transaction run again may pass.
    static func isConflict(_ error: PSQLError) -> Bool {
        error.code == .server && ["40P01", "40001"].contains(error.serverInfo?[.sqlState] ?? "")
    }

    /// The domain error `error` stands for, if any.
    static func translated(_ error: PSQLError) -> ShareError? {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return .storeUnreachable("the connection to PostgreSQL failed")
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            switch state {
            case "53100": return .storageUnavailable("the database server's disk is full")
            case "25006": return .storageUnavailable("the database is read-only")
            // In words of our own: the server's message is for its operator's log, not for clients.
            case _ where state.hasPrefix("57P"): return .storeUnreachable("PostgreSQL is shutting down or starting")
            case _ where state.hasPrefix("08"): return .storeUnreachable("the connection to PostgreSQL failed")
            case "53300": return .storeUnreachable("PostgreSQL has no free connection")
            default: return nil
            }
        default:
            return nil
        }
    }
}
