import GRDB
import PostgresNIO

/// A database failure as the client and the operator should see it: the store could not read or write now, so
/// the answer is `503 store_unavailable` with `Retry-After`; the log says why, never with a query's values (user text).
package struct StoreFault: Error, CustomStringConvertible {
    /// Why, in words, e.g. "the database file is locked by another process".
    package var reason: String

    package var description: String { reason }

    /// The fault `error` stands for, or `nil` when it is not a database's error.
    package init?(_ error: any Error) {
        if let fault = error as? StoreFault {
            self = fault
        } else if let error = error as? DatabaseError {
            reason = Self.reason(sqlite: error)
        } else if let error = error as? PSQLError {
            let message = error.serverInfo?[.message].map { ": \($0)" } ?? ""
            reason = "PostgreSQL \(error.code)\(message)"
        } else if let error = error as? StoreError {
            reason = error.description
        } else {
            return nil
        }
    }

    private static func reason(sqlite error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: "the SQLite file is locked by another process"
        case .SQLITE_FULL: "the disk holding the SQLite file is full"
        case .SQLITE_IOERR: "an I/O error on the SQLite file"
        case .SQLITE_READONLY: "the SQLite file or its folder is read-only"
        case .SQLITE_CANTOPEN: "the SQLite file cannot be created or opened; check that its folder is writable"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: "the SQLite file is damaged or not a database"
        case .SQLITE_INTERRUPT: "a write was interrupted at the request's deadline"
        default: "SQLite error \(error.resultCode.rawValue) (\(error.resultCode))"
        }
    }
}
