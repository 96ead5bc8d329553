import PostgresNIO

extension PostgresRowSequence {
    /// Every row, decoded as `columns`, in order.
    func decodeAll<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) async throws -> [(repeat each Column)] {
        try await decode(columns).reduce(into: []) { $0.append($1) }
    }

    /// The first row decoded as `columns`, or nil when the query returned none; the rest are not read.
    func decodeFirst<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) async throws -> (repeat each Column)? {
        try await decode(columns).first { _ in true }
    }
}
