import Foundation
import PhotoPrompts
import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import Testing

@Suite("Template settings: checks and derived time fields", .dictionariesOpened)
struct TemplateFeatureTests {
    @Test(
        "Checks reject statements, links, e-mail addresses and blocked words, whole words only",
        arguments: [
            ("What made this afternoon at the lake feel so calm", "not a question"),
            ("Which photo from www.example.com reminds you of this afternoon?", "contains a link or e-mail address"),
            ("Which picture on www.lagos-fotos.xyz reminds you of this afternoon?", "contains a link or e-mail address"),
            ("Would you send this photo to grandma@example.org with a long note?", "contains a link or e-mail address"),
            ("What would you post about this day on photos.example.com today?", "contains a link or e-mail address"),
            ("Which song from https://music.example.io fits this moment best?", "contains a link or e-mail address"),
            ("What would you write to ana@correo.es about this crowded beach?", "contains a link or e-mail address"),
            ("Which café on straße.de did you walk past before this photo?", "contains a link or e-mail address"),
            ("How did your new Diet change the way this picnic felt?", #"uses the blocked word "diet""#),
            ("How did thinking about weight loss shape this summer afternoon?", #"uses the blocked word "weight loss""#),
        ]
    )
    func checksReject(candidate: String, reason: String) {
        let validator = PromptValidator(
            checks: PromptChecks(mustEndWithQuestionMark: true, rejectsLinks: true, blockedWords: ["diet", "weight loss"])
        )
        let validation = validator.validate([candidate])
        #expect(validation.kept.isEmpty)
        #expect(validation.rejected.map(\.reason.description) == [reason])
    }

    @Test("Checks let through what only looks close: dietary, a blocked phrase's words apart, e.g., 3.5 and a question mark")
    func checksAccept() {
        let validator = PromptValidator(
            checks: PromptChecks(mustEndWithQuestionMark: true, rejectsLinks: true, blockedWords: ["diet", "weight loss"])
        )
        let candidates = [
            "Which dietary tradition shaped the food on this table tonight?",
            "What weight did this day carry, and what loss did it ease?",
            "What did the 3.5 hour drive, e.g. the long bends, feel like?",
        ]
        #expect(validator.validate(candidates).kept.map(\.text) == candidates)
    }

    @Test(
        "settings.json refuses unknown keys and checks, naming the file",
        arguments: [
            (#"{"temprature": 0.5}"#, "unknown setting \"temprature\""),
            (#"{"checks": {"must_end_with_question": true}}"#, "unknown check \"must_end_with_question\""),
            (#"{"checks": {"blocked_words": ["!!"]}}"#, "blocked_words has an entry with no letters or digits"),
            (#"{"variants": {"a": 101}}"#, "variants.a must be a weight from 0 to 100"),
            (#"{"variants": {"a": 0}}"#, "at least one template a weight above 0"),
            (#"[1, 2]"#, "must be a JSON object"),
            (#"{"gate": {"fluency_floor": 0}}"#, "gate.fluency_floor must be a log-probability below 0"),
            (#"{"gate": {"fluency_flor": -3}}"#, "unknown gate rule \"fluency_flor\""),
        ]
    )
    func settingsErrors(text: String, message: String) {
        #expect {
            _ = try TemplateSettings.parse(text, file: "t/settings.json")
        } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.file == "t/settings.json" && error.message.contains(message)
        }
    }

    @Test(
        "Derived fields use the photo's local time and the hemisphere",
        arguments: [
            // taken_at, latitude, longitude → time_of_day, weekday, season
            ("2026-07-04T23:30:00+02:00", 48.8, 2.3, "night", "Saturday", "summer"),
            ("2026-07-04T23:30:00Z", -33.9, 151.2, "morning", "Sunday", "winter"),  // Sydney: UTC+10 by longitude
            ("2026-01-10T15:00:00Z", nil, nil, "afternoon", "Saturday", nil),  // no place: UTC, no season
            ("2026-04-01T06:15:00-05:00", 40.7, -74.0, "morning", "Wednesday", "spring"),
            ("2026-10-20T18:00:00Z", -34.6, -58.4, "afternoon", "Tuesday", "spring"),  // Buenos Aires: UTC-4 by longitude
        ] as [(String, Double?, Double?, String, String, String?)]
    )
    func derivedFields(takenAt: String, latitude: Double?, longitude: Double?, timeOfDay: String, weekday: String, season: String?) throws {
        let now = try Date("2026-11-22T12:00:00Z", strategy: .iso8601)
        let moment = try #require(PhotoMoment(takenAt: takenAt, latitude: latitude, longitude: longitude, now: now))
        #expect(moment.timeOfDay == timeOfDay)
        #expect(moment.weekday == weekday)
        #expect(moment.season == season)
    }

    @Test("is_recent and years_ago follow today's date, and the template sees them")
    func photoAge() throws {
        let now = try Date("2026-11-22T12:00:00Z", strategy: .iso8601)
        #expect(PhotoMoment(takenAt: "2026-11-20T10:00:00Z", latitude: nil, longitude: nil, now: now)?.isRecent == true)
        #expect(PhotoMoment(takenAt: "2026-11-01T10:00:00Z", latitude: nil, longitude: nil, now: now)?.isRecent == false)
        #expect(PhotoMoment(takenAt: "2023-11-23T10:00:00Z", latitude: nil, longitude: nil, now: now)?.yearsAgo == 2)
        #expect(PhotoMoment(takenAt: "2023-11-21T10:00:00Z", latitude: nil, longitude: nil, now: now)?.yearsAgo == 3)

        let template = try PromptTemplate(
            name: "t",
            systemText: "s",
            userText:
                "{{#years_ago_text}}from {{years_ago_text}}{{/years_ago_text}}{{#is_recent}}recent{{/is_recent}} {{season}} {{location.name}}"
        )
        let photo = PhotoMetadata(takenAt: "2023-11-21T10:00:00Z", location: .init(name: "Lisbon", latitude: 38.7, longitude: -9.1))
        let rendered = template.render(TemplateContext(photo: photo, locale: LanguageTag(locale: "en-US"), candidateCount: 6, now: now))
        #expect(rendered.user == "from 3 years ago autumn Lisbon")
    }

}
