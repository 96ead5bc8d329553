extension UInt8 {
    /// Whether this byte is an ASCII letter or digit: what the repeat key keeps and what makes a run of text a word,
    /// on the byte-by-byte paths both take for ASCII text.
    var isASCIILetterOrDigit: Bool {
        // Setting bit 0x20 lowercases an ASCII letter and leaves a digit as it is.
        (0x30...0x39).contains(self) || (0x61...0x7A).contains(self | 0x20)
    }
}
