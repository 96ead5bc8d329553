import PromptDomain
import PromptTemplates

extension PromptGenerator.Input {
    /// A one-off generation (`generate`, `eval`): round 0, nothing shown before, no cache read, so the model is asked.
    public static func oneOff(_ plan: RequestPlan) -> Self {
        Self(plan: plan, round: 0, alreadyShown: [], readsCache: false)
    }
}
