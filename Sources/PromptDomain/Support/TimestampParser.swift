import Foundation

/// Parses the timestamps the app sends: RFC 3339 date-times (`openapi.yaml`'s `format: date-time`). Hand-written:
/// Foundation's ISO 8601 style refuses some valid RFC 3339 values (one-digit fractions, offsets past ±14:00, years
/// before 1600) that a client generated from the contract may send.
package enum TimestampParser {
    /// The date `text` names, or `nil` when it is not an RFC 3339 date-time.
    package static func date(from text: String) -> Date? {
        components(of: text).flatMap(date(from:))
    }

    package static func date(from parts: Parts) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let local = DateComponents(
            calendar: calendar,
            year: parts.year,
            month: parts.month,
            day: parts.day,
            hour: parts.hour,
            minute: parts.minute,
            // A leap second (":60") is read as the last second of its minute.
            second: min(parts.second, 59)
        )
        guard let date = calendar.date(from: local) else { return nil }
        return date.addingTimeInterval(parts.fraction - Double(parts.offsetSeconds ?? 0))
    }

    package struct Parts {
        package var year, month, day, hour, minute, second: Int
        package var fraction: Double
        /// The stated offset from UTC; `nil` for `Z`, which says "UTC" but not where the user was.
        package var offsetSeconds: Int?
    }

    /// The fields of `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, each within its range; `t` and `z` may be lower case.
    /// Scanned byte by byte: a Swift `Regex` halved cache hits (docs/BENCHMARKS.md).
    package static func components(of text: String) -> Parts? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is expected: Character...) -> Bool {
            index < bytes.count && expected.contains { $0.asciiValue == bytes[index] }
        }
        guard bytes.count >= 20, let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
            let day = number(8, 2), byte(10, is: "T", "t"), let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2),
            byte(16, is: ":"), let second = number(17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            var scale = 0.1
            index += 1
            let digitsStart = index
            while index < bytes.count, let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
        }
        let offset: Int?
        if byte(index, is: "Z", "z"), index + 1 == bytes.count {
            offset = nil
        } else if byte(index, is: "+", "-"), index + 6 == bytes.count, let hours = number(index + 1, 2), byte(index + 3, is: ":"),
            let minutes = number(index + 4, 2), (0...23).contains(hours), (0...59).contains(minutes)
        {
            offset = (hours * 3600 + minutes * 60) * (byte(index, is: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return Parts(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction, offsetSeconds: offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
