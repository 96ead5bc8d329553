import Foundation
import PhotoPromptsTestSupport
import PromptDomain
import PromptStores
import Testing

/// What the operators' console reads: stats per language summed into buckets, the versions' spans, their files,
/// and stored eval runs, on every store.
extension SystemTests.StoreContractTests {

    @Test("Stats counted by two instances add up in the same hourly rows, per language", arguments: StoreKind.withTwin)
    func statsAddUp(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let instances = [try await database.open(), try await database.open()]
            let template = TemplateIdentity(name: "photo-journal", version: "v-abc")
            let bucket = StatsCounter.bucket(for: Self.now)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for attempt in 0..<10 {
                    group.addTask {
                        try await instances[attempt % 2].addStats([
                            StatsCounter(bucket: bucket, template: template, language: attempt < 6 ? "es" : "ja", name: "requests", value: 2),
                            StatsCounter(bucket: bucket, template: template, language: "es", name: "sessions", value: 1),
                        ])
                    }
                }
                try await group.waitForAll()
            }
            let hour = StatsQuery(template: "photo-journal", from: Self.now, to: Self.now.addingTimeInterval(3600))
            let all = try await instances[0].stats(hour)
            #expect(Self.sums(all) == ["requests": 20, "sessions": 10])
            #expect(all.allSatisfy { $0.template == template && $0.bucket == bucket && $0.language == "" })

            var spanish = hour
            spanish.languages = .one("es")
            #expect(Self.sums(try await instances[1].stats(spanish)) == ["requests": 12, "sessions": 10])
            var each = hour
            each.languages = .each
            let byLanguage = Dictionary(grouping: try await instances[0].stats(each), by: \.language).mapValues(Self.sums)
            #expect(byLanguage == ["es": ["requests": 12, "sessions": 10], "ja": ["requests": 8]])

            var other = hour
            other.template = "other"
            #expect(try await instances[0].stats(other).isEmpty)
            for store in instances { try await store.close() }
        }
    }

    @Test("Hours sum into UTC days in the store, and a version's span is its first and last hour", arguments: StoreKind.withTwin)
    func dailyBucketsAndSpans(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let store = try await database.open()
            let old = TemplateIdentity(name: "photo-journal", version: "v-old")
            let new = TemplateIdentity(name: "photo-journal", variant: "photo-journal-b", version: "v-new")
            let day = StatsCounter.bucket(for: Self.now) / 86_400 * 86_400
            var counters: [StatsCounter] = []
            for hour in [1, 5, 23, 25] {  // three hours of one day, and one of the next
                counters.append(StatsCounter(bucket: day + hour * 3600, template: old, language: "en", name: "requests", value: hour))
            }
            counters.append(StatsCounter(bucket: day + 3 * 3600, template: new, language: "fr", name: "sessions", value: 4))
            try await store.addStats(counters)

            let query = StatsQuery(
                template: "photo-journal",
                from: Date(timeIntervalSince1970: Double(day)),
                to: Self.now.addingTimeInterval(3 * 86_400),
                bucketSeconds: 86_400
            )
            let days = try await store.stats(query).filter { $0.template == old }
            #expect(days.map(\.bucket) == [day, day + 86_400])
            #expect(days.map(\.value) == [1 + 5 + 23, 25])
            // The daily sums the store keeps as it writes give the same days, from the midnight before `from`.
            var daily = query
            daily.resolution = .day
            daily.from = Date(timeIntervalSince1970: Double(day + 7200))
            let kept = try await store.stats(daily).filter { $0.template == old }
            #expect(kept.map(\.bucket) == [day, day + 86_400])
            #expect(kept.map(\.value) == [1 + 5 + 23, 25])

            let spans = try await store.versionSpans(template: "photo-journal")
            #expect(
                spans == [
                    VersionSpan(template: old, firstBucket: day + 3600, lastBucket: day + 25 * 3600, requests: 54, sessions: 0),
                    VersionSpan(template: new, firstBucket: day + 3 * 3600, lastBucket: day + 3 * 3600, requests: 0, sessions: 4),
                ]
            )
            try await store.close()
        }
    }

    @Test("A template version's files are kept once, as first seen; eval runs come back newest first", arguments: StoreKind.withTwin)
    func archive(kind: StoreKind) async throws {
        try await withTestDatabase(kind) { database in
            let instances = [try await database.open(), try await database.open()]
            let identity = TemplateIdentity(name: "photo-journal", variant: "photo-journal-b", version: "v-1")
            let first = TemplateVersionFiles(template: identity, files: ["system.mustache": "Ask one thing ✓"], firstSeen: Self.now)
            var later = first
            later.files = ["system.mustache": "changed"]
            later.firstSeen = Self.now.addingTimeInterval(60)
            try await instances[0].archiveTemplateVersions([first])
            try await instances[1].archiveTemplateVersions([later])
            #expect(try await instances[1].templateVersions(template: "photo-journal") == [first])
            #expect(try await instances[0].templateVersions(template: "other").isEmpty)

            for (index, id) in ["ev_1", "ev_2", "ev_3"].enumerated() {
                try await instances[index % 2].saveEvalRun(
                    id: id,
                    at: Self.now.addingTimeInterval(Double(index)),
                    report: Data("{\"id\":\"\(id)\"}".utf8)
                )
            }
            let runs = try await instances[0].evalRuns(limit: 2)
            #expect(runs.map(\.id) == ["ev_3", "ev_2"])
            #expect(runs.first?.report == Data("{\"id\":\"ev_3\"}".utf8))
            for store in instances { try await store.close() }
        }
    }

    private static func sums(_ counters: [StatsCounter]) -> [String: Int] {
        counters.reduce(into: [:]) { $0[$1.name, default: 0] += $1.value }
    }
}
