import PromptDomain
import PromptTemplates

extension PromptGenerator.Input {
    /// A generation outside any session, as `photo-prompts generate` and `eval` run it: the first round, nothing shown
    /// before, and no cache read, so the model is always asked.
    public static func oneOff(_ plan: RequestPlan) -> Self {
        Self(plan: plan, round: 0, alreadyShown: [], readsCache: false)
    }
}
