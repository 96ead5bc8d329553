import Foundation

/// A bucket's start as ISO 8601 (`2026-11-27T05:00:00Z`), written from the UTC calendar fields directly: a year of
/// daily points for two versions is 730 of them per answer, and `Date.formatted(.iso8601)` builds a formatter each time.
enum BucketTimestamp {
    static func iso8601(_ secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var fields = tm()
        gmtime_r(&time, &fields)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(fields.tm_year + 1900)-\(two(fields.tm_mon + 1))-\(two(fields.tm_mday))T\(two(fields.tm_hour)):\(two(fields.tm_min)):\(two(fields.tm_sec))Z"
    }
}
