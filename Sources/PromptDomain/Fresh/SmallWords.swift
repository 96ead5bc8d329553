/// Words that do not make one question different from another, per language: articles, pronouns, prepositions,
/// auxiliaries, conjunctions, and the words of dates, times and counts ("What did you do on Tuesday at Boston?").
/// Question words are not small: "Who was with you?" and "What was with you?" differ. Closed grammar classes, kept
/// here lower-cased and, for Latin script, without accents (``PromptSignature`` folds them).
enum SmallWords {
    static func contains(_ word: String, language: String) -> Bool {
        lists[language]?.contains(word) ?? false
    }

    /// Whether `stem` is a small word's stem: the lists name one form ("estaba"), the stem catches others ("estaban").
    static func containsStem(_ stem: String, language: String) -> Bool {
        stems[language]?.contains(stem) ?? false
    }

    /// The lists' stems, per language that has a stemmer, worked out on first use; read without a lock.
    private static let stems: [String: Set<String>] = lists.reduce(into: [:]) { stems, entry in
        guard let stemmer = Stemmer.for(entry.key) else { return }
        stems[entry.key] = Set(entry.value.map { stemmer.stem(stemmer.stem($0)) })
    }

    private static let lists: [String: Set<String>] = [
        "en": words(
            """
            a an the this that these those it its of in on at to for from with by about as into onto over under up down out off
            near and or but so if than then also just very really too you your yours yourself we our us i me my he she they them
            their his her there here is are was were be been being am do does did doing done have has had having will would can
            could should shall may might must today tonight yesterday tomorrow morning afternoon evening night day days week
            weekend month year years ago now last next monday tuesday wednesday thursday friday saturday sunday january february
            march april june july august september october november december one two three four five six seven eight nine ten
            first second third some any all any
            """
        ),
        "es": words(
            """
            el la los las un una unos unas lo al del de en a con por para sobre entre hasta desde y e o u pero que si se te tu tus
            ti ti contigo usted su sus mi mis me nos nuestro nuestra este esta estos estas ese esa esos esas eso esto aqui ahi
            alli es son era eran fue fueron ser estar estaba estabas estas esta has ha habia hay hizo hiciste hacer haces muy mas
            tan tambien ya hoy ayer manana noche tarde dia dias semana mes ano anos hace ahora lunes martes miercoles jueves
            viernes sabado domingo uno dos tres cuatro cinco seis siete ocho nueve diez primer primera
            """
        ),
        "pt": words(
            """
            o a os as um uma uns umas ao aos do da dos das de em no na nos nas num numa com por pelo pela para sobre entre ate
            desde e ou mas que se te tu contigo voce voces seu sua seus suas teu tua meu minha nosso nossa este esta estes estas esse essa
            isso isto aqui ali la e sao era eram foi foram ser estar estava estavas tem tinha ha fez fazer muito mais tao tambem
            ja hoje ontem amanha noite tarde manha dia dias semana mes ano anos agora segunda terca quarta quinta sexta sabado
            domingo feira um dois tres quatro cinco seis sete oito nove dez primeiro primeira
            """
        ),
        "fr": words(
            """
            le la les l un une des du de d au aux en a dans sur sous avec par pour entre chez vers et ou mais que qu si se s te t
            tu toi vous votre vos ton ta tes ce cet cette ces ca cela ceci ici la est sont etait etaient ete etre avoir as a
            avais avez fait faire tres plus aussi deja aujourd hui aujourd'hui hier demain matin soir soiree nuit jour jours
            journee semaine mois an ans annee maintenant lundi mardi mercredi jeudi vendredi samedi dimanche un deux trois quatre
            cinq six sept huit neuf dix premier premiere ne n pas y il elle on nous je me m
            """
        ),
        "de": words(
            """
            der die das den dem des ein eine einen einem einer eines zu zum zur in im an am auf aus bei mit von vom fur uber unter
            nach vor und oder aber dass wenn als ob du dich dir dein deine deinen deinem deiner ihr euch sie sich es er wir uns
            ich mich mir mein meine dies diese dieser dieses diesem diesen hier da dort ist sind war waren bist warst sein
            gewesen hat hast hatte hattest haben wird wirst wurde wurdest kannst konntest sehr noch auch schon heute gestern
            morgen abend nacht tag tage tages woche monat jahr jahre jetzt montag dienstag mittwoch donnerstag freitag samstag
            sonntag eins zwei drei vier funf sechs sieben acht neun zehn erste ersten
            """
        ),
        "it": words(
            """
            il lo la i gli le l un uno una un' del dello della dei degli delle di d a al allo alla ai agli alle da dal dalla in nel
            nella nei con su sul sulla per tra fra e ed o ma che se si ti te tu tuo tua tuoi tue vi voi ci noi mi me questo
            questa questi queste quel quella qui qua li la e sono era erano stato stata sei eri essere hai ha avevi avere fatto
            fare molto piu anche gia oggi ieri domani mattina sera notte giorno giorni giornata settimana mese anno anni ora
            lunedi martedi mercoledi giovedi venerdi sabato domenica due tre quattro cinque sei sette otto nove dieci primo prima secondo seconda
            """
        ),
        "nl": words(
            """
            de het een van in op aan met voor bij uit naar over onder en of maar dat als je jij jou jouw u uw we wij ons onze ik
            mij mijn dit deze die hier daar er is zijn was waren ben bent heb hebt heeft had hadden zou kan kon zeer nog ook al
            vandaag gisteren morgen avond nacht dag dagen week maand jaar jaren nu maandag dinsdag woensdag donderdag vrijdag
            zaterdag zondag twee drie vier vijf zes zeven acht negen tien eerste
            """
        ),
        "ar": words(
            """
            في من إلى على عن مع هذا هذه ذلك تلك هنا هناك و أو ثم لكن أن إن كان كانت كنت يكون هو هي أنت انت أنتم نحن لك لكِ بك
            اليوم أمس غدا غداً صباح الصباح مساء المساء ليلة الليلة يوم الأيام أسبوع شهر سنة عام الآن قد لقد ما زال كل بعض
            الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت الأحد واحد اثنان ثلاثة أربعة خمسة
            """
        ),
        "hi": words(
            """
            का की के को में से पर ने और या लेकिन कि यह ये वह वे इस उस इन उन यहाँ वहाँ है हैं था थी थे हो होता होती होते हुआ हुई
            हुए रहा रही रहे गया गई गए आप आपका आपकी आपके आपको तुम तुम्हारा तुम्हारी हम हमारा मैं मेरा मेरी भी ही तो बहुत आज कल
            सुबह शाम रात दिन हफ़्ते हफ्ते महीने साल अब सोमवार मंगलवार बुधवार गुरुवार शुक्रवार शनिवार रविवार एक दो तीन चार पाँच
            """
        ),
        "ja": words(
            """
            の は が を に へ と で や も か ね よ な から まで より この その あの ここ そこ これ それ あなた 君 私 です でした ます
            ました だ だっ た て い いる ある あり する し して なっ 今日 昨日 明日 朝 昼 夜 夕方 日 週 月 年 今 月曜日 火曜日
            水曜日 木曜日 金曜日 土曜日 日曜日 一 二 三
            """
        ),
        "zh": words(
            """
            的 了 在 是 你 您 我 他 她 们 你们 这 那 这个 那个 這 這個 那個 和 與 与 跟 也 都 就 有 過 过 着 著 吗 嗎 呢 吧 啊 很
            今天 昨天 明天 早上 上午 下午 晚上 天 週 周 月 年 現在 现在 星期一 星期二 星期三 星期四 星期五 星期六 星期日 一 二 三 个 個
            """
        ),
        "ko": words(
            """
            이 그 저 이것 그것 여기 거기 당신 당신은 당신이 당신의 당신을 당신에게 너 너는 네가 너의 우리 우리는 나 나는 제 저는
            것 수 있 있나요 있었나요 있어요 있었어요 했나요 했어요 하나요 그리고 또 또는 하지만 오늘 어제 내일 아침 저녁 밤 날 날에
            주 주말 달 해 년 지금 월요일 화요일 수요일 목요일 금요일 토요일 일요일 하나 둘 셋 그날 이날
            """
        ),
        "th": words(
            """
            ที่ ของ ใน และ กับ ให้ ได้ ไป มา เป็น อยู่ คือ จะ ก็ นี้ นั้น นี่ คุณ เรา ฉัน ผม เขา บ้าง ไหม หรือ แต่ ว่า มี ครับ ค่ะ
            คะ นะ แล้ว วันนี้ เมื่อวาน พรุ่งนี้ เช้า เย็น กลางคืน คืน วัน สัปดาห์ เดือน ปี ตอนนี้ จันทร์ อังคาร พุธ พฤหัสบดี ศุกร์
            เสาร์ อาทิตย์ หนึ่ง สอง สาม ตอน เมื่อ วาน
            """
        ),
    ]

    private static func words(_ text: String) -> Set<String> {
        Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
    }
}
