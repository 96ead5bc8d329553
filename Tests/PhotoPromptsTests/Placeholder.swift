import Testing
import HummingbirdTesting
@Test func placeholder() { #expect(true) }
