import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// A card may name a number, a weekday, a month or a name only where the photo's metadata holds it. Each table says
/// by hand what the photo supports and what it does not.
@Suite("Details the photo does not hold are rejected as unsupported_detail", .dictionariesOpened)
struct PhotoDetailsTests {
    /// A marathon in Boston on Monday, 20 April 2026, with twelve people; asked on 28 November 2026.
    static let marathon = PhotoMetadata(
        takenAt: "2026-04-20T12:45:00-04:00",
        location: .init(name: "Boylston Street", locality: "Boston", country: "United States", latitude: 42.35, longitude: -71.08),
        labels: ["medal", "runners"],
        peopleCount: 12
    )
    /// A market in Marrakesh, taken five years and some months before it is asked about.
    static let souk = PhotoMetadata(
        takenAt: "2021-03-14T17:10:00+01:00",
        location: .init(name: "Jemaa el-Fnaa", locality: "Marrakesh", country: "Morocco"),
        labels: ["market", "spices"]
    )
    /// A carnival parade in Rio de Janeiro in February, whose name holds another month's ("janeiro").
    static let rio = PhotoMetadata(
        takenAt: "2026-02-14T16:00:00-03:00",
        location: .init(locality: "Rio de Janeiro", country: "Brasil", latitude: -22.91, longitude: -43.17),
        labels: ["parade", "costume"],
        peopleCount: 12
    )
    /// The Summer Palace in Beijing, in the northern winter.
    static let palace = PhotoMetadata(
        takenAt: "2025-12-30T10:00:00+08:00",
        location: .init(name: "Summer Palace", locality: "Beijing", country: "China", latitude: 39.99, longitude: 116.27),
        labels: ["lake", "snow"]
    )
    /// A café in Lisbon and one in Paris, their places in English and in French, as a phone's settings give them.
    static let lisbon = PhotoMetadata(location: .init(name: "Lisbon", country: "Portugal"), labels: ["coffee", "book"])
    static let paris = PhotoMetadata(location: .init(locality: "Paris", country: "France"), labels: ["café", "croissant"])
    /// A church in Reykjavík, its country as an Icelandic phone writes it.
    static let reykjavik = PhotoMetadata(
        location: .init(name: "Hallgrímskirkja", locality: "Reykjavík", country: "Ísland"),
        labels: ["church", "snow"]
    )
    static let now = ISO8601DateFormatter().date(from: "2026-11-28T09:00:00Z")!

