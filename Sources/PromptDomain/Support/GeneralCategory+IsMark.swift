extension Unicode.GeneralCategory {
    /// A combining mark: nonspacing, spacing or enclosing. Devanagari's vowel signs, Arabic's vowels and Thai's tone
    /// marks belong to the letter before them.
    var isMark: Bool { self == .nonspacingMark || self == .spacingMark || self == .enclosingMark }
}
