import PromptDomain
import PromptTemplates

/// The cache key: a hash of everything that shapes the model's answer. Missing a parameter would serve one photo's
/// prompts for another, so every input the template or the backends see is in it, the backends in chain order.
package struct CacheKey: Encodable {
    /// Bumped when the key's shape changes, so old entries are never misread.
    package let schema = 3
    package let photo: PhotoMetadata
    package let locale: String
    package let template: TemplateIdentity
    package let backends: [BackendIdentity]
    package let parameters: ModelParameters
    package let candidateCount: Int
    /// What the gate accepts and the lists of `prompts/` that shape the answer (``RequestPlan/listsIdentity``): an
    /// entry judged by another gate, or written for other examples, is never served.
    package var lists: String
    package let round: Int
    /// `is_recent` and `years_ago` change with today's date, not with the photo: a week-old answer saying "today"
    /// must not be served once the photo is no longer recent.
    package let age: Age?

    package struct Age: Encodable {
        package let isRecent: Bool
        package let yearsAgo: Int

        package init(isRecent: Bool, yearsAgo: Int) {
            self.isRecent = isRecent
            self.yearsAgo = yearsAgo
        }
    }

    /// The hex SHA-256 of the key's canonical JSON: the bytes `JSONEncoder` writes with sorted keys, written by
    /// hand (``canonicalJSON``) because this runs on every request.
    package var hashed: String { ContentHash.sha256Hex(canonicalJSON) }

    package init(
        photo: PhotoMetadata,
        locale: String,
        template: TemplateIdentity,
        backends: [BackendIdentity],
        parameters: ModelParameters,
        candidateCount: Int,
        lists: String,
        round: Int,
        age: Age? = nil
    ) {
        self.photo = photo
        self.locale = locale
        self.template = template
        self.backends = backends
        self.parameters = parameters
        self.candidateCount = candidateCount
        self.lists = lists
        self.round = round
        self.age = age
    }
}
