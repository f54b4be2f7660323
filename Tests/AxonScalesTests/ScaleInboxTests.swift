import AxonDevices
import Testing

@testable import AxonScales

/// The hand-off from the delivery thread to the command in progress.
struct ScaleInboxTests {
    @Test func queuedItemsComeInOrderAndNothingMeansNil() async {
        let inbox = ScaleInbox()
        inbox.push(.link(.connected))
        inbox.push(.link(.ready))
        guard case .link(.connected)? = await inbox.next(within: 5) else {
            Issue.record("first item")
            return
        }
        guard case .link(.ready)? = await inbox.next(within: 5) else {
            Issue.record("second item")
            return
        }
        #expect(await inbox.next(within: 0.01) == nil)
        inbox.push(.link(.closed))
        inbox.clear()
        #expect(await inbox.next(within: 0.01) == nil)
    }

    @Test func aWaiterGetsTheItemPushedFromAnotherThread() async {
        let inbox = ScaleInbox()
        let pusher = Task.detached {
            try? await Task.sleep(for: .milliseconds(20))
            inbox.push(.response(.memoryFinish))
        }
        guard case .response(.memoryFinish)? = await inbox.next(within: 30) else {
            Issue.record("no item")
            return
        }
        await pusher.value
        // The expired waiting time of the first waiter does not end a second wait early.
        inbox.push(.response(.memoryStart(count: 3)))
        guard case .response(.memoryStart(3))? = await inbox.next(within: 30) else {
            Issue.record("second")
            return
        }
    }
}
