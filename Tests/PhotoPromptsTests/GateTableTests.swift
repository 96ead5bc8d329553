import PhotoPromptsTestSupport
import PromptDomain
import PromptTemplates
import StubModel
import Testing

@testable import PhotoPrompts

/// The gate, both ways, in every shipped language: good questions pass (a gate that rejects them is as wrong as
/// one that shows bad ones), and what real models were seen writing is rejected with its own reason.
@Suite("The gate: a clean question, in the user's language, in real words", .dictionariesOpened)
struct GateTableTests {
    /// The photo every case is about: a Portuguese beach, so Portuguese names appear in other languages' questions.
    static let photo = PhotoMetadata(
        location: .init(name: "Praia da Rocha", locality: "Portimão", country: "Portugal"),
        labels: ["beach", "sunset", "dog"],
        peopleCount: 2,
        caption: "Rui and Mafalda at the Miradouro dos Três Castelos"
    )

    static let chatter = try! ChatterPhrases.load(from: repositoryPromptsDirectory)
    static let knownWords = try! KnownWords.load(from: repositoryPromptsDirectory)

    /// The validator a model's candidates meet for `locale`, with the repository's chatter lists and `rules`.
    static func validator(_ locale: String, rules: GateRules = GateRules()) -> PromptValidator {
        let language = LanguageTag(locale: locale)
        return PromptValidator(
            wordRule: .for(language),
            checks: PromptChecks(mustEndWithQuestionMark: true),
            gate: PromptGate(language: language, photo: photo, rules: rules, chatter: chatter, knownWords: knownWords, dictionaries: testDictionaries)
        )
    }

    /// The reason `text` is rejected for `locale`, or nil when it is kept.
    static func verdict(_ text: String, locale: String, rules: GateRules = GateRules()) -> PromptRejection.Reason? {
        let validation = validator(locale, rules: rules).validate([text])
        return validation.rejected.first?.reason
    }

    /// The eleven reference questions in each of the 13 shipped languages, as translators wrote them.
    static let referenceQuestions: [(locale: String, question: String)] =
        ReferenceQuestions.english.map { ("en", $0) }
        + ReferenceQuestions.translations.sorted { $0.key < $1.key }.flatMap { locale, questions in questions.map { (locale, $0) } }

    @Test("Every reference question passes in its own language", arguments: referenceQuestions)
    func referenceQuestionsPass(locale: String, question: String) {
        #expect(Self.verdict(question, locale: locale) == nil)
    }

    @Test(
        "Good questions naming the photo's place, labels and caption pass in every shipped language",
        arguments: [
            ("en", "What does the sunset at Praia da Rocha remind you of today?"),
            ("en", "What were Rui and Mafalda laughing about at the Miradouro dos Três Castelos?"),
            ("en", "Who was with you when you couldn’t stop laughing on the beach in Portimão?"),
            ("es", "¿Qué recuerdas de Praia da Rocha en Portimão, Portugal?"),
            ("es", "¿Qué te hizo sonreír aquel día en Praia da Rocha con tu perro?"),
            ("pt", "O que você sentiu ao ver o pôr do sol na Praia da Rocha?"),
            ("fr", "Qu’avez-vous ressenti en regardant ce coucher de soleil à Praia da Rocha ?"),
            ("de", "Woran erinnert dich dieser Sonnenuntergang an der Praia da Rocha mit deinem Hund?"),
            ("it", "Cosa hai provato quella sera a Praia da Rocha con il tuo cane?"),
            ("nl", "Wat voelde je die avond in Praia da Rocha met je hond?"),
            ("ja", "プライア・ダ・ロシャの夕日を見たとき、どんな気持ちになりましたか？"),
            ("zh-Hans", "在罗沙海滩看日落的时候，你心里想到了什么？"),
            ("zh-Hant", "在羅沙海灘看日落的時候，你心裡想到了什麼？"),
            ("ko", "Portimão 해변에서 노을을 보며 어떤 생각이 들었나요?"),
            ("ar", "بماذا شعرت عندما رأيت غروب الشمس في Praia da Rocha مع كلبك؟"),
            ("hi", "Praia da Rocha पर सूर्यास्त देखते समय आपको क्या महसूस हुआ था?"),
            ("th", "คุณรู้สึกอย่างไรเมื่อได้เห็นพระอาทิตย์ตกที่ Praia da Rocha?"),
        ]
    )
    func placeQuestionsPass(locale: String, question: String) {
        #expect(Self.verdict(question, locale: locale) == nil)
    }

