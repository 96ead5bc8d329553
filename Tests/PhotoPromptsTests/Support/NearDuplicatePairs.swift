import StubModel

/// The pair tables the near-duplicate threshold is measured on (docs/QUALITY.md has the rates).
///
/// Same: pairs a user would call the same question, as real models wrote them (SmolLM2's Boston series, from the
/// issue that asked for this rule) and as they vary in every shipped language: small words, word forms, numbers,
/// dates, a place's accents. Different: good questions that are not the same, in every shipped language: each
/// language's reference translations pairwise, its fallback copy pairwise (added by the test), and pairs written
/// to be close without being the same.
enum NearDuplicatePairs {
    static let same: [(locale: String, first: String, second: String)] = [
        ("en", "What do you do today in Boston, United States?", "What do you do today at Boston, United States?"),
        ("en", "What do you do today in Boston, United States?", "What do you do today tomorrow morning, Boston, United States?"),
        ("en", "What do you do today tomorrow, Boston, United States?", "What do you do today yesterday, Boston, United States?"),
        ("en", "What do you do today Tuesday, Boston, United Kingdom?", "What do you do today Wednesday, Boston, United Kingdom?"),
        ("en", "What do you do today today tomorrow, Boston, United Kingdom?", "What do you do today tomorrow morning, Boston, United Kingdom?"),
        ("en", "What did you love most about the beach at sunset?", "What do you love most about this beach at sunset?"),
        ("en", "Who were the three friends laughing with you in Lisbon?", "Who were the two friends who laughed with you in Lisbon?"),
        ("en", "What were you thinking about on the 4th of July in 2019?", "What were you thinking about on July 4th, 2021?"),
        ("en", "How did it feel to walk through Zürich's old town that evening?", "How did it feel walking through Zurich's old town that night?"),
        ("en", "What made your morning at São Paulo's market so memorable?", "What made your afternoon at Sao Paulo's market so memorable?"),
        ("es", "¿Qué recuerdas de aquella tarde en la playa de Cádiz?", "¿Qué recuerdas de esa tarde en la playa de Cadiz?"),
        ("es", "¿Quiénes estaban contigo en la fiesta del sábado?", "¿Quién estaba contigo en la fiesta del domingo?"),
        ("es", "¿Qué sentiste al ver el mar por primera vez en 2019?", "¿Qué sentiste al ver el mar por primera vez en 2020?"),
        ("pt", "O que você sentiu ao ver o mar hoje em Florianópolis?", "O que você sentiu ao ver o mar ontem em Florianopolis?"),
        ("pt", "Quem estava com você na festa de sábado?", "Quem estava com você na festa de domingo?"),
        ("fr", "Qu'as-tu ressenti en arrivant à Montréal ce matin-là ?", "Qu'as-tu ressenti en arrivant à Montreal ce soir-là ?"),
        ("fr", "Avec qui as-tu partagé ce repas en 2018 ?", "Avec qui avais-tu partagé ce repas en 2020 ?"),
        ("de", "Woran denkst du, wenn du an den Sommer in München zurückdenkst?", "Woran denkst du, wenn du an den Sommer in Munchen zurückdenkst?"),
        ("de", "Mit wem warst du am Samstag am See?", "Mit wem warst du am Sonntag am See?"),
        ("it", "Che cosa ricordi di quella sera a Cefalù con i tuoi amici?", "Che cosa ricordi di quella notte a Cefalu con i tuoi amici?"),
        ("it", "Cosa hai provato il primo giorno in spiaggia?", "Cosa hai provato il primo giorno in spiaggia oggi?"),
        ("ar", "ماذا شعرت عندما وصلت إلى دبي اليوم؟", "ماذا شعرت عندما وصلت إلى دبي أمس؟"),
        ("ar", "من كان معك في الحفلة يوم السبت؟", "من كان معك في الحفلة يوم الأحد؟"),
        ("hi", "आज जयपुर में आपने क्या महसूस किया?", "कल जयपुर में आपने क्या महसूस किया?"),
        ("hi", "शनिवार की शाम आप किसके साथ थे?", "रविवार की शाम आप किसके साथ थे?"),
        ("ja", "今日、京都で何を感じましたか？", "昨日、京都で何を感じましたか？"),
        ("ja", "土曜日の夜、誰と一緒にいましたか？", "日曜日の夜、誰と一緒にいましたか？"),
        ("zh-Hans", "你今天在北京感受到了什么？", "你昨天在北京感受到了什么？"),
        ("zh-Hans", "星期六晚上你和谁在一起？", "星期日晚上你和谁在一起？"),
        ("zh-Hant", "你今天在台北感受到了什麼？", "你昨天在台北感受到了什麼？"),
        ("ko", "오늘 서울에서 무엇을 느꼈나요?", "어제 서울에서 무엇을 느꼈어요?"),
        ("ko", "토요일 저녁에 누구와 함께 있었나요?", "일요일 저녁에 누구와 함께 있었어요?"),
        ("th", "วันนี้คุณรู้สึกอย่างไรที่เชียงใหม่?", "เมื่อวานคุณรู้สึกอย่างไรที่เชียงใหม่?"),
        ("th", "วันเสาร์คุณอยู่กับใครบ้าง?", "วันอาทิตย์คุณอยู่กับใครบ้าง?"),
    ]

    /// Good questions written to be close without being the same: one content word apart.
    static let closeButDifferent: [(locale: String, first: String, second: String)] = [
        ("en", "What sounds do you remember from the beach that day?", "What colors do you remember from the beach that day?"),
        ("en", "Who taught you to swim at this beach?", "Who did you swim with at this beach?"),
        ("en", "What were you celebrating with your family in Lisbon?", "What were you eating with your family in Lisbon?"),
        ("en", "What do you do today in Boston, United States?", "What do you do today in Boston, United Kingdom?"),
        ("en", "How did the mountain air feel on your skin?", "How did the mountain air smell that morning?"),
        ("es", "¿Qué canciones sonaban en la fiesta de Cádiz?", "¿Qué comidas había en la fiesta de Cádiz?"),
        ("de", "Wer hat dir an diesem See das Schwimmen beigebracht?", "Mit wem bist du in diesem See geschwommen?"),
        ("fr", "Quelle musique écoutiez-vous pendant ce voyage à Montréal ?", "Quel plat as-tu goûté pendant ce voyage à Montréal ?"),
        ("ja", "この海で誰に泳ぎを教わりましたか？", "この海で誰と一緒に泳ぎましたか？"),
        ("ko", "이 해변에서 누구에게 수영을 배웠나요?", "이 해변에서 누구와 함께 수영했나요?"),
        ("zh-Hans", "在这片海边，是谁教你游泳的？", "在这片海边，你和谁一起游泳？"),
    ]

    /// Each shipped language's reference translations, paired every way.
    static var referencePairs: [(locale: String, first: String, second: String)] {
        let languages = [("en", ReferenceQuestions.english)] + ReferenceQuestions.translations.sorted { $0.key < $1.key }
        return languages.flatMap { locale, questions in pairs(of: questions).map { (locale, $0.0, $0.1) } }
    }

    /// Every pair of `texts`, each once.
    static func pairs(of texts: [String]) -> [(String, String)] {
        texts.indices.flatMap { first in texts.indices.dropFirst(first + 1).map { (texts[first], texts[$0]) } }
    }
}
