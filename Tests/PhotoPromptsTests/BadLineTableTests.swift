import PhotoPromptsTestSupport
import PromptDomain
import Testing

/// Bad lines in every shipped language, made from the fresh good questions of `prompts/good/` so that the test
/// knows by construction what is wrong with each, and written by hand where a model's own kind of nonsense is the
/// point: every one is rejected, or cleaned into the good question it came from.
@Suite("Fresh bad lines are rejected in every shipped language", .dictionariesOpened)
struct BadLineTableTests {
    /// A line and the reason the test built it to fail with; nil where any rejection is right.
    typealias BadLine = (text: String, reason: String?)

    static func withoutQuestionMark(_ text: String) -> String {
        String(text.reversed().drop { "?？؟ ".contains($0) }.reversed())
    }

    /// `text` with its first letter written five times over: "Hhhhhow did…".
    static func stretchingFirstLetter(of text: String) -> String {
        guard let index = text.firstIndex(where: \.isLetter) else { return text }
        return text.replacingCharacters(in: index...index, with: String(repeating: String(text[index]), count: 5))
    }

    /// Ten or more bad lines for `locale`, each from its good questions.
    static func constructed(_ locale: String) throws -> [BadLine] {
        let good = try GoodQuestionTableTests.goodQuestions(locale)
        let foreign = try GoodQuestionTableTests.goodQuestions(locale == "en" ? "es" : "en")
        let first = good[5].prefix { !$0.isWhitespace && $0 != "、" && $0 != "，" && $0 != "," }
        return [
            (good[0] + " " + good[1], "two_questions"),
            ("[photo_location] " + good[2], "placeholder"),
            (foreign[3], "wrong_language"),
            (good[8] + "\n" + good[9], "multi_line"),
            (withoutQuestionMark(good[10]) + ".", nil),
            (String(first.prefix(3)) + "?", nil),
            (withoutQuestionMark(good[6]) + ", " + withoutQuestionMark(good[7]) + ", " + good[11], nil),
            (Self.stretchingFirstLetter(of: good[4]), "repetitive"),
            ("{{location}} " + good[3], "placeholder"),
        ]
    }

