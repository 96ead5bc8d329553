/// Store failures that are not the database's own.
package enum StoreError: Error, CustomStringConvertible {
    /// The session was deleted (pruned) between reserving and committing a refresh.
    case sessionVanished
    /// A column held a value this version does not know, e.g. written by a newer version.
    case unknownValue(String, String)
    /// The database (named with its password masked) did not answer at start-up within the time given.
    case unreachable(String, Duration)
    /// The SQLite file's folder could not be created, with the system's reason.
    case folderUnusable(String, String)
    /// The SQLite file was removed or replaced under the running service: what it would write now is lost.
    case fileReplaced(String)

    package var description: String {
        switch self {
        case .sessionVanished: "the session was deleted while a refresh was in flight"
        case .unknownValue(let type, let raw): "unknown \(type) '\(raw)' in the database"
        case .unreachable(let database, let timeout): "the database \(database) did not answer within \(timeout)"
        case .folderUnusable(let folder, let reason): "cannot create the folder \(folder): \(reason)"
        case .fileReplaced(let path): "the SQLite file \(path) was removed or replaced while the service ran; restart it"
        }
    }
}