    @Test(
        "A question in another language is wrong_language, the close pairs included",
        arguments: [
            ("es", "What does the sunset at the beach remind you of today?", "en"),
            ("fr", "What does the sunset at the beach remind you of today?", "en"),
            ("de", "What does the sunset at the beach remind you of today?", "en"),
            ("es", "O que você sentiu ao ver o pôr do sol na praia com seu cachorro?", "pt"),
            ("pt", "¿Qué recuerdas de aquella tarde en la playa con tu perro?", "es"),
            ("es", "Cosa ricordi di quel pomeriggio sulla spiaggia con il tuo cane?", "it"),
            ("de", "Waar denk je aan bij deze zonsondergang op het strand met je hond?", "nl"),
            ("nl", "Woran erinnert dich dieser Sonnenuntergang am Strand mit deinem Hund?", "de"),
            ("ja", "看到这片海滩的日落时，你心里想到了什么？", "zh"),
            ("zh-Hans", "この夕日を見たとき、どんな気持ちになりましたか？", "ja"),
            ("zh-Hans", "看到這片海灘的日落時，你心裡想到了什麼？", "zh-Hant"),
            ("zh-Hant", "看到这片海滩的日落时，你心里想到了什么？", "zh"),
            ("ar", "What did you feel when you saw the sunset on the beach with your dog?", "en"),
            ("ko", "What did you feel when you saw the sunset on the beach with your dog?", "en"),
        ]
    )
    func wrongLanguage(locale: String, text: String, identified: String) {
        #expect(Self.verdict(text, locale: locale) == .wrongLanguage(identified))
    }

    @Test("A Japanese card may not open with a particle, and may open with the photo's place followed by one")
    func japaneseOpening() {
        let kyoto = PhotoMetadata(location: .init(name: "清水寺", locality: "京都市", country: "日本"), labels: ["temple"])
        let gate = PromptGate(language: LanguageTag(locale: "ja"), photo: kyoto, dictionaries: testDictionaries)
        for (text, verdict) in [
            ("清水寺で誰と一緒に桜を見たとき、どんな気持ちでしたか？", nil),
            ("を見たとき、誰と一緒に桜の下を歩きましたか？", PromptRejection.Reason.unknownWord("を")),
        ] {
            #expect(gate.failure(for: text) == verdict, "\(text)")
        }
    }

    @Test("Where CLD2 cannot tell, Latin letters are wrong for a user who reads another script")
    func scriptDecides() {
        // Too short and too mixed for CLD2 to call reliably, yet plainly not Japanese.
        let gate = PromptGate(language: LanguageTag(locale: "ja"), photo: Self.photo, dictionaries: testDictionaries)
        let text = "Zyx qwv plor mandu, kest verano tolk?"
        #expect(LanguageIdentifier.identify(text).isReliable == false)
        #expect(gate.failure(for: text) == .wrongLanguage("Latn"))
    }

