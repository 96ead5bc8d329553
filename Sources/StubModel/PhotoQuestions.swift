/// The stub's questions about a photo's labels, place (`{}` is the label or place) and people, by the language tag
/// of ``ReferenceQuestions``. Each line is its own frame; with the language's general questions they take every
/// angle of its `prompts/angles/` file, so a month on the stub meets new kinds of question, as on a good model.
struct PhotoQuestions {
    let label: [String]
    let place: [String]
    let people: [String]
    /// Questions about no detail of the photo, each its own frame.
    let general: [String]

    /// The questions of `language` (nil: English).
    static func of(_ language: String?) -> PhotoQuestions {
        guard let language, let other = byLanguage[language] else { return english }
        return PhotoQuestions(label: other.label, place: other.place, people: other.people, general: ReferenceQuestions.translations[language] ?? [])
    }

    static let english = PhotoQuestions(
        label: [
            "What drew your eye to the {} in this photo?",
            "What story would you tell a friend about the {} here?",
            "How did the {} make you feel in that moment?",
            "What do you want to remember most about the {} today?",
            "If the {} could talk, what would it say about this day?",
            "What did the {} sound or smell like when you were there?",
            "What does the {} in this photo mean to you now?",
            "Which small detail of the {} would you like to keep?",
        ],
        place: [
            "What brought you to {} on the day you took this?",
            "What will you remember most about being in {}?",
            "How did {} feel different from what you expected?",
        ],
        people: [
            "Who was with you here, and what were you talking about?",
            "What made this moment with these people worth capturing?",
        ],
        general: [
            "What was happening just before you decided to take this photo?",
            "What small detail in this photo would you like to remember?",
            "How were you feeling when you took this picture, and why?",
            "What would you tell your future self about this moment?",
            "What sounds and smells do you remember from this moment?",
            "What made this ordinary moment feel special enough to keep?",
            "Who would you most like to share this photo with, and why?",
            "What happened right after you took this photo, and how did it go?",
            "What surprised you most about this day when you look back?",
            "What were you grateful for when this photo was taken?",
            "Which part of this moment do you hope you never forget?",
            "How does looking at this photo now change how you feel?",
            "What was on your mind in the minutes before this photo?",
            "What do you think you will remember about this in ten years?",
            "What feeling do you want to hold on to from this moment?",
            "What would this photo not show someone who was not there?",
            "What was the best part of the day this photo was taken?",
            "What were you hoping to capture when you took this photo?",
            "How would you describe this moment to someone who loves you?",
        ]
    )

