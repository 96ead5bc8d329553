import Logging
import PromptGeneration
import PromptTemplates

/// Runs every fixture through the full pipeline once, a few at a time, skipping the cache: an evaluation measures
/// the template and the model, not yesterday's answers.
public struct EvalRunner: Sendable {
    let generator: PromptGenerator
    let concurrency: Int

    public init(generator: PromptGenerator, concurrency: Int) {
        self.generator = generator
        self.concurrency = max(1, concurrency)
    }

    /// Evaluates `template` over `fixtures`, each in its own language; `progress` gets the count done after each.
    public func run(
        _ template: PromptTemplate,
        copy: CopyCatalog,
        over fixtures: [EvalFixture],
        logger: Logger,
        progress: @Sendable (Int) -> Void = { _ in }
    ) async -> EvalReport {
        let outcomes = await withTaskGroup(of: (Int, Generation, Duration).self) { group in
            var results: [(Int, Generation, Duration)] = []
            var next = 0
            func startNext() {
                guard next < fixtures.count else { return }
                let index = next
                let request = fixtures[index].request
                next += 1
                group.addTask {
                    let plan = RequestPlan.oneOff(template, copy: copy, photo: request.photo, language: request.locale)
                    let input = PromptGenerator.Input.oneOff(plan)
                    let (generation, latency) = await measured { await generator.generate(input, logger: logger) }
                    return (index, generation, latency)
                }
            }
            for _ in 0..<concurrency { startNext() }
            while let result = await group.next() {
                results.append(result)
                progress(results.count)
                startNext()
            }
            return results.sorted { $0.0 < $1.0 }
        }
        return EvalReport(template: template.identity, outcomes: outcomes.map { (fixtures[$0.0], $0.1, $0.2) })
    }
}