    @Test(
        "Placeholders, chatter and two questions are rejected, each with its own reason",
        arguments: [
            ("en", "What does [image_source_icon_language] remind you of today?", PromptRejection.Reason.placeholder),
            ("en", "What did you feel when you first saw {{place}} that evening?", .placeholder),
            ("en", "What did you feel when you first saw {location} that evening?", .placeholder),
            ("en", "What did <name> say when you first arrived at the beach?", .placeholder),
            ("fr", "Qu'a dit ‹prénom› quand vous êtes arrivés à la plage ce soir-là ?", .placeholder),
            ("en", "I'm ready to assist. What's the user's next question?", .assistantChatter),
            ("en", "As an AI, what do you think this beach photo is about?", .assistantChatter),
            ("en", "What details of the photo should I describe so I can help you?", .assistantChatter),
            ("en", "If you want to know more about the beach, I can tell you a little bit?", .assistantChatter),
            ("en", "If you want to talk about the sunset, you could say something about the dog?", .assistantChatter),
            ("zh-Hans", "请你写出中国古代建筑中最有名气的建筑，并回答以下问题？", .assistantChatter),
            ("th", "เขียนคำถามในภาษาไทยว่า ใช้วางข้อความในภาษาอังกฤษว่า ใช้วางคำถาม?", .assistantChatter),
            ("th", "ทิ้งข้อความว่า การถ่ายภาพนั้นเป็นอย่างไร?", .assistantChatter),
            ("ja", "写実文典の文章の例として、以下の文章をいくつか紹介しますか？", .assistantChatter),
            ("ja", "一文字の文章は、次のようになりますか？", .assistantChatter),
            ("en", "What did you feel there? Who were you with that evening?", .twoQuestions),
            ("es", "¿Qué quiere recordar el usuario de esta tarde en la playa?", .assistantChatter),
            ("de", "Was möchte der Benutzer von diesem Abend am Strand behalten?", .assistantChatter),
            ("ja", "ユーザーはこの夕日を見たとき、どんな気持ちになりましたか？", .assistantChatter),
            ("es", "¿Qué sentiste allí? ¿Con quién estabas aquella tarde en la playa?", .twoQuestions),
            ("ja", "どこにいましたか？誰と一緒にこの夕日を見ていましたか？", .twoQuestions),
        ]
    )
    func cleanQuestion(locale: String, text: String, reason: PromptRejection.Reason) {
        #expect(Self.verdict(text, locale: locale) == reason)
    }

    @Test(
        "A word no dictionary knows and the photo does not name is unknown_word, glued words included",
        arguments: [
            ("en", "What memories andballs come back when you see this beach?", "andballs"),
            ("en", "What did theLac-Balti-Cha make you feel that evening?", "theLac"),
            ("en", "What did you feel when izoomarad walked along the beach?", "izoomarad"),
            ("en", "What made anddog run so fast along the shore that day?", "anddog"),
            ("en", "What did you feel when you first saw thePraia that evening?", "thePraia"),
            ("es", "¿Qué recuerdas de aquella tarde en la plaaya con tu perro?", "plaaya"),
            ("de", "Woran erinnertxy dich dieser Sonnenuntergang am Strand mit deinem Hund?", "erinnertxy"),
            ("fr", "Qu'avez-vous ressenti en regardant ce coucherz de soleil sur la plage ?", "coucherz"),
            ("pt", "O que você sentiu ao ver o pôr do sol na praiaa com o seu cachorro?", "praiaa"),
            ("it", "Cosa hai provato guardando il tramontoo sulla spiaggia con il tuo cane?", "tramontoo"),
            ("nl", "Wat voelde je toen je de zonsondergangk op het strand met je hond zag?", "zonsondergangk"),
            ("ar", "ما الذي شعرت به عندما رأيت غروبالشمسعلى الشاطئ مع كلبك في ذلك المساء؟", "غروبالشمسعلى"),
            ("ko", "해변에서 강아지와 함께 노을을바라보며느낀감정은 무엇이었나요?", "노을을바라보며느낀감정은"),
            ("hi", "समुद्र तट पर अपने कुत्ते के साथ सूर्यास्तकोदेखकरमहसूस क्या हुआ था?", "सूर्यास्तकोदेखकरमहसूस"),
        ]
    )
    func realWords(locale: String, text: String, word: String) {
        #expect(Self.verdict(text, locale: locale) == .unknownWord(word))
    }

