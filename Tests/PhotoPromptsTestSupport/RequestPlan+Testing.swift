import PromptDomain
import PromptTemplates

extension RequestPlan {
    /// The plan of a one-off request for `template`, with the copy of the repository's `prompts/`: for tests that
    /// run the generator without a session.
    public static func testing(_ template: PromptTemplate, photo: PhotoMetadata, language: LanguageTag) throws -> RequestPlan {
        .oneOff(template, copy: try CopyCatalog.load(from: repositoryPromptsDirectory), photo: photo, language: language)
    }
}
