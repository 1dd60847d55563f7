import MomentumClient
import Testing

@Suite struct RetryPolicyTests {
    @Test func waitsDoubleUpToTheMaximumAndNeverOverflow() {
        let policy = RetryPolicy(initial: .milliseconds(500), maximum: .seconds(60))
        #expect(policy.delay(after: 1) == .milliseconds(500))
        #expect(policy.delay(after: 2) == .seconds(1))
        #expect(policy.delay(after: 3) == .seconds(2))
        #expect(policy.delay(after: 8) == .seconds(60))
        #expect(policy.delay(after: .max) == .seconds(60))
        #expect(policy.delay(after: 0) == .milliseconds(500))
        #expect(policy.delay(after: .min) == .milliseconds(500))
    }
}
