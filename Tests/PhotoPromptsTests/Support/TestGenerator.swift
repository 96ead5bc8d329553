import PromptBackends
import PromptDomain
import PromptGeneration
import PromptStores

@testable import PhotoPrompts

extension PromptGenerator {
    /// A generator over `backends` in one chain, a cache of its own in memory unless given, and a 10 s budget: the
    /// pipeline as the fast layer drives it.
    static func testing(_ backends: [any LLMBackend], cache: (any PromptCacheStore)? = nil) throws -> PromptGenerator {
        PromptGenerator(
            chain: BackendChain(backends: backends, failureThreshold: 5, coolDown: 30, clock: SystemWallClock()),
            cache: try cache ?? InMemoryDatabase().open(),
            clock: SystemWallClock(),
            timeout: .seconds(10),
            cacheTTL: 3600
        )
    }
}
