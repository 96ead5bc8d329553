import Foundation
import Logging

/// How log lines are written (`LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's own readable lines.
    case text
    /// One JSON object per line: `{"ts", "level", "label", "msg", …metadata}`.
    case json
    /// `ts=… level=info label=photo-prompts msg=request route=/v1/prompts status=200 …`.
    case logfmt
}

/// A swift-log handler that writes JSON lines or logfmt to standard output, for log collectors.
public struct StructuredLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let format: LogFormat

    public init(label: String, format: LogFormat) {
        self.label = label
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("ts", Date().formatted(Self.timestamp)),
            ("level", event.level.rawValue), ("label", label), ("msg", "\(event.message)"),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            fields.append((key, "\(merged[key].map { "\($0)" } ?? "")"))
        }
        let line: String
        switch format {
        case .json, .text:
            let object = Dictionary(fields) { $1 }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        case .logfmt:
            line = fields.map { "\($0.0)=\(Self.logfmtValue($0.1))" }.joined(separator: " ")
        }
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Quoted when it holds spaces, quotes or `=`, as logfmt readers expect.
    static func logfmtValue(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}
