import ArgumentParser
import Foundation
import PhotoPrompts
import PromptDomain
import PromptTemplates

/// The `--template` and `--photo` options of the operator tools, and loading both with one error wording.
struct PhotoOptions: ParsableArguments {
    @Option(help: "The template folder in PROMPTS_DIRECTORY (default: PROMPTS_TEMPLATE).")
    var template: String?

    @Option(help: "A JSON file: a request body with \"photo\", or a bare photo object.")
    var photo: String

    /// The template, the photo's request and the product's copy, as a one-off plan needs them.
    /// - Throws: `ValidationError` for an unreadable file; ``StartupFailure`` naming the template or copy file, or the
    ///   photo field, at fault.
    func load(with configuration: AppConfiguration) throws -> (template: PromptTemplate, request: ValidatedPromptRequest, copy: CopyCatalog) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: photo))
        } catch {
            throw ValidationError("cannot read \(photo): \(error.localizedDescription)")
        }
        do {
            let template = try PromptTemplate.load(
                name: template ?? configuration.templateName,
                from: configuration.promptsDirectory,
                dictionaries: SpellingDictionaries.debian()
            )
            return (template, try PromptPreview.request(fromJSON: data), try CopyCatalog.load(from: configuration.promptsDirectory))
        } catch let error as TemplateError {
            throw StartupFailure("\(error)")
        } catch let error as APIError {
            throw StartupFailure("\(photo): \(error.message)")
        }
    }

    /// The plan of a one-off request for the photo: the template, with the product's copy in the photo's language.
    func plan(with configuration: AppConfiguration) throws -> RequestPlan {
        let (template, request, copy) = try load(with: configuration)
        return RequestPlan.oneOff(template, copy: copy, photo: request.photo, language: request.locale)
    }
}