    /// What a small model writes when it has lost the thread, by hand, per locale: a word said three times apart, a
    /// line about "the text" or "an example", made-up words where a dictionary judges words (MeCab's for Japanese,
    /// libthai's for Thai among them).
    static let written: [(locale: String, text: String, reason: String?)] = [
        ("en", "What did the ocean say to the ocean when the ocean was calm?", "repetitive"),
        ("en", "In this text, what do you feel when you look at the old harbour?", "assistant_chatter"),
        ("en", "For example, who was standing next to you when the boats came in?", "assistant_chatter"),
        ("en", "Which glimmerous corner of the market did you wander through first?", "unknown_word"),
        ("es", "¿Qué recuerdas del mar, del mar y del mar aquella tarde tranquila?", "repetitive"),
        ("es", "¿Qué te hace sentir este texto cuando miras el puerto por la tarde?", "assistant_chatter"),
        ("es", "¿Qué hacías en el mercado, por ejemplo, antes de que llegaran todos?", "assistant_chatter"),
        ("pt", "O que o mar, o mar e o mar te disseram naquela tarde tranquila?", "repetitive"),
        ("pt", "O que este texto te faz sentir quando olhas para o porto ao entardecer?", "assistant_chatter"),
        ("fr", "Qu'est-ce que la mer, la mer et encore la mer t'ont appris ce soir-là ?", "repetitive"),
        ("fr", "Que ressens-tu en lisant ce texte devant le vieux port ?", "assistant_chatter"),
        ("de", "Was hat dir das Meer, das Meer und wieder das Meer an diesem Abend gesagt?", "repetitive"),
        ("de", "Was fühlst du bei diesem Text, wenn du auf den alten Hafen schaust?", "assistant_chatter"),
        ("it", "Che cosa ti hanno detto il mare, il mare e ancora il mare quella sera?", "repetitive"),
        ("it", "Che cosa provi leggendo questo testo davanti al vecchio porto?", "assistant_chatter"),
        ("ja", "この写真の撮影記録をおしゃべりで、おしゃべりにおしゃべりを撮ったとき、どんな記憶？", "repetitive"),
        ("ja", "このテキストは、海辺で過ごしたどんな一日を思い出させますか？", "assistant_chatter"),
        ("ja", "ぬらべちょ、ぽけみしゃのふらんを見たとき、どんな気持ちでしたか？", "unknown_word"),
        ("ja", "モデルは、答えるときに、この海辺の景色をどのように伝えますか？", "assistant_chatter"),
        ("ja", "写真のけいちょうを、ずらべりとしたとき、何を思いましたか？", "unknown_word"),
        ("ja", "例、この浜辺に初めて来た日、誰と一緒に歩きましたか？", "assistant_chatter"),
        // A particle cannot open a Japanese sentence; the photo's place may ("Miradouro" opens the good line below).
        ("ja", "を見たとき、海辺の風はどんな思い出を運んできましたか？", "unknown_word"),
        ("zh-Hans", "那片海、那片海和那片海，在那天傍晚对你说了什么？", "repetitive"),
        ("zh-Hans", "这段文本让你想起了哪一天在海边的时光？", "assistant_chatter"),
        ("zh-Hant", "那片海、那片海和那片海，在那天傍晚對你說了什麼？", "repetitive"),
        ("zh-Hant", "這段文本讓你想起了哪一天在海邊的時光？", "assistant_chatter"),
        // Characters only the other script writes, a kana among the characters, a character no list writes.
        ("zh-Hans", "那天在码头上，你对身边的朋友說了些什么？", "unknown_word"),
        ("zh-Hant", "那天在碼頭上，你对身边的朋友说了些什么？", "unknown_word"),
        ("zh-Hans", "那天傍晚的风のにおい让你想起了哪一个人？", nil),
        ("zh-Hant", "那天傍晚，䶵䲜的聲音讓你想起了哪一個人？", "unknown_word"),
        ("ko", "그 바다를 보며, 그 바다를 걸으며, 그 바다를 떠올리면 무엇이 생각나나요?", "repetitive"),
        ("ko", "이 텍스트는 바닷가에서 보낸 어떤 하루를 떠올리게 하나요?", "assistant_chatter"),
        ("ar", "ماذا قال لك البحر، ثم البحر، ثم البحر في ذلك المساء الهادئ؟", "repetitive"),
        ("ar", "ماذا يجعلك هذا النص تشعر عندما تنظر إلى الميناء القديم؟", "assistant_chatter"),
        ("hi", "उस शाम समुद्र ने, समुद्र से और समुद्र के लिए आपसे क्या कहा?", "repetitive"),
        ("hi", "उदाहरण के लिए, उस शाम बंदरगाह पर आपके साथ कौन खड़ा था?", "assistant_chatter"),
        ("th", "ทะเล ทะเล และทะเลบอกอะไรกับคุณในเย็นวันนั้น?", nil),
        ("th", "ตัวอย่างเช่น ใครยืนอยู่ข้างคุณตอนที่เรือเข้าฝั่ง?", "assistant_chatter"),
        ("th", "คุณรู้สึกอย่างไรกับฟรึมโบ่งลาที่ชายหาดในวันนั้น?", "unknown_word"),
        ("th", "อะไรทำให้คุณจึมจึ๋งละเมาะโบ๋ในเช้าวันนั้น?", "unknown_word"),
    ]

    @Test("Ten bad lines made from the good questions are rejected, with the reason they were made for", arguments: GoodQuestionTableTests.locales)
    func constructedLinesAreRejected(locale: String) throws {
        let lines = try Self.constructed(locale) + Self.written.filter { $0.locale == locale }.map { ($0.text, $0.reason) }
        #expect(lines.count >= 10)
        for (text, reason) in lines {
            let validation = GateTableTests.validator(locale).validate([text])
            #expect(validation.kept.isEmpty, "\(locale): \(text.debugDescription) was kept")
            if let reason { #expect(validation.rejected.first?.reason.code == reason, "\(locale): \(text.debugDescription)") }
        }
    }

    @Test("A small word said three times is not a loop; any other word is, a question word included")
    func smallWordThreeTimes() {
        #expect(GateTableTests.verdict("What did the light on the water and the boats remind you of?", locale: "en") == nil)
        #expect(GateTableTests.verdict("Which moment, which sound, which smell stayed with you that evening?", locale: "en") == .repetitive)
    }

    @Test("Talk about the text is chatter, unless the photo holds text: then it is about the photo")
    func textInThePhoto() {
        let line = "How did the text on that old sign make you feel that morning?"
        #expect(GateTableTests.verdict(line, locale: "en") == .assistantChatter)
        let sign = PhotoMetadata(labels: ["text", "sign"])
        let gate = PromptGate(language: .english, photo: sign, chatter: GateTableTests.chatter, dictionaries: testDictionaries)
        #expect(gate.failure(for: line) == nil)
    }
}
