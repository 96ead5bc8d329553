/// What makes a sentence a question in the languages that always mark one in writing: a question word or ending.
/// A base model that has lost the thread glues question marks onto fragments ("請回答，每個？"); the mark alone is
/// not a question.
///
/// Spanish, Portuguese, Italian, French, German and Dutch ask yes-or-no questions by word order or tone alone, so
/// they are not checked. The lists are closed grammar classes: they live here and change with ``PromptGate/version``.
enum Interrogatives {
    /// Whether repeat key `key` (words `keyWords`) carries a question marker of `language`; true where it has no list.
    static func asks(keyWords: [Substring], key: String, language: String) -> Bool {
        if let words = wholeWords[language] {
            return keyWords.contains { word in
                words.contains(String(word)) || (language == "ar" && arabicPrefixed(word, in: words))
            }
        }
        if let parts = wordParts[language] {
            return UTF8Search.containsAny(of: parts, in: key) || endsAsked(keyWords.last, endings: endings[language] ?? [])
        }
        return true
    }

    /// Arabic writes its conjunctions and prepositions onto the next word: "وماذا", "بماذا", "فهل".
    private static func arabicPrefixed(_ word: Substring, in words: Set<String>) -> Bool {
        guard let first = word.first, "وفبلك".contains(first) else { return false }
        return words.contains(String(word.dropFirst()))
    }

    /// Whether the last word ends with a question ending: Japanese "か", Korean "나요".
    private static func endsAsked(_ last: Substring?, endings: [String]) -> Bool {
        guard let last else { return false }
        return endings.contains { last.hasSuffix($0) }
    }

    /// Question words of languages that space their words and do not glue particles on, compared with the repeat
    /// key's words (so "isn't" is "isn" and "t", and "कौन-सी" is "कौन" and "सी").
    private static let wholeWords: [String: Set<String>] = [
        "en": [
            "what", "who", "whom", "whose", "which", "where", "when", "why", "how", "whether",
            "do", "does", "did", "is", "are", "was", "were", "am", "have", "has", "had",
            "can", "could", "would", "will", "should", "shall", "may", "might", "must",
            "don", "doesn", "didn", "isn", "aren", "wasn", "weren", "haven", "hasn", "hadn",
            "couldn", "wouldn", "won", "shouldn",
        ],
        "hi": [
            "क्या", "कौन", "कौनसा", "कौनसी", "कौनसे", "कहाँ", "कहां", "कब", "क्यों", "कैसे", "कैसा", "कैसी",
            "कितना", "कितनी", "कितने", "किस", "किसे", "किसको", "किसने", "किसका", "किसकी", "किसके", "किन", "किन्हें",
            "किन्होंने",
        ],
        "ar": ["ما", "ماذا", "من", "أين", "متى", "لماذا", "لم", "كيف", "هل", "أي", "أيّ", "أية", "كم"],
    ]

    /// Question words and particles of languages that glue particles onto their words (Korean "무엇을") or do not
    /// space them (Japanese, Chinese, Thai), found anywhere in the key.
    private static let wordParts: [String: [[UInt8]]] = partsText.mapValues { $0.map { Array($0.utf8) } }
    private static let partsText: [String: [String]] = [
        "ja": ["何", "なに", "なん", "誰", "だれ", "どこ", "いつ", "なぜ", "どう", "どんな", "どの", "どれ", "どちら", "いくつ", "いくら"],
        "zh": [
            "吗", "嗎", "么", "麼", "哪", "谁", "誰", "怎", "为何", "為何", "如何", "何时", "何時", "几", "幾", "多少", "呢", "是否",
            "是不是", "有没有", "有沒有", "还是", "還是",
        ],
        "ko": ["무엇", "뭐", "뭘", "무슨", "어디", "언제", "누구", "누가", "왜", "어떻", "어떤", "어땠", "어떠", "얼마", "몇"],
        "th": [
            "อะไร", "ไหม", "มั้ย", "หรือไม่", "หรือเปล่า", "หรือยัง", "ใคร", "ไหน", "เมื่อไร", "เมื่อไหร่", "ทำไม", "อย่างไร", "ยังไง",
            "เท่าไร", "เท่าไหร่", "บ้าง",
        ],
    ]

    /// Endings that ask on their own: Japanese "ですか", "の"; Korean "나요", "습니까".
    private static let endings: [String: [String]] = [
        "ja": ["か", "の"],
        "ko": ["까", "나요", "가요", "니", "냐", "는가", "은가", "인가", "죠", "지요"],
    ]
}
