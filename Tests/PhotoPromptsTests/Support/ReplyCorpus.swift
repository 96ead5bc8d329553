import Testing

/// Replies in the shapes real model families write, written by the team, each with the candidates it must yield
/// (as ``PromptNormalizer`` leaves them). The six questions are the same in most: what changes is the dress.
struct CorpusReply: Sendable, CustomTestStringConvertible {
    var family: String
    var shape: String
    var reply: String
    var candidates: [String]

    var testDescription: String { "\(family): \(shape)" }
}

let corpusQuestions = [
    "What sound do you remember most from this evening at the beach?",
    "Who were you with when you took this photo, and why them?",
    "What made you stop and capture this exact moment of the sunset?",
    "How did the air feel on your skin as the sun went down?",
    "What were you hoping this trip would give you before it began?",
    "Which small detail of this scene would you like to remember forever?",
]

private let q = corpusQuestions

private func numbered(_ format: (Int, String) -> String) -> String {
    q.enumerated().map { format($0.offset + 1, $0.element) }.joined(separator: "\n")
}

private func jsonLines(_ strings: [String], indent: String = "  ", trailingComma: Bool = false) -> String {
    "[\n" + strings.map { "\(indent)\"\($0)\"" }.joined(separator: ",\n") + (trailingComma ? ",\n" : "\n") + "]"
}

