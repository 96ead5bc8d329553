import Foundation
import PromptDomain

/// How both stores turn column values back into the service's types.
package enum StoredValue {
    /// The enum case stored as `raw`; a value this version does not know is a storage error, not a crash.
    package static func decode<Value: RawRepresentable<String>>(_ type: Value.Type, _ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else { throw StoreError.unknownValue("\(Value.self)", raw) }
        return value
    }

    /// A `feedback` row of `caller`'s export, selected as `sessionId, promptId, action, createdAt`.
    static func feedback(_ row: (String, String, String, Double), caller: Caller) throws -> Feedback {
        Feedback(
            sessionID: row.0,
            promptID: row.1,
            action: try decode(FeedbackAction.self, row.2),
            at: Date(timeIntervalSince1970: row.3),
            caller: caller
        )
    }

    /// A `templateVersion` row of the experiment `name`, selected as `variant, version, files, firstSeen`.
    static func templateVersion(_ row: (String, String, String, Double), of name: String) throws -> TemplateVersionFiles {
        TemplateVersionFiles(
            template: TemplateIdentity(name: name, variant: row.0, version: row.1),
            files: try JSONColumn.decode([String: String].self, row.2),
            firstSeen: Date(timeIntervalSince1970: row.3)
        )
    }
}
