import PhotoPrompts
import PromptDomain
import Testing

@Suite("The 8–15 word rule")
struct WordRuleTests {
    @Test(
        "A word is a run of non-whitespace with a letter or digit",
        arguments: [
            ("What made this sunset moment special?", 6),
            ("Was the sun-kissed sand warm, or don't you remember?", 9),
            ("What — if anything … surprised you?", 5),
            ("How did 🎉 this party feel?", 5),
            ("Who took 3 photos?", 4),
            ("   ", 0),
            ("Tabs\tand\r\nnew lines - count ?! too", 6),
            // Every digit, and the ASCII neighbours of the digit and letter ranges, which are not word characters.
            ("Digits 0123456789 9 and /:@[`{ AZaz", 5),
        ]
    )
    func wordCount(text: String, expected: Int) {
        #expect(WordCounter.count(text) == expected)
        // ASCII text is counted byte by byte; a trailing " …" (no word) sends it down the general path.
        #expect(WordCounter.count(text + " …") == expected)
    }

    @Test(
        "Normalisation drops numbering, bullets, labels and wrapping quotes",
        arguments: [
            ("1. What drew you here?", "What drew you here?"),
            ("2) What drew you here?", "What drew you here?"),
            ("(3) What drew you here?", "What drew you here?"),
            ("- What drew you here?", "What drew you here?"),
            ("• What drew you here?", "What drew you here?"),
            ("Prompt 1: What drew you here?", "What drew you here?"),
            ("Question 2 - What drew you here?", "What drew you here?"),
            ("\"What drew you here?\"", "What drew you here?"),
            ("1. “What drew   you here?”", "What drew you here?"),
            ("3 friends, one beach: who laughed first?", "3 friends, one beach: who laughed first?"),
            ("1.5 hours of driving: was it worth it?", "1.5 hours of driving: was it worth it?"),
        ]
    )
    func normalisation(raw: String, expected: String) {
        #expect(PromptNormalizer.normalize(raw) == expected)
    }

    @Test("Eight to fifteen words are kept; seven and sixteen are not")
    func boundaries() {
        let seven = "What made this quiet evening so special?"
        let eight = "What made this quiet evening feel so special?"
        let fifteen = "What were you thinking about as the sun went down over the water that evening?"
        let sixteen = "What were you thinking about as the sun slowly went down over the water that evening?"
        let result = PromptValidator().validate([seven, eight, fifteen, sixteen])
        #expect(result.kept.map(\.text) == [eight, fifteen])
        #expect(result.kept.map(\.wordCount) == [8, 15])
        #expect(result.rejected.map(\.reason) == [.tooShort(words: 7), .tooLong(words: 16)])
    }

    @Test("Empty, multi-line and repeated candidates are rejected, repeats ignoring case and punctuation")
    func rejections() {
        let good = "What drew your eye to the dog in this photo?"
        let result = PromptValidator().validate([
            "", "  - ", "What drew your eye\nto the dog in this photo?", good, "WHAT drew your eye to the dog, in this photo!",
        ])
        #expect(result.kept.map(\.text) == [good])
        #expect(result.rejected.map(\.reason) == [.empty, .empty, .multiLine, .duplicate])
    }

    @Test("Repeat keys ignore case, punctuation and spacing, in any script")
    func repeatKeys() {
        #expect(PromptNormalizer.repeatKey("  What drew YOU here?! ") == "what drew you here")
        #expect(PromptNormalizer.repeatKey("Café, où étais-tu?") == PromptNormalizer.repeatKey("CAFÉ OÙ ÉTAIS TU"))
        #expect(PromptNormalizer.repeatKey("Was it 3 o'clock?") == "was it 3 o clock")
        #expect(PromptNormalizer.repeatKey("海辺で何を感じた？") == "海辺で何を感じた")
        #expect(PromptNormalizer.repeatKey("What drew you here?") != PromptNormalizer.repeatKey("What drew you there?"))
        // ASCII text takes a faster path; one non-ASCII character ("…") sends the same words down the general one.
        #expect(PromptNormalizer.repeatKey("Digits 0123456789 and /:@[`{ AZaz") == "digits 0123456789 and azaz")
        for text in ["  What drew YOU here?! ", "Was it 3 o'clock, at 4:30 PM?", "Zoe's Z-A-Z a@z [0-9] /:@[`{ 789"] {
            #expect(PromptNormalizer.repeatKey(text) == PromptNormalizer.repeatKey(text + "…"), "\(text)")
        }
    }