let replyCorpus: [CorpusReply] = [
    // GPT-style
    CorpusReply(
        family: "GPT",
        shape: "preamble, then a json fence",
        reply: "Here are six questions:\n\n```json\n\(jsonLines(q))\n```",
        candidates: q
    ),
    CorpusReply(family: "GPT", shape: "bare JSON array", reply: "[" + q.map { "\"\($0)\"" }.joined(separator: ", ") + "]", candidates: q),
    CorpusReply(
        family: "GPT",
        shape: "numbered list with a preamble",
        reply: "Sure! Here are six journaling prompts:\n\n" + numbered { "\($0). \($1)" },
        candidates: q
    ),
    CorpusReply(
        family: "GPT",
        shape: "JSON object under its own key",
        reply: #"{"journal_prompts": ["# + q.map { "\"\($0)\"" }.joined(separator: ", ") + "]}",
        candidates: q
    ),
    CorpusReply(
        family: "GPT",
        shape: "structured output object",
        reply: #"{"prompts":["# + q.map { "\"\($0)\"" }.joined(separator: ",") + "]}",
        candidates: q
    ),
    CorpusReply(
        family: "GPT",
        shape: "array of objects",
        reply: "[" + q.map { #"{"question": "\#($0)"}"# }.joined(separator: ", ") + "]",
        candidates: q
    ),
    CorpusReply(family: "GPT", shape: "CRLF plain lines", reply: q.joined(separator: "\r\n") + "\r\n", candidates: q),
    // Claude-style
    CorpusReply(family: "Claude", shape: "fence, then a sign-off", reply: "```json\n\(jsonLines(q))\n```\n\nI hope these help!", candidates: q),
    CorpusReply(
        family: "Claude",
        shape: "preamble and bulleted list",
        reply: "Here are some prompts to help you reflect on this photo:\n\n" + q.map { "- \($0)" }.joined(separator: "\n")
            + "\n\nFeel free to pick whichever resonates.",
        candidates: q
    ),
    CorpusReply(
        family: "Claude",
        shape: "plain lines between prose",
        reply: "I'd be happy to help with that.\n\n" + q.joined(separator: "\n") + "\n\nLet me know if you'd like more.",
        candidates: q
    ),
    CorpusReply(
        family: "Claude",
        shape: "JSON with a trailing comma in a fence",
        reply: "```\n\(jsonLines(q, trailingComma: true))\n```",
        candidates: q
    ),
    CorpusReply(
        family: "Claude",
        shape: "array of objects under a key",
        reply: #"{"questions": ["# + q.map { #"{"text": "\#($0)", "theme": "memory"}"# }.joined(separator: ", ") + "]}",
        candidates: q
    ),
    // Llama-style
    CorpusReply(
        family: "Llama",
        shape: "bold numbered list with prose",
        reply: "Sure! Here are some journaling prompts for your photo:\n\n" + numbered { "\($0). **\($1)**" } + "\n\nEnjoy your journaling!",
        candidates: q
    ),
    CorpusReply(family: "Llama", shape: "bold labels", reply: numbered { "**Prompt \($0):** \($1)" }, candidates: q),
    CorpusReply(family: "Llama", shape: "numbered with closing parentheses", reply: numbered { "\($0)) \($1)" }, candidates: q),
    CorpusReply(family: "Llama", shape: "quoted numbered lines", reply: numbered { "\($0). \"\($1)\"" }, candidates: q),
    CorpusReply(
        family: "Llama",
        shape: "JSON embedded in prose",
        reply: "Here is the list you asked for: " + "[" + q.map { "\"\($0)\"" }.joined(separator: ", ") + "] Hope that works.",
        candidates: q
    ),
    // Gemma-style
    CorpusReply(family: "Gemma", shape: "italic lines", reply: q.map { "*\($0)*" }.joined(separator: "\n\n"), candidates: q),
    CorpusReply(
        family: "Gemma",
        shape: "bulleted with asterisks and bold",
        reply: "## Journal prompts\n\n" + q.map { "* **\($0)**" }.joined(separator: "\n"),
        candidates: q
    ),
    CorpusReply(family: "Gemma", shape: "fence without a language", reply: "```\n\(q.joined(separator: "\n"))\n```", candidates: q),
    CorpusReply(
        family: "Gemma",
        shape: "smart-quoted JSON",
        reply: "[" + q.map { "\u{201C}\($0)\u{201D}" }.joined(separator: ", ") + "]",
        candidates: q
    ),
    // Mistral-style
    CorpusReply(
        family: "Mistral",
        shape: "numbered bold with explanations on their own lines",
        reply:
            "1. **\(q[0])**\n2. **\(q[1])**\n3. **\(q[2])**\n4. **\(q[3])**\n5. **\(q[4])**\n6. **\(q[5])**\n\nThese prompts invite you to revisit the moment.",
        candidates: q
    ),
    CorpusReply(family: "Mistral", shape: "underscored emphasis", reply: q.map { "_\($0)_" }.joined(separator: "\n"), candidates: q),
    CorpusReply(family: "Mistral", shape: "bullets with en dashes", reply: q.map { "– \($0)" }.joined(separator: "\n"), candidates: q),
    // Qwen-style
    CorpusReply(
        family: "Qwen",
        shape: "json fence with CRLF",
        reply: ("```json\n" + jsonLines(q) + "\n```").replacing("\n", with: "\r\n"),
        candidates: q
    ),
    CorpusReply(
        family: "Qwen",
        shape: "object with a prompt field per item",
        reply: "[" + q.map { #"{"prompt": "\#($0)", "id": 1}"# }.joined(separator: ", ") + "]",
        candidates: q
    ),
    CorpusReply(family: "Qwen", shape: "numbered, a heading inside", reply: "Journal prompts:\n" + numbered { "\($0). \($1)" }, candidates: q),
    // Gemini-style
    CorpusReply(
        family: "Gemini",
        shape: "bold heading, bullets, sign-off",
        reply: "**Reflective prompts for your photo**\n\n" + q.map { "*   \($0)" }.joined(separator: "\n")
            + "\n\nI hope these spark some great entries!",
        candidates: q
    ),
    CorpusReply(
        family: "Gemini",
        shape: "nested object",
        reply: #"{"response": {"journal_prompts": ["# + q.map { "\"\($0)\"" }.joined(separator: ", ") + "]}}",
        candidates: q
    ),
    // Cut off at max_tokens: the complete questions are candidates; the cut last line, among questions, is not.
    CorpusReply(
        family: "GPT",
        shape: "fence cut off mid-array",
        reply: "```json\n[\n  \"\(q[0])\",\n  \"\(q[1])\",\n  \"What made you",
        candidates: [q[0], q[1]]
    ),
    // Other languages and marks.
    CorpusReply(
        family: "Llama",
        shape: "Japanese numbered list",
        reply: "1. この写真を撮ったとき、あなたは誰と一緒にいて、何を感じましたか？\n2. この夕日の瞬間で一番心に残っている音は何ですか？",
        candidates: ["この写真を撮ったとき、あなたは誰と一緒にいて、何を感じましたか？", "この夕日の瞬間で一番心に残っている音は何ですか？"]
    ),
    CorpusReply(
        family: "Gemma",
        shape: "Arabic lines with a sign-off",
        reply: "ما الصوت الذي تتذكره أكثر من هذه الأمسية على الشاطئ؟\nمن كان معك عندما التقطت هذه الصورة ولماذا؟\nأتمنى أن تعجبك!",
        candidates: ["ما الصوت الذي تتذكره أكثر من هذه الأمسية على الشاطئ؟", "من كان معك عندما التقطت هذه الصورة ولماذا؟"]
    ),
    CorpusReply(
        family: "Claude",
        shape: "Spanish inverted marks",
        reply: "- ¿Qué sonido recuerdas más de esta tarde en la playa?\n- ¿Con quién estabas cuando tomaste esta foto?",
        candidates: ["¿Qué sonido recuerdas más de esta tarde en la playa?", "¿Con quién estabas cuando tomaste esta foto?"]
    ),
]
