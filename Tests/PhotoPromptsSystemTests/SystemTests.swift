import PhotoPromptsTestSupport
import Testing

/// The system layer: every suite here is nested in this one, so its test cases share five slots (see
/// `LimitedParallelism`) while the fast layer runs in parallel beside them.
@Suite(.limitedParallelism(width: 5)) enum SystemTests {}