    @Test(
        "Text that repeats itself is rejected in every language, with a dictionary or without (Gemma's base model wrote these)",
        arguments: [
            ("hi", "इस तस्वीर की कौन-जो ओं केकेकेकेकेक्या ओं केकेके?"),
            ("th", "ทบทวนคำตอบของตัวเองด้วยคำว่า ฿฿฿฿฿฿฿ และ ฿฿฿฿฿สำหรับคำ?"),
            ("th", "สำหรับ ญานี ญานี ญานีญานี ญานีนี ญาก?"),
            ("zh-Hans", "第一段介绍，第一句介绍，第二段介绍，第三段介绍，第四段介绍，第五？"),
            ("zh-Hans", "请问你的照片，你在哪个城市，在哪城市，在哪里，在哪里，在哪年？"),
            ("hi", "इस तस्वीर की कौन-जो लोग दिवाली के दौरान अपने-अपने घर पर दिवाली के रंग रंग रंग?"),
            ("hi", "एक ऎसी तस्वीर की, जिसमें कोई भी व्यक्ति ने दिवाली के दौरान अपने-अपने घर पर एक-एकँयादीयादीयादीए?"),
            ("en", "Are nemi, ajalar ajalar ala, ajalar ala ala ala ala ajalar?"),
            ("en", "What a beautiful day in the mountains, andhiiiiiiiii, was it cold there?"),
            ("ko", "가장 큰 사진을 찍은 사람을 가장 큰 사진을 찍은 사람이라고 말하는가?"),
            ("ar", "يُكتب هذا السؤال في اللغة العربية لغة الإشارة إلى أي شخص أو أيًّاٌٌٌٌٌٍٍٍٍٍٍ؟"),
        ]
    )
    func repetitive(locale: String, text: String) {
        #expect(Self.verdict(text, locale: locale) == .repetitive)
    }

    @Test(
        "A card with a question mark but no question word or ending is not_a_question where the language always writes one (Gemma's base model wrote these)",
        arguments: [
            ("zh-Hant", "一個回答的中文形式和英文的英文形式，請回答，每？"),
            ("zh-Hans", "请你写一短文，请你写一篇短文？"),
            ("zh-Hans", "使用英文或中文写出颜色，背景和背景？"),
            ("ja", "日本語で書いてきたようにする、日本語で書いてきた？"),
            ("ko", "가장 적은 사진을 쓴다, 가장 많은 사진을 쓴다?"),
            ("th", "พิจารณาคำศัพท์ที่มีความหมายในงานที่ได้ทำ?"),
            ("th", "ทบทวนเรื่องราวเกี่ยวกับสิ่งที่เคยมีต่อกันและทบทวนความรู้สึกในใจ?"),
            ("ar", "يقولون أفطار العائلة في دبي في الظهر في الموعد الذي يأتي أولاً فيها؟"),
            ("hi", "इस तस्वीर को एक साथ दिया जाना चाहिए, तो यह एक साथ दिखाई देगा?"),
            ("en", "Tell me about the sunset at the beach and the people there?"),
        ]
    )
    func unmarkedQuestion(locale: String, text: String) {
        #expect(Self.verdict(text, locale: locale) == .notAQuestion)
        #expect(Self.verdict(text, locale: locale, rules: GateRules(questionWords: false)) != .notAQuestion)
    }

    @Test("Languages that ask yes-or-no questions by word order or tone alone are not held to a question word")
    func unmarkedLanguages() {
        #expect(Self.verdict("¿Te acuerdas de aquella tarde en la playa con tu perro?", locale: "es") == nil)
        #expect(Self.verdict("Ti ricordi quella sera sulla spiaggia con il tuo cane?", locale: "it") == nil)
        #expect(Self.verdict("Erinnerst du dich an diesen Abend am Strand mit deinem Hund?", locale: "de") == nil)
    }

    @Test("Three symbols in one card are repetition, spaced apart or not (Gemma's Thai)")
    func symbols() {
        #expect(Self.verdict("คำว่า ฿ ฿ กับ ฿ ฿ แสดงถึงความรู้สึกที่แตกต่างกันอย่างไร?", locale: "th") == .repetitive)
    }

    @Test("What a question may repeat is not repetition: three f's in German, \"the\" three times, a number's zeros")
    func notRepetitive() {
        #expect(Self.verdict("Wie war die Schifffahrt an diesem Abend mit deinem Hund am Strand?", locale: "de") == nil)
        #expect(Self.verdict("What did the sun, the sea and the sand feel like on that warm evening?", locale: "en") == nil)
        // A count the photo does not hold is another rule's (unsupported_detail); this one is about the zeros.
        let counts = GateRules(photoDetails: false)
        #expect(Self.verdict("How did it feel to walk 10000 steps along the beach with your dog?", locale: "en", rules: counts) == nil)
        #expect(Self.verdict("What did you see there, and what did you hear on the beach?", locale: "en") == nil)
    }

