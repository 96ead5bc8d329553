import Foundation
import PromptDomain
import Synchronization

/// Everything one prompt request needs from the templates, handed over in one call (``TemplateSet/plan(forVariant:photo:language:now:)``)
/// from one look at the live set: the version that renders it, the messages, what the reply is held to, how replies
/// are judged, and the copy and fallbacks in the user's language.
///
/// Generation and sessions work from the plan alone, never a template. What only some requests need (the gate for
/// this photo, the rendered messages, the fallbacks) is worked out when asked for, so a cache hit pays for none of it.
public struct RequestPlan: Sendable {
    /// The version that renders the request, named as the experiment (the configured template) it is a variant of.
    public let template: TemplateIdentity
    public let photo: PhotoMetadata
    /// The language the prompts are written in, parsed once when the request was validated.
    public let language: LanguageTag
    /// The product's copy the user reads: messages and fallbacks, in their language or the nearest shipped.
    public let copy: ProductCopy
    public let parameters: ModelParameters
    public let candidateCount: Int
    /// The gate's version and the lists' fingerprints: part of every cache key.
    public let listsIdentity: String
    /// When the request was made: `is_recent`, `years_ago` and the photo's age for the cache key.
    public let now: Date
    /// The template's `checks`, which a re-ask repeats to the model.
    public var checks: PromptChecks { source.settings.checks }
    /// The photo's age as templates see it (nil without `taken_at`): in the cache key, as it changes with the date.
    public var age: (isRecent: Bool, yearsAgo: Int)? {
        PhotoMoment(takenAt: photo.takenAt, latitude: nil, longitude: nil, now: now).map { ($0.isRecent, $0.yearsAgo) }
    }
    private let source: PromptTemplate
    private let judge: MadeOnce<PromptValidator>
    private let fallbackLines: MadeOnce<FallbackPrompts>
    private let ownWords: MadeOnce<PromptSignature>

    public init(template: PromptTemplate, experiment: String, photo: PhotoMetadata, language: LanguageTag, copy: ProductCopy, now: Date) {
        self.template = template.identity.assigned(to: experiment)
        self.photo = photo
        self.language = language
        self.copy = copy
        self.parameters = template.settings.parameters
        self.candidateCount = template.settings.candidateCount
        self.listsIdentity = template.listsIdentity
        self.now = now
        self.source = template
        let judge = MadeOnce { template.validator(for: language, photo: photo, now: now) }
        let context = TemplateContext(photo: photo, locale: language, candidateCount: template.settings.candidateCount, now: now)
        self.judge = judge
        self.fallbackLines = MadeOnce { Self.fallbacks(of: template, copy: copy, for: context, judgedBy: judge.value) }
        self.ownWords = MadeOnce { PromptSignature(photo: photo, language: language) }
    }

    /// The signature of the photo's own words, which a card's frame leaves out: made once, as a first answer frames
    /// what the user has seen twice (before and after its history is read).
    public var photoSignature: PromptSignature { ownWords.value }

    /// How a reply is judged: the word rule with the template's ranges, its checks, and the gate for this photo. Made
    /// on first read and shared by every copy of the plan, however many steps judge; a cache hit never builds it.
    public var validator: PromptValidator { judge.value }

    /// The angles the model is asked for, which each card is known by, in the user's language.
    public var angles: Angles { source.angles.angles(for: language) }

    /// What the reply is held to (`candidate_count` questions, some naming the photo), as a grammar or a schema.
    public var constraint: OutputConstraint { source.constraint(for: language, photo: photo) }

    /// The messages for round `round` (0 for the first answer), telling the model which questions to avoid.
    public func messages(round: Int, avoiding avoid: [String]) -> RenderedPrompt {
        source.render(TemplateContext(photo: photo, locale: language, candidateCount: candidateCount, round: round, avoid: avoid, now: now))
    }

    /// The template's own fallbacks that pass the word rule for this photo, in order of use: what the admin render
    /// shows, and what ``fallbacks()`` puts first for an English copy.
    public var templateFallbacks: [String] {
        Self.ownFallbacks(of: source, for: TemplateContext(photo: photo, locale: language, candidateCount: candidateCount, now: now))
    }

    /// The lines a round draws on when the model leaves gaps, best first: the template's own fallbacks that pass the
    /// word rule for this photo, only for an English copy (they are English, like `copy/en.json`); the copy's lines
    /// with a slot for the photo's place that render and pass the gate in its language; the rest of the copy. Made on
    /// the first call and kept, like the validator: a round that needs no fallback never renders them.
    public func fallbacks() -> FallbackPrompts { fallbackLines.value }

    private static func fallbacks(
        of source: PromptTemplate,
        copy: ProductCopy,
        for context: TemplateContext,
        judgedBy validator: @autoclosure () -> PromptValidator
    ) -> FallbackPrompts {
        var fallbacks = copy.fallbacks
        if context.photo.location != nil {
            let validator = copy.locale == context.locale ? validator() : source.validator(for: copy.locale, photo: context.photo, now: context.now)
            fallbacks = fallbacks.preceded(by: copy.photoFallbacks.usable(for: context, validator: validator))
        }
        if copy.locale.language == LanguageTag.english.language {
            fallbacks = fallbacks.preceded(by: ownFallbacks(of: source, for: context))
        }
        return fallbacks
    }

    private static func ownFallbacks(of source: PromptTemplate, for context: TemplateContext) -> [String] {
        source.fallbacks.usable(for: context, validator: source.validator(for: .english))
    }
}

extension RequestPlan {
    /// Made when first asked for and kept; a reference, so every copy of the plan (a value) reads the one made.
    private final class MadeOnce<Value: Sendable>: Sendable {
        private let made: Mutex<Value?> = Mutex(nil)
        private let make: @Sendable () -> Value

        init(_ make: @escaping @Sendable () -> Value) {
            self.make = make
        }

        var value: Value {
            made.withLock { made in
                if let made { return made }
                let value = make()
                made = value
                return value
            }
        }
    }
}

extension RequestPlan {
    /// The plan of a request outside any session and any experiment, as `photo-prompts generate`, `render` and `eval`
    /// and the admin render run it; made now by the system's clock unless `now` is given (a one-off has no injected one).
    public static func oneOff(
        _ template: PromptTemplate,
        copy: CopyCatalog,
        photo: PhotoMetadata,
        language: LanguageTag,
        now: Date = Date()
    ) -> RequestPlan {
        RequestPlan(
            template: template,
            experiment: template.identity.name,
            photo: photo,
            language: language,
            copy: copy.copy(for: language),
            now: now
        )
    }
}

extension TemplateSet {
    /// The plan of one request: for a new session (`variant` nil) a weighted draw over the variants, for a refresh
    /// the variant its session was assigned, at that variant's live version.
    public func plan(forVariant variant: String?, photo: PhotoMetadata, language: LanguageTag, now: Date) -> RequestPlan {
        let template = variant.map(template(forVariant:)) ?? assignVariant()
        return RequestPlan(template: template, experiment: name, photo: photo, language: language, copy: copy.copy(for: language), now: now)
    }
}