    @Test("Prompts already shown in the session are rejected")
    func alreadyShown() {
        let shown = "What drew your eye to the dog in this photo?"
        let result = PromptValidator().validate(["what drew your eye to the dog in this photo"], alreadyShown: [PromptNormalizer.repeatKey(shown)])
        #expect(result.kept.isEmpty)
        #expect(result.rejected.map(\.reason) == [.alreadyShown])
    }
}

@Suite("Splitting a model's reply into candidates")
struct ReplyExtractorTests {
    @Test("Plain lines, skipping blank lines and headings")
    func lines() {
        let reply = "Here are six questions:\n\nWhat drew you to this beach today?\n  Who was with you?  \n"
        #expect(ReplyExtractor.candidates(in: reply) == ["What drew you to this beach today?", "Who was with you?"])
    }

    @Test("A JSON array, bare or inside a code fence")
    func jsonArray() {
        #expect(ReplyExtractor.candidates(in: #"["One?", "Two?"]"#) == ["One?", "Two?"])
        #expect(ReplyExtractor.candidates(in: "```json\n[\"One?\", \"Two?\"]\n```") == ["One?", "Two?"])
    }

    @Test("A JSON object holding the list under prompts or questions")
    func jsonObject() {
        #expect(ReplyExtractor.candidates(in: #"{"prompts": ["One?"]}"#) == ["One?"])
        #expect(ReplyExtractor.candidates(in: #"{"questions": ["Two?"]}"#) == ["Two?"])
    }

    @Test("A JSON array item spanning lines stays one candidate, so the validator can reject it")
    func multiLineItem() {
        let candidates = ReplyExtractor.candidates(in: #"["What made this\nmoment special for you today?"]"#)
        #expect(candidates.count == 1)
        #expect(PromptValidator().validate(candidates).rejected.map(\.reason) == [.multiLine])
    }
}

@Suite("Real models' replies: every valid question is kept, whatever the dress")
struct ReplyCorpusTests {
    @Test("Each corpus reply yields exactly its candidates, and prose around them is not one", arguments: replyCorpus)
    func corpusReply(_ corpus: CorpusReply) {
        let candidates = ReplyExtractor.candidates(in: corpus.reply).map(PromptNormalizer.normalize)
        #expect(candidates == corpus.candidates)
    }

    @Test("The corpus covers several model families and at least 30 replies")
    func corpusSize() {
        #expect(replyCorpus.count >= 30)
        #expect(Set(replyCorpus.map(\.family)).count >= 6)
    }

    @Test("Prose lines are never judged, so a re-ask never tells the model its preamble was a mistake")
    func proseIsNotRejected() {
        for corpus in replyCorpus where corpus.candidates == corpusQuestions {
            let validation = PromptValidator().validate(ReplyExtractor.candidates(in: corpus.reply))
            #expect(validation.kept.count == 6, "\(corpus.testDescription)")
            #expect(validation.rejected.isEmpty, "\(corpus.testDescription): \(validation.rejected)")
        }
    }
}

@Suite("Every script's question mark")
struct QuestionMarkTests {
    static let validator = PromptValidator(checks: PromptChecks(mustEndWithQuestionMark: true, rejectsLinks: true, blockedWords: []))

    @Test(
        "A question ending with its script's mark passes the question check; the same words without it do not",
        arguments: [
            "What sound do you remember most from this evening at the beach?",
            "What sound do you remember most from this evening at the beach？",
            "ما الصوت الذي تتذكره أكثر من هذه الأمسية الجميلة على الشاطئ يا صديقي؟",
            "Ποιον ήχο θυμάσαι περισσότερο από αυτό το βράδυ στην παραλία μαζί τους\u{037E}",
            "Ποιον ήχο θυμάσαι περισσότερο από αυτό το βράδυ στην παραλία μαζί τους;",
            "Ո՞ր ձայնն ես ամենից շատ հիշում այս երեկոյից ծովափին քո ընկերների հետ՞",
            "ከዚህ ምሽት በባህር ዳርቻ ላይ ከጓደኞችህ ጋር በጣም የምታስታውሰው ድምፅ የትኛው ነው በእውነት፧",
            "¿Qué sonido recuerdas más de esta tarde en la playa con tus amigos?",
        ]
    )
    func questionMarks(question: String) {
        let kept = Self.validator.validate([question]).kept
        #expect(kept.map(\.text) == [question], "kept whole, ¿ and right-to-left text included")
        let statement = String(question.dropLast()) + "."
        #expect(Self.validator.validate([statement]).rejected.map(\.reason) == [.notAQuestion])
    }

    @Test("A semicolon ends a question only at the end of Greek text")
    func semicolonOnlyInGreek() {
        #expect(
            Self.validator.validate(["What sound do you remember most from this evening at the beach;"]).rejected.map(\.reason) == [.notAQuestion]
        )
    }
}
