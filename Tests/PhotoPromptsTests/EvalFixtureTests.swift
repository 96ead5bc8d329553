import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

/// The shipped fixtures, read as eval reads them.
@Suite("The eval fixture set: enough photos, every named case, every shipped language")
struct EvalFixtureTests {
    static let fixturesPath = repositoryPromptsDirectory + "/fixtures/photos.jsonl"
    @Test("The shipped fixture set has at least 40 photos, including every case the issue names, and all are valid requests")
    func fixtureSet() throws {
        let fixtures = try EvalFixture.load(from: Self.fixturesPath)
        #expect(fixtures.count >= 40)
        let names = fixtures.map(\.name).joined(separator: "|")
        for kind in [
            "beach", "birthday", "hospital", "funeral", "pet", "food", "screenshot", "night sky", "no metadata at all", "thirty people",
            "non-English place", "very long caption", "caption with instructions",
        ] {
            #expect(names.contains(kind), "\(kind)")
        }
        #expect(fixtures.contains { $0.request.photo == PhotoMetadata() })
        #expect(fixtures.contains { $0.request.photo.peopleCount == 30 })
        #expect(fixtures.contains { ($0.request.photo.caption?.count ?? 0) > 400 })
    }

    @Test("The fixture set has at least two photos in each shipped language")
    func fixturesPerLanguage() throws {
        let fixtures = try EvalFixture.load(from: Self.fixturesPath)
        let catalog = try CopyCatalog.load(from: repositoryPromptsDirectory)
        for language in LanguageFixtures.shipped {
            let count = fixtures.filter { catalog.copy(for: $0.request.locale).locale.description == language }.count
            #expect(count >= 2, "\(language): \(count)")
        }
    }
}
