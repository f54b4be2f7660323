import Foundation

extension BandSession {
    /// Reads every schedule the band holds, whoever wrote it (another phone too: the seed's `readSchedule`), and
    /// takes it as what the band holds: ``schedules`` becomes it, and with a store it is stored (stream
    /// `Band schedules`) before this returns, so later sessions and commands check the seed's rules against it.
    ///
    /// - Throws: ``BandError/transport(_:)``, ``BandError/timedOut(what:seconds:)``, ``BandError/store(_:)``,
    ///   ``BandError/closed``.
    @discardableResult
    public func readSchedules() async throws(BandError) -> BandScheduleBook {
        lastActivity = Date()
        let list: [BandSchedule]
        do {
            list = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<[BandSchedule], any Error>) in
                scheduleListWaiter?.resume(throwing: BandError.closed)
                scheduleEntries = [:]
                scheduleListWaiter = continuation
                Task { await self.writeForAnswer(.readSchedules) }
            }
        } catch let error as BandError {
            throw error
        } catch {
            throw .transport(.operationFailed("\(error)", cause: error))
        }
        let book = BandScheduleBook(list)
        if book != schedules, let store {
            do { try store.saveSchedules(book) } catch { throw .store(error) }
        }
        schedules = book
        return book
    }

    /// Asks the band how many schedules it holds and how many of `date`'s four are used and free (the seed's
    /// `readScheduleInfo`).
    ///
    /// - Throws: ``BandError/transport(_:)``, ``BandError/timedOut(what:seconds:)``, ``BandError/closed``.
    public func readScheduleInfo(on date: BandDate) async throws(BandError) -> BandScheduleInfo {
        lastActivity = Date()
        do {
            return try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<BandScheduleInfo, any Error>) in
                scheduleInfoWaiter?.resume(throwing: BandError.closed)
                scheduleInfoWaiter = continuation
                Task { await self.writeForAnswer(.readScheduleInfo(date)) }
            }
        } catch let error as BandError {
            throw error
        } catch {
            throw .transport(.operationFailed("\(error)", cause: error))
        }
    }

    private func writeForAnswer(_ command: BandCommand) async {
        do { try await write(command) } catch { failAnswerWaiters(error) }
    }

    private func failAnswerWaiters(_ error: BandError) {
        scheduleInfoWaiter?.resume(throwing: error)
        scheduleInfoWaiter = nil
        scheduleListWaiter?.resume(throwing: error)
        scheduleListWaiter = nil
        scheduleEntries = [:]
    }
}
