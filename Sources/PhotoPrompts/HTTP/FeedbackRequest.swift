import Foundation
import Hummingbird
import PromptDomain

/// The body of `POST /v1/sessions/{id}/feedback`: `{"prompt_id": "p_…", "action": "selected" | "dismissed"}`.
public struct FeedbackRequest: Decodable, Sendable {
    public var promptID: String
    public var action: FeedbackAction

    enum CodingKeys: CodingKey { case promptID, action }

    /// Decodes both fields, with an error that lists the accepted actions.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        promptID = try container.decode(String.self, forKey: .promptID)
        let action = try container.decode(String.self, forKey: .action)
        guard let known = FeedbackAction(rawValue: action) else {
            throw APIError.invalidField("action", "must be \"selected\" or \"dismissed\"")
        }
        self.action = known
        guard (1...128).contains(promptID.count) else {
            throw APIError.invalidField("prompt_id", "must be 1 to 128 characters")
        }
    }
}

/// The answer to feedback: what is recorded, and since when. A repeat returns the first record unchanged.
public struct FeedbackResponse: ResponseEncodable, Decodable, Sendable {
    public var sessionID: String
    public var promptID: String
    public var action: FeedbackAction
    /// When it was first recorded, ISO 8601.
    public var recordedAt: String

    public init(sessionID: String, _ feedback: RecordedFeedback) {
        self.sessionID = sessionID
        promptID = feedback.promptID
        action = feedback.action
        recordedAt = feedback.recordedAt.formatted(.iso8601)
    }
}
