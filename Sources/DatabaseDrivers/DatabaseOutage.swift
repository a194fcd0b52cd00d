import NIOCore
import NIOPosix
import PostgresKit
import VaporCSQLite

/// A query that failed for a reason outside the request: the database cannot be reached, or its disk refuses
/// to write. The request may succeed when tried again later, so the HTTP layer answers 503, not 500.
public enum DatabaseOutage: Equatable, Sendable {
    /// PostgreSQL is down, restarting or refusing connections, or no pooled connection came in time.
    case unreachable
    /// The disk holding the database is full.
    case full
    /// The database file or its disk has become read-only.
    case readOnly
    /// The disk failed a read or write.
    case diskError
    /// Another process held the database locked beyond the busy timeout.
    case busy

    /// The outage behind `error`, or nil when the error is about the query itself (a bug, a constraint).
    public init?(_ error: any Error) {
        switch error {
        case let error as PSQLError:
            guard let outage = Self.postgres(error) else { return nil }
            self = outage
        case let error as SQLiteFailure:
            guard let outage = Self.sqlite(primaryCode: error.primaryCode) else { return nil }
            self = outage
        case is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError, is ChannelError:
            self = .unreachable
        case let error as IOError where [ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH].contains(error.errnoCode):
            self = .unreachable
        default:
            return nil
        }
    }

    private static func postgres(_ error: PSQLError) -> DatabaseOutage? {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return .unreachable
        case .server:
            switch error.serverInfo?[.sqlState].map(PostgresError.Code.init(raw:)) {
            case .adminShutdown?, .crashShutdown?, .cannotConnectNow?, .tooManyConnections?: return .unreachable
            case .diskFull?: return .full
            case .ioError?: return .diskError
            default: return nil
            }
        default:
            return nil
        }
    }

    /// SQLite's errors (`InlineSQLiteConnection`'s, the writer's and the readers') by their result code.
    private static func sqlite(primaryCode: Int32) -> DatabaseOutage? {
        switch primaryCode {
        case SQLITE_FULL: .full
        case SQLITE_READONLY: .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_IOERR, SQLITE_CANTOPEN: .diskError
        default: nil
        }
    }
}
