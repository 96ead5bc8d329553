import Foundation
import PostgresNIO

/// A `DATABASE_URL` (`postgres://user:password@host:port/database?sslmode=disable`), the URL `psql` and other tools
/// use, read into postgres-nio's fields. The password goes only into the client: logs show ``redacted``.
public struct PostgresURL: Sendable, Equatable {
    public var host: String
    /// The server's port; 5432 unless the URL names one.
    public var port: Int
    public var username: String
    public var password: String?
    /// The database; the server's default (the role's name) when absent.
    public var database: String?
    /// `disable`, `prefer` (the default, as in libpq) or `require`.
    public var sslMode: SSLMode

    /// How the connection uses TLS, as libpq's `sslmode` names it.
    public enum SSLMode: String, Sendable, Equatable { case disable, prefer, require }

    /// Reads `text`; `nil` when it is not a `postgres://` or `postgresql://` URL with a host and a user.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty,
            let username = components.user, !username.isEmpty
        else { return nil }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password
        let path = components.path.drop(while: { $0 == "/" })
        self.database = path.isEmpty ? nil : String(path)
        let sslValue = components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        guard let sslMode = SSLMode(rawValue: sslValue) else { return nil }
        self.sslMode = sslMode
    }

    /// The URL with the password masked, for logs and the start-up line.
    public var redacted: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database ?? "")?sslmode=\(sslMode.rawValue)"
    }

    package var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(.makeClientConfiguration())
        case .require: tls = .require(.makeClientConfiguration())
        }
        return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
    }
}
