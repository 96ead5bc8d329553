/// An optional written as `null` when absent, where synthesized `Encodable` would leave the key out: the answers the API
/// documents with a fixed shape (`"user_id": null`, `"winner": null`). Read back, the key must be there.
@propertyWrapper
public struct ExplicitNull<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension ExplicitNull: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
}

extension ExplicitNull: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws { wrappedValue = try Value?(from: decoder) }
}

extension ExplicitNull: Sendable where Value: Sendable {}
