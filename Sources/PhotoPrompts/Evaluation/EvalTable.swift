import Foundation

/// The table `photo-prompts eval` prints: one column per template, one row per measure.
public enum EvalTable {
    /// Renders `reports` side by side.
    public static func render(_ reports: [EvalReport]) -> String {
        let languages = Set(reports.flatMap(\.passRateByLanguage.keys)).sorted()
        // One row per language, under the overall pass rate, so templates stay side by side in columns.
        let languageRows: [(String, (EvalReport) -> String)] = languages.map { language in
            ("  in \(language)", { report in report.passRateByLanguage[language].map(percent) ?? "n/a" })
        }
        let rows: [(String, (EvalReport) -> String)] =
            [
                ("template", { "\($0.template.name)@\($0.template.version)" }),
                ("fixtures", { "\($0.fixtures)" }),
                ("raw candidates", { "\($0.candidates)" }),
                ("pass rate (word rule + checks)", { percent($0.passRate) }),
            ] + languageRows + [
                ("re-ask rate", { percent($0.reaskRate) }),
                ("fallback rate", { percent($0.fallbackRate) }),
                ("duplicates within answers", { "\($0.duplicatesInAnswers)" }),
                ("prompts repeated across photos", { "\($0.repeatedAcrossPhotos)" }),
                ("near-repeats across photos", { $0.nearRepeatsAcrossPhotos.map(String.init) ?? "n/a" }),
                (
                    "answers with a near-duplicate pair",
                    { report in
                        report.nearDuplicateAnswersByLanguage.map { shares in
                            shares.sorted { $0.key < $1.key }.map { "\($0.key) \(percent($0.value))" }.joined(separator: ", ")
                        } ?? "n/a"
                    }
                ),
                ("mentions place/label/people", { $0.metadataMentionRate.map(percent) ?? "n/a" }),
                ("tokens per photo", { $0.tokensPerPhoto.map { String(format: "%.0f", $0) } ?? "n/a" }),
                ("latency p50 / p95", { String(format: "%.0f ms / %.0f ms", $0.latencyP50Ms, $0.latencyP95Ms) }),
                (
                    "top rejections",
                    { report in
                        let top = report.rejections.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3)
                        return top.isEmpty ? "none" : top.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                    }
                ),
            ]
        let cells = rows.map { row in [row.0] + reports.map(row.1) }
        let widths = (0...reports.count).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    private static func percent(_ value: Double) -> String {
        String(format: "%.1f %%", value * 100)
    }
}