    /// The card, the photo, the locale, and the detail it names that the photo does not hold (nil: it holds them all).
    static let cases: [(text: String, photo: PhotoMetadata, locale: String, unsupported: String?)] = [
        ("What do you do today tomorrow, Boston, United Kingdom?", marathon, "en", "Kingdom"),
        ("What did you think of Mara, Morocco, and how would you like to live again?", souk, "en", "Mara"),
        ("What did the medal mean to you after you ran through Cambridge that day?", marathon, "en", "Cambridge"),
        ("How did it feel to cross the line with 30 runners around you?", marathon, "en", "30"),
        ("What were you thinking on that Tuesday morning before the start?", marathon, "en", "Tuesday"),
        ("What did Boylston Street sound like when the 12 runners passed you?", marathon, "en", nil),
        ("What did you feel on that Monday in April when you finished the race?", marathon, "en", nil),
        ("May I ask what the medal meant to you at the end of that race?", marathon, "en", nil),
        ("What did you feel when the Medal was placed around your neck?", marathon, "en", nil),
        ("What Did You Feel When You Crossed The Finish Line That Day?", marathon, "en", nil),
        ("What do you remember of the spices in Marrakesh from 5 years ago?", souk, "en", nil),
        // An abbreviation in capitals is a name: the dictionaries write "TV" as they write "USA", which no place says.
        ("What were you watching on TV the evening after the race?", marathon, "en", "TV"),
        ("What did running in the USA that morning mean to you?", marathon, "en", "USA"),
        ("What do you remember of the spices in Marrakesh from 9 years ago?", souk, "en", "9"),
        ("¿Qué te dijo Ximena cuando llegasteis al mercado aquella tarde?", souk, "es", "Ximena"),
        ("¿Qué recuerdas del martes en que paseaste por el mercado de Marrakesh?", souk, "es", "martes"),
        ("¿Qué sentiste aquel domingo de marzo entre las especias del mercado?", souk, "es", nil),
        ("Was hast du am Samstag im Ziel der Boylston Street gefühlt?", marathon, "de", "Samstag"),
        ("Was hast du am Montag im Ziel der Boylston Street gefühlt?", marathon, "de", nil),
        ("2019年、この市場でどんなスパイスの香りを覚えていますか？", souk, "ja", "2019"),
        ("2021年、この市場でどんなスパイスの香りを覚えていますか？", souk, "ja", nil),
        ("2019年的那个傍晚，你在市场里闻到了什么香料的味道？", souk, "zh-Hans", "2019"),
        // Seasons: the marathon ran in the northern spring; the souk has no latitude, so no season is known.
        ("What did the runners around you say on that warm summer afternoon?", marathon, "en", "summer"),
        ("What did the spring air feel like as you crossed the line that day?", marathon, "en", nil),
        ("¿Qué olor de las especias te recuerda aquel invierno en el mercado?", souk, "es", "invierno"),
        ("그 여름에 시장에서 맡은 향신료 냄새는 어떤 기억을 남겼나요?", souk, "ko", "여름에"),
        ("ما الذي تتذكره من رائحة التوابل في ذلك الصيف في السوق؟", souk, "ar", "الصيف"),
        // A place as the card's language names it: the country as CLDR writes it, a city as the language spells it.
        ("¿Qué te llevó a Lisboa el día en que tomaste esta foto?", lisbon, "es", nil),
        ("¿Qué sentiste al terminar la carrera en Boston, Estados Unidos, aquel lunes por la mañana?", marathon, "es", nil),
        ("¿Qué sentiste al terminar la carrera en Boston, Reino Unido, aquel lunes por la mañana?", marathon, "es", "Reino"),
        ("¿Qué recuerdas de París aquella mañana de café y croissant?", paris, "es", nil),
        ("What do you remember of Parma that morning with the croissant?", paris, "en", "Parma"),
        ("O que você sentiu ao chegar a Lisboa com o seu livro?", lisbon, "pt", nil),
        ("What did you love about Bolton on that Monday in April?", marathon, "en", "Bolton"),
        ("What is your favorite place to visit in Iceland, and why?", reykjavik, "en", nil),
        ("What did the snow in Norway feel like on that cold morning?", reykjavik, "en", "Norway"),
        // A month or season in the photo's own words is the photo's, written as the photo writes it.
        ("Em que Rio de Janeiro foi diferente do que você imaginava?", rio, "pt", nil),
        ("O que você lembra daquele março no desfile do Rio de Janeiro?", rio, "pt", "março"),
        ("What did the frozen lake at the Summer Palace feel like that morning?", palace, "en", nil),
        ("What do you remember of that warm summer day by the lake in Beijing?", palace, "en", "summer"),
    ]

    @Test("Each card is judged by what its photo holds", arguments: cases.indices)
    func judged(index: Int) {
        let (text, photo, locale, unsupported) = Self.cases[index]
        let gate = PromptGate(language: LanguageTag(locale: locale), photo: photo, now: Self.now, dictionaries: testDictionaries)
        let verdict = gate.failure(for: text)
        #expect(verdict == unsupported.map { .unsupportedDetail($0) }, "\(text)")
    }

    @Test("An operator turns the rule off per template")
    func relaxed() {
        let text = Self.cases[0].text
        let gate = PromptGate(
            language: .english,
            photo: Self.marathon,
            now: Self.now,
            rules: GateRules(photoDetails: false),
            dictionaries: testDictionaries
        )
        #expect(gate.failure(for: text) == nil)
    }
}
