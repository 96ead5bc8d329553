/// The JSON schema structured output asks for: `{"prompts": ["…", …]}`, strict, with the item count and a length
/// bound per item from an ``OutputConstraint``. No string `pattern`: llama.cpp's server answers 500 to one.
package struct PromptListSchema: Encodable, Sendable, Equatable {
    package struct Properties: Encodable, Sendable, Equatable {
        package struct Prompts: Encodable, Sendable, Equatable {
            package struct Items: Encodable, Sendable, Equatable {
                package var type = "string"
                package var minLength: Int?
                package var maxLength: Int?
            }
            package var type = "array"
            package var items = Items()
            package var minItems: Int?
            package var maxItems: Int?
        }
        package var prompts = Prompts()
    }
    package var type = "object"
    package var properties = Properties()
    package var required = ["prompts"]
    package var additionalProperties = false

    /// The schema without bounds.
    package init() {}

    /// The schema for `constraint`: exactly its item count, each within its length in characters.
    package init(_ constraint: OutputConstraint?) {
        guard let constraint else { return }
        properties.prompts.minItems = constraint.items
        properties.prompts.maxItems = constraint.items
        properties.prompts.items.minLength = constraint.itemLengthRange.lowerBound
        properties.prompts.items.maxLength = constraint.itemLengthRange.upperBound
    }
}
