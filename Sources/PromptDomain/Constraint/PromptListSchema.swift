/// The JSON schema structured output asks for: `{"prompts": ["…", …]}`, strict, with the item count and a length
/// bound per item from an ``OutputConstraint``. No string `pattern`: llama.cpp's server answers 500 to one.
struct PromptListSchema: Encodable, Sendable, Equatable {
    struct Properties: Encodable, Sendable, Equatable {
        struct Prompts: Encodable, Sendable, Equatable {
            struct Items: Encodable, Sendable, Equatable {
                var type = "string"
                var minLength: Int?
                var maxLength: Int?
            }
            var type = "array"
            var items = Items()
            var minItems: Int?
            var maxItems: Int?
        }
        var prompts = Prompts()
    }
    var type = "object"
    var properties = Properties()
    var required = ["prompts"]
    var additionalProperties = false

    /// The schema without bounds.
    init() {}

    /// The schema for `constraint`: exactly its item count, each within its length in characters.
    init(_ constraint: OutputConstraint?) {
        guard let constraint else { return }
        properties.prompts.minItems = constraint.items
        properties.prompts.maxItems = constraint.items
        properties.prompts.items.minLength = constraint.itemLengthRange.lowerBound
        properties.prompts.items.maxLength = constraint.itemLengthRange.upperBound
    }
}
