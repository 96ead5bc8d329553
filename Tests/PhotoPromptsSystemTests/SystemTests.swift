import Testing

/// The system layer: every suite here is nested in this one, so under plain `swift test` they run one test at a time
/// (`.serialized` reaches nested suites) while the fast layer runs in parallel beside them. Several tests check that
/// an answer arrives within the deadline + 0.5 s; on two cores, dozens of live services, stub models and child
/// processes at once starve the one being timed, and a test that blocks a thread starves Swift's small pool.
@Suite(.serialized) enum SystemTests {}
