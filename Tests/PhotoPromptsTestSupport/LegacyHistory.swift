/// The history as migrations v7 and v8 wrote it, for the tests of migration v9 on SQLite and PostgreSQL.
public enum LegacyHistory {
    /// Two answers as v7 wrote them: keys as 16 hex digits, signatures as 8 hex digits a term, comma-joined; the
    /// second answer's last prompt has no terms. The oracle is the table itself, read as numbers.
    public static let rows: [(keys: String, signatures: String, shownAt: Double)] = [
        ("00000000000000ff,0123456789abcdef", "0000000a0000000b,ffffffff", 2_000),
        ("fedcba9876543210,1111111111111111", "00000001,", 1_000),
    ]
    /// The same entries as numbers, newest first, as a history read returns them.
    public static let expected: [(key: UInt64, terms: [UInt32], shownAt: Double)] = [
        (0xff, [0xa, 0xb], 2_000), (0x0123_4567_89ab_cdef, [0xffff_ffff], 2_000),
        (0xfedc_ba98_7654_3210, [1], 1_000), (0x1111_1111_1111_1111, [], 1_000),
    ]
}