    /// The other languages' photo questions, in the angles' order: a label's detail, senses, feeling, meaning, after,
    /// gratitude, future and change; the place's before, change and future; the people's.
    private static let byLanguage: [String: (label: [String], place: [String], people: [String])] = [
        "es": (
            [
                "¿Qué pequeño detalle de {} te gustaría guardar de este día?",
                "¿Qué olor o ruido de {} recuerdas de aquel momento?",
                "¿Qué te hizo sentir {} en ese momento del día?",
                "¿Qué historia hay detrás de {} en esta foto que quieras contar?",
                "¿Qué pasó justo después de ver {} aquel día?",
                "¿Por qué estás agradecido por {} en un día como este?",
                "¿Qué quieres recordar de {} dentro de muchos años?",
                "¿Qué cambió en tu día cuando apareció {} en aquel lugar?",
            ],
            [
                "¿Qué te llevó a {} el día en que tomaste esta foto?",
                "¿En qué te pareció {} distinto de como lo imaginabas?",
                "¿Qué vas a recordar más de tu paso por {}?",
            ],
            ["¿Con qué amigos o familia estabas aquí, y de qué hablaban?"]
        ),
        "fr": (
            [
                "Quel petit détail de {} aimerais-tu garder de cette journée ?",
                "Quels sons ou quelles odeurs de {} te reviennent de ce moment ?",
                "Qu'as-tu ressenti en voyant {} à ce moment-là ?",
                "Quelle histoire se cache derrière {} sur cette photo ?",
                "Que s'est-il passé juste après avoir vu {} ce jour-là ?",
                "Pour quelle raison es-tu reconnaissant envers {} aujourd'hui ?",
                "Que veux-tu retenir de {} dans de nombreuses années ?",
                "Qu'est-ce que {} a changé dans ta journée ce jour-là ?",
            ],
            [
                "Que faisais-tu juste avant d'arriver à {} ce jour-là ?",
                "En quoi {} était-il différent de ce que tu imaginais ?",
                "Que voudrais-tu te rappeler le plus de ton passage à {} ?",
            ],
            ["Qui était avec toi ici, et de quoi parliez-vous ensemble ?"]
        ),
        "it": (
            [
                "Quale piccolo dettaglio di {} vorresti conservare di questa giornata?",
                "Quali suoni o profumi di {} ti tornano in mente di quel momento?",
                "Come ti sei sentito guardando {} in quel momento?",
                "Quale storia si nasconde dietro {} in questa foto?",
                "Che cosa è successo più tardi, dopo aver visto {} quel giorno?",
                "Per quale motivo sei grato per {} in una giornata come questa?",
                "Che cosa vuoi ricordare di {} tra molti anni?",
                "In che modo {} ha cambiato la tua giornata quel giorno?",
            ],
            [
                "Che cosa facevi poco prima di arrivare a {} quel giorno?",
                "In che cosa {} era diverso da come lo immaginavi?",
                "Che cosa ricorderai di più del tuo passaggio a {}?",
            ],
            ["Chi era con te qui, e di che cosa stavate parlando insieme?"]
        ),
        "pt": (
            [
                "Que pequeno detalhe de {} você gostaria de guardar deste dia?",
                "Que sons ou cheiros de {} ainda ficaram com você daquele momento?",
                "Como você se sentiu ao ver {} naquele momento?",
                "Que história existe por trás de {} nesta foto?",
                "O que aconteceu logo depois que você viu {} naquele dia?",
                "Por que motivo você é grato por {} em um dia como este?",
                "O que você quer lembrar de {} daqui a muitos anos?",
                "Como {} mudou o dia que você viveu naquele lugar?",
            ],
            [
                "O que levou você até {} no dia desta foto?",
                "Em que {} foi diferente do que você imaginava?",
                "O que você vai lembrar mais da sua passagem por {}?",
            ],
            ["Com quais amigos ou família você estava aqui, e sobre o que falavam?"]
        ),
        "de": (
            [
                "Welches kleine Detail an {} ist dir an diesem Tag besonders aufgefallen?",
                "Welche Geräusche oder Gerüche von {} sind dir von diesem Moment geblieben?",
                "Wie hast du dich gefühlt, als du {} in diesem Moment gesehen hast?",
                "Welche Geschichte steckt hinter {} auf diesem Foto?",
                "Was hast du direkt danach erlebt, als du {} gesehen hattest?",
                "Wofür an {} bist du an diesem Tag besonders dankbar?",
                "Woran willst du dich bei {} in vielen Jahren noch erinnern?",
                "Wie hat {} deinen Tag an diesem Ort verändert?",
            ],
            [
                "Was hast du gemacht, bevor du an diesem Tag nach {} kamst?",
                "Was war an {} anders, als du es dir vorgestellt hattest?",
                "Woran wirst du dich bei {} am meisten erinnern?",
            ],
            ["Wer war hier mit dir zusammen, und worüber habt ihr gesprochen?"]
        ),
        "ja": (
            [
                "この写真の{}で、あなたが気づいた小さなことは何ですか？",
                "{}のまわりで、どんな音や香りがしていましたか？",
                "{}を見たとき、どんな気持ちになりましたか？",
                "この写真の{}は、あなたにとってどんな意味がありますか？",
                "{}を見た直後に、あなたはどこで何をしていましたか？",
                "{}について、今あなたが感謝していることは何ですか？",
                "{}のことで、何年たっても覚えていたいことは何ですか？",
                "{}に出会って、その日のあなたの何が変わりましたか？",
            ],
            [
                "{}に着く直前、あなたは何をしていましたか？",
                "{}は、あなたが想像していた場所とどう違いましたか？",
                "{}で過ごした時間のうち、いちばん覚えておきたいことは何ですか？",
            ],
            ["ここで一緒にいたのは誰で、どんな話をしていましたか？"]
        ),
        "zh-Hans": (
            [
                "关于照片里的{}，有哪个小细节是你想留住的？",
                "在{}旁边，那一刻有哪些声音和气味让你难忘？",
                "看到{}的那一刻，你的心情是怎样的？",
                "照片里的{}对现在的你来说有什么意义？",
                "看到{}之后，那天接下来发生了什么？",
                "关于{}，今天有什么让你心怀感激的地方？",
                "关于{}，多年以后你最想记住的是什么？",
                "{}给那一天的你带来了什么变化？",
            ],
            [
                "来到{}之前，你那天都在做些什么？",
                "{}和你原本想象的有什么不一样？",
                "在{}度过的时光里，你最想记住哪一刻？",
            ],
            ["当时和你一起在这里的是谁，你们在聊些什么？"]
        ),
        "zh-Hant": (
            [
                "關於照片裡的{}，有哪個小細節是你想留住的？",
                "在{}旁邊，那一刻有哪些聲音和氣味讓你難忘？",
                "看到{}的那一刻，你的心情是怎樣的？",
                "照片裡的{}對現在的你來說有什麼意義？",
                "看到{}之後，那天接下來發生了什麼？",
                "關於{}，今天有什麼讓你心懷感激的地方？",
                "關於{}，多年以後你最想記住的是什麼？",
                "{}給那一天的你帶來了什麼變化？",
            ],
            [
                "來到{}之前，你那天都在做些什麼？",
                "{}和你原本想像的有什麼不一樣？",
                "在{}度過的時光裡，你最想記住哪一刻？",
            ],
            ["當時和你一起在這裡的是誰，你們在聊些什麼？"]
        ),
        "ko": (
            [
                "사진 속 {}에서 눈에 띈 작은 부분은 무엇인가요?",
                "{} 주변에서 그때 어떤 소리나 냄새가 났나요?",
                "{} 앞에서 그 순간 어떤 기분이 들었나요?",
                "사진 속 {}, 지금의 당신에게 어떤 의미가 있나요?",
                "{} 앞에서 사진을 찍은 직후에는 무엇을 했나요?",
                "이날 {} 곁에서 가장 감사했던 것은 무엇인가요?",
                "{}에 대해 몇 년 뒤에도 기억하고 싶은 것은 무엇인가요?",
                "{} 덕분에 그날 당신의 하루는 어떻게 달라졌나요?",
            ],
            [
                "{}에 도착하기 직전에 무엇을 하고 있었나요?",
                "실제로 본 {} 풍경은 상상과 어떻게 다르게 보였나요?",
                "{}에서 보낸 시간 중 가장 기억하고 싶은 순간은 언제인가요?",
            ],
            ["여기서 누구와 함께 있었고, 무슨 이야기를 나눴나요?"]
        ),
        "ar": (
            [
                "ما التفصيل الصغير في {} الذي تود أن تحتفظ به من هذا اليوم؟",
                "ما الأصوات أو الروائح التي تحملها ذكرى {} من تلك اللحظة؟",
                "بماذا شعرت عندما رأيت {} في تلك اللحظة بالذات؟",
                "ما القصة التي تختبئ وراء {} في هذه الصورة؟",
                "ماذا حدث بعدها مباشرة، عندما رأيت {} في ذلك اليوم؟",
                "لماذا أنت ممتن اليوم لوجود {} في هذه الصورة؟",
                "ما الذي تود أن تتذكره عن {} بعد سنوات طويلة؟",
                "كيف تغير يومك بسبب {} في ذلك المكان؟",
            ],
            [
                "ماذا كنت تفعل قبل وصولك إلى {} في ذلك اليوم؟",
                "كيف كان المكان في {} مختلفا عما كنت تتخيله؟",
                "ما الذي تتذكره أكثر من أي شيء عن زيارتك إلى {}؟",
            ],
            ["من الشخص الذي كان معك هنا، وعن ماذا كنتما تتحدثان؟"]
        ),
        "hi": (
            [
                "इस तस्वीर में {} की कौन सी छोटी बारीकी आपका ध्यान खींचती है?",
                "उस पल {} के आसपास कौन सी आवाज़ें और खुशबू थीं?",
                "{} को देखकर उस पल आपने क्या महसूस किया?",
                "इस तस्वीर में {} आज आपके लिए क्या मायने रखता है?",
                "{} को देखने के ठीक बाद उस दिन क्या हुआ?",
                "आज आप {} के लिए किस बात के आभारी हैं?",
                "बरसों बाद आप {} के बारे में क्या याद रखना चाहेंगे?",
                "{} ने उस दिन आपके लिए क्या बदल दिया?",
            ],
            [
                "{} पहुँचने से ठीक पहले आप क्या कर रहे थे?",
                "{} आपकी कल्पना से किस तरह अलग था?",
                "{} में बिताए समय की कौन सी बात आप हमेशा याद रखना चाहेंगे?",
            ],
            ["यहाँ आपके साथ कौन था, और आप किस बारे में बात कर रहे थे?"]
        ),
        "th": (
            [
                "รายละเอียดเล็กๆ ของ {} ในภาพนี้ที่คุณอยากเก็บไว้คืออะไร?",
                "ตอนนั้นรอบๆ {} มีเสียงหรือกลิ่นอะไรบ้าง?",
                "ตอนที่เห็น {} คุณรู้สึกอย่างไรในช่วงเวลานั้น?",
                "{} ในภาพนี้มีความหมายกับคุณอย่างไรในตอนนี้?",
                "หลังจากเห็น {} แล้ว วันนั้นเกิดอะไรขึ้นต่อ?",
                "วันนี้คุณอยากขอบคุณอะไรเกี่ยวกับ {} มากที่สุด?",
                "อีกหลายปีข้างหน้า คุณอยากจดจำอะไรเกี่ยวกับ {}?",
                "{} ทำให้วันนั้นของคุณเปลี่ยนไปอย่างไร?",
            ],
            [
                "ก่อนจะมาถึง {} วันนั้นคุณทำอะไรอยู่?",
                "{} ต่างจากภาพที่คุณเคยนึกไว้อย่างไรบ้าง?",
                "ช่วงเวลาไหนที่ {} ที่คุณอยากจดจำไปอีกนาน?",
            ],
            ["ใครอยู่กับคุณที่นี่ และพวกคุณคุยอะไรกันอยู่?"]
        ),
    ]
}
