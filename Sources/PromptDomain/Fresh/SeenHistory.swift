import Foundation

/// What a user was shown inside the history's window, as the store reads it back: keys, times and signature terms in
/// flat arrays, not 900 allocations; a prompt is a ``SeenPrompt`` again only when asked for.
public struct SeenHistory: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// Each prompt's key (``SeenPrompt/key``).
    public private(set) var keys: [UInt64] = []
    public private(set) var shownAt: [Date] = []
    /// Every prompt's signature terms, end to end: prompt `i`'s end at `ends[i]`, where prompt `i + 1`'s begin.
    package private(set) var terms: [UInt32] = []
    package private(set) var ends: [Int] = []
    /// Each prompt's ``SeenPrompt/photoTerms``.
    package private(set) var photoTerms: [UInt32] = []

    public init() {}

    public init(_ records: some Sequence<SeenPrompt>) {
        for record in records { append(record) }
    }

    public init(arrayLiteral records: SeenPrompt...) {
        self.init(records)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }

    public subscript(position: Int) -> SeenPrompt {
        let start = position == 0 ? 0 : ends[position - 1]
        return SeenPrompt(
            key: keys[position],
            signature: PromptSignature(terms: Array(terms[start..<ends[position]])),
            shownAt: shownAt[position],
            photoTerms: photoTerms[position]
        )
    }

    public mutating func append(_ record: SeenPrompt) {
        keys.append(record.key)
        shownAt.append(record.shownAt)
        terms += record.signature.terms
        ends.append(terms.count)
        photoTerms.append(record.photoTerms)
    }
}

extension SeenHistory {
    /// The stored form of one answer's `prompts`: per prompt its key (8 bytes), the number of its signature's terms
    /// (1 byte), the terms (4 bytes each), all big-endian, as PostgreSQL's migration `v9` wrote the older hex columns.
    /// A prompt that names the photo sets the count's top bit and ends with its ``SeenPrompt/photoTerms`` (4 bytes):
    /// rows written before have no such bit, and read as frames of all their terms.
    public static func packed(_ prompts: [SeenPrompt]) -> Data {
        var bytes: [UInt8] = []
        for prompt in prompts {
            let terms = prompt.signature.terms.prefix(Int(Self.photoFlag - 1))
            withUnsafeBytes(of: prompt.key.bigEndian) { bytes += $0 }
            bytes.append(UInt8(terms.count) | (prompt.photoTerms == 0 ? 0 : Self.photoFlag))
            for term in terms { withUnsafeBytes(of: term.bigEndian) { bytes += $0 } }
            if prompt.photoTerms != 0 { withUnsafeBytes(of: prompt.photoTerms.bigEndian) { bytes += $0 } }
        }
        return Data(bytes)
    }

    private static let photoFlag: UInt8 = 0x80

    /// Adds the prompts of one stored answer (``packed(_:)``), shown at `date`. Bytes that end early end the list.
    public mutating func append(packed bytes: UnsafeRawBufferPointer, shownAt date: Date) {
        var offset = 0
        func next<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            defer { offset += MemoryLayout<T>.size }
            return T(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        while let key = next(UInt64.self), let stored = next(UInt8.self) {
            let (count, namesPhoto) = (Int(stored & ~Self.photoFlag), stored & Self.photoFlag != 0)
            guard offset + count * 4 + (namesPhoto ? 4 : 0) <= bytes.count else { return }
            for _ in 0..<count { if let term = next(UInt32.self) { terms.append(term) } }
            keys.append(key)
            shownAt.append(date)
            ends.append(terms.count)
            photoTerms.append(namesPhoto ? next(UInt32.self) ?? 0 : 0)
        }
    }
}
