import Foundation
import PromptDomain

/// Facts derived from when and where a photo was taken, for templates (`time_of_day`, `season`, `years_ago`, …).
///
/// Local time is what matters to a person ("this evening"), so the clock reading is taken from the timestamp's own
/// offset when the app sent one (`+02:00`). A UTC timestamp (`Z`) is shifted by the longitude's solar offset
/// (15° per hour) when coordinates are known; otherwise it is used as is.
public struct PhotoMoment: Sendable, Equatable {
    /// morning (5–11 h), afternoon (12–16 h), evening (17–20 h) or night.
    public var timeOfDay: String
    /// winter, spring, summer or autumn, meteorologically; absent without a latitude, since the hemisphere decides it.
    public var season: String?
    /// Monday … Sunday, local.
    public var weekday: String
    /// Taken less than ``recentDays`` days before now.
    public var isRecent: Bool
    public var yearsAgo: Int

    public static let recentDays = 7

    /// The moment of a photo taken at `takenAt` (ISO 8601 with a zone), or `nil` without a readable timestamp.
    public init?(takenAt: String?, latitude: Double?, longitude: Double?, now: Date) {
        guard let takenAt, let timestamp = TimestampParser.components(of: takenAt), let instant = TimestampParser.date(from: timestamp)
        else { return nil }
        let offsetSeconds = timestamp.offsetSeconds ?? longitude.map { Int(($0 / 15).rounded()) * 3600 } ?? 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offsetSeconds) ?? .gmt
        let parts = calendar.dateComponents([.hour, .month, .weekday], from: instant)
        let hour = parts.hour ?? 12
        timeOfDay =
            switch hour {
            case 5..<12: "morning"
            case 12..<17: "afternoon"
            case 17..<21: "evening"
            default: "night"
            }
        weekday = Self.weekdays[((parts.weekday ?? 1) - 1) % 7]
        season = latitude.map { Season(month: parts.month ?? 1, southern: $0 < 0).rawValue }
        isRecent = now.timeIntervalSince(instant) < Double(Self.recentDays) * 86_400
        yearsAgo = max(0, calendar.dateComponents([.year], from: instant, to: now).year ?? 0)
    }

    /// The values templates see; `years_ago(_text)` only for photos a year old or more, so `{{#years_ago}}` reads well.
    package var mustacheValues: [String: Any] {
        var values: [String: Any] = ["time_of_day": timeOfDay, "weekday": weekday]
        values["season"] = season
        if isRecent { values["is_recent"] = true }
        if yearsAgo > 0 {
            values["years_ago"] = yearsAgo
            values["years_ago_text"] = yearsAgo == 1 ? "1 year ago" : "\(yearsAgo) years ago"
        }
        return values
    }

    /// English whatever the machine's locale: templates are in English; the locale only picks the answer's language.
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