    @Test(
        "Where a dictionary misses words people write (ko, hi), a glued word or more unknown words than a good line holds fail; common words it lacks pass",
        arguments: [
            ("ko", "가장 적합한 사진을 선택하여, 그 사진을 가리키는 사람의 말을 말하고, 그가에게서도나왔을때의가슴을느끼?", false),
            ("hi", "एक फोटो को दिया जाना चाहिए तो यह दिखाई देता है औरएकसाथसेतोगादसे?", false),
            ("ko", "몇 년이 지나도 기억하고 싶은 이 사진 속 작은 디테일은 무엇인가요?", true),
            ("hi", "जब पानी पर रोशनी फीकी पड़ रही थी तब हवा में कैसी खुशबू थी?", true),
            ("hi", "जब झलमोरी पर रोशनी फीकी पड़ रही थी तब हवा में कैसी खुशबू थी?", false),
        ]
    )
    func lenientWords(locale: String, text: String, passes: Bool) {
        let verdict = Self.verdict(text, locale: locale)
        #expect(passes ? verdict == nil : verdict?.code == "unknown_word", "\(String(describing: verdict))")
    }

    @Test("A name is real when the dictionary lists it or the photo has it; an invented one, or a glued one, is not")
    func names() {
        // A real name the photo does not hold is a detail it does not say: another rule, which an operator may relax.
        let line = "Did you ever visit Paris or London before this trip to the beach?"
        #expect(Self.verdict(line, locale: "en", rules: GateRules(photoDetails: false)) == nil)
        #expect(Self.verdict(line, locale: "en") == .unsupportedDetail("Paris"))
        #expect(Self.verdict("What did Izoomarad say when you reached the beach that day?", locale: "en") == .unknownWord("Izoomarad"))
        #expect(
            Self.verdict("If you could share this beach with others, Icantellyouallot what would you say?", locale: "en")
                == .unknownWord("Icantellyouallot")
        )
        // The photo's own place, however rare: Praia da Rocha is in the photo.
        #expect(Self.verdict("What did the cliffs at Praia da Rocha look like from the water?", locale: "en") == nil)
    }

    @Test(
        "A word in any spelling of its language is a word: British English, Swiss German",
        arguments: [
            ("en-GB", "Which neighbour did you tell first about the colour of that sunset?"),
            ("en-US", "What was your favourite moment at the beach before the sunset?"),
            ("de-CH", "Wie gross war die Freude, als dein Hund an den Strand rannte?"),
            ("de", "Woran denkst du heute, wenn du an die Strasse zum Strand denkst?"),
        ]
    )
    func spellings(locale: String, text: String) {
        #expect(Self.verdict(text, locale: locale) == nil)
    }

    @Test("Every shipped language has a dictionary, and the service can say which")
    func dictionaries() {
        let languages = testDictionaries.languages
        #expect(languages == ["ar", "de", "en", "es", "fr", "hi", "it", "ja", "ko", "nl", "pt", "th", "zh"])
    }

    @Test("Operators relax the gate per template: English accepted for every locale, the word check off")
    func relaxed() {
        let english = "What does the sunset at the beach remind you of today?"
        #expect(Self.verdict(english, locale: "es", rules: GateRules(acceptedLanguages: ["en"])) == nil)
        #expect(Self.verdict(english, locale: "ja", rules: GateRules(acceptedLanguages: ["en"])) == nil)
        #expect(Self.verdict(english, locale: "es", rules: GateRules(language: false)) == nil)
        let invented = "What memories andballs come back when you see this beach?"
        #expect(Self.verdict(invented, locale: "en", rules: GateRules(realWords: false)) == nil)
        #expect(Self.verdict("What does [place] remind you of on this beach?", locale: "en", rules: GateRules(placeholders: false)) == nil)
    }
}
