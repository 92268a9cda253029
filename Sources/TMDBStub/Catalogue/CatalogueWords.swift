/// Word lists from which the catalogue builds titles and overviews, in several scripts.
enum CatalogueWords {
    /// Words that must each match several pages of search results.
    static let featured = ["Matrix", "Star", "Love", "Night"]

    static let englishNouns = [
        "Matrix", "Star", "Love", "Night", "River", "Shadow", "Storm", "Garden", "Empire", "Dream",
        "Winter", "Summer", "Ghost", "Machine", "Island", "Mountain", "Ocean", "Fire", "City", "Road",
        "Heart", "Kingdom", "Secret", "Silence", "Thunder", "Mirror", "Angel", "Wolf", "Crown", "Harbor",
        "Desert", "Forest", "Signal", "Voyage", "Promise", "Stranger", "Letter", "Horizon", "Echo", "Moon",
    ]

    static let englishAdjectives = [
        "Last", "Dark", "Silent", "Golden", "Broken", "Hidden", "Lost", "Wild", "Eternal", "Burning",
        "Frozen", "Distant", "Little", "Crimson", "Midnight", "Electric", "Forgotten", "Endless", "Quiet", "Savage",
    ]

    static let latinWithDiacritics: [(language: String, words: [String])] = [
        ("fr", ["Rêve", "Été", "Château", "Fenêtre", "Lumière", "Forêt", "Mémoire", "Cœur", "Étoile", "Nuit"]),
        ("es", ["Niño", "Corazón", "Canción", "Mañana", "Montaña", "Estrella", "Pasión", "Camión", "Jardín", "Noche"]),
        ("de", ["Mädchen", "Größe", "Träume", "Straße", "Brücke", "Müde", "Schön", "Über", "Nacht", "Glück"]),
        ("pt", ["Coração", "Ação", "Irmã", "Canção", "Memória", "Viagem", "Sertão", "Estação", "Nação", "Mãe"]),
        ("pl", ["Łódź", "Żółw", "Gwiazda", "Miłość", "Noc", "Śnieg", "Źródło", "Księżyc", "Ćma", "Rzeka"]),
        ("tr", ["Gölge", "Ağaç", "Şehir", "Yıldız", "Gece", "Aşk", "Rüzgâr", "Dağ", "Çiçek", "Işık"]),
    ]

    static let otherScripts: [(language: String, words: [String], separator: String)] = [
        ("ru", ["Звезда", "Ночь", "Любовь", "Река", "Тень", "Город", "Зима", "Море", "Огонь", "Сердце"], " "),
        ("el", ["Αστέρι", "Νύχτα", "Αγάπη", "Θάλασσα", "Σκιά", "Πόλη", "Χειμώνας", "Φως", "Όνειρο", "Δρόμος"], " "),
        ("ja", ["星", "夜", "愛", "川", "影", "都市", "冬", "海", "火", "心"], "の"),
        ("zh", ["星星", "夜晚", "爱情", "河流", "影子", "城市", "冬天", "大海", "火焰", "心"], ""),
        ("ko", ["별", "밤", "사랑", "강", "그림자", "도시", "겨울", "바다", "불꽃", "마음"], " "),
        ("ar", ["نجمة", "ليل", "حب", "نهر", "ظل", "مدينة", "شتاء", "بحر", "نار", "قلب"], " "),
        ("hi", ["तारा", "रात", "प्यार", "नदी", "छाया", "शहर", "सर्दी", "सागर", "आग", "दिल"], " "),
    ]

    static let overviewSubjects = [
        "A retired detective", "Two estranged sisters", "A young cartographer", "An ambitious chef",
        "A reclusive inventor", "The crew of a cargo ship", "A small-town schoolteacher", "A disgraced pilot",
        "A street musician", "An aging boxer", "A team of archaeologists", "A lonely lighthouse keeper",
    ]

    static let overviewActions = [
        "uncovers a conspiracy that reaches the highest levels of power",
        "sets out on a journey across a continent torn apart by war",
        "must confront the ghosts of a past they spent decades trying to forget",
        "discovers that the quiet village they call home hides a terrible secret",
        "is drawn into a dangerous game with rules nobody will explain",
        "tries to hold a family together through one impossible winter",
        "races against time to stop a catastrophe only they can foresee",
        "falls in love with a stranger whose letters arrive from another decade",
    ]

    static let overviewTwists = [
        "As the days grow shorter and old loyalties begin to crack, every choice carries a price.",
        "What begins as a simple favour soon spirals into something far larger and far more personal.",
        "Along the way they meet allies and enemies who are rarely what they seem.",
        "Nothing in their training prepared them for the truth waiting at the end of the road.",
        "Based on a story that has been told in whispers for generations.",
        "Meanwhile, a relentless investigator closes in, determined to bring them to justice.",
        "Their only hope lies in trusting the one person they swore never to see again.",
    ]

    static let taglines = [
        "Every ending is a beginning.", "Some secrets refuse to stay buried.", "The night is only the start.",
        "Trust no one.", "Love is the last frontier.", "One choice changes everything.", "",
    ]

    static let companies: [(id: Int, name: String, country: String)] = [
        (25, "20th Century Fox", "US"), (33, "Universal Pictures", "US"), (174, "Warner Bros. Pictures", "US"),
        (4, "Paramount Pictures", "US"), (104, "Gaumont", "FR"), (5, "Columbia Pictures", "US"),
        (10342, "Studio Ghibli", "JP"), (7036, "CJ Entertainment", "KR"), (1632, "Lionsgate", "US"),
        (2251, "Mosfilm", "SU"), (8, "Fine Line Features", ""), (11161, "Yash Raj Films", "IN"),
    ]

    static let genreNames: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary",
        18: "Drama", 10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music",
        9648: "Mystery", 10749: "Romance", 878: "Science Fiction", 10770: "TV Movie", 53: "Thriller",
        10752: "War", 37: "Western",
    ]
}
