import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptGeneration
import Testing

@testable import PhotoPrompts

/// Variety as eval reports it: how often a model writes two near-duplicates for one answer, and how many of its
/// prompts nearly repeat one it wrote for an earlier photo.
@Suite("eval measures variety per language")
struct EvalVarietyTests {
    @Test("Answers with a near-duplicate pair are counted per language; near repeats across photos are counted once each")
    func varietyMeasures() throws {
        let path = scratchPath("variety").appendingPathComponent("fixtures.jsonl").path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(
            """
            {"name": "harbor", "locale": "en", "photo": {"labels": ["harbor"]}}
            {"name": "market", "locale": "en", "photo": {"labels": ["market"]}}
            {"name": "playa", "locale": "es", "photo": {"labels": ["playa"]}}
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let fixtures = try EvalFixture.load(from: path)
        func generation(_ texts: [String], nearDuplicates: Int) -> Generation {
            var generation = Generation.prompts(texts.map { ValidPrompt(text: $0, wordCount: 9) }, from: .model)
            generation.nearDuplicates = nearDuplicates
            return generation
        }
        let report = EvalReport(
            template: TemplateIdentity(name: "t", version: "v"),
            outcomes: [
                (
                    fixtures[0],
                    generation(["What do you do today in Boston, United States?", "Who walked the harbor with you?"], nearDuplicates: 1), .zero
                ),
                (
                    fixtures[1],
                    generation(["What did you do on Tuesday at Boston, United States?", "What did the market smell like?"], nearDuplicates: 0), .zero
                ),
                (fixtures[2], generation(["¿Qué recuerdas de aquella tarde en la playa?"], nearDuplicates: 0), .zero),
            ]
        )
        #expect(report.nearDuplicateAnswersByLanguage == ["en": 0.5, "es": 0])
        #expect(report.nearRepeatsAcrossPhotos == 1)
        #expect(EvalTable.render([report]).contains("near-repeats across photos"))
    }
}
