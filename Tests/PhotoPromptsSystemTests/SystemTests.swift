import PhotoPromptsTestSupport
import Testing

/// The system layer: every suite here is nested in this one, so its test cases share five slots (see
/// `LimitedParallelism`) while the fast layer runs in parallel beside them. No test case may take more than three
/// minutes (the slowest, a lease or a real model, takes under 30 s): a hang fails its test and names it.
@Suite(.limitedParallelism(width: 5), .timeLimit(.minutes(3))) enum SystemTests {}
