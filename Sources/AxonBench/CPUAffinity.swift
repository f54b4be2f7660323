// AxonBench — threads on CPUs of their own.

import CLinux
import Foundation

/// Places threads on CPUs for benchmarks that compare runs side by side on a small machine.
///
/// On two vCPUs a thread that saturates one core (the engine at `--fast`) shares it with whatever else runs, so its
/// tail latency counts the scheduler's choices as much as its own work. Giving it a core of its own and everything
/// else the other isolates what the comparison is about.
///
/// Threading: each call acts on the calling thread or on the whole process at that moment; any thread.
public enum CPUAffinity {
    /// CPUs the calling thread may run on now.
    public static var available: [Int] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = axon_thread_cpus(&cpus, Int32(cpus.count))
        return count > 0 ? cpus.prefix(Int(count)).map(Int.init) : []
    }

    /// Restricts the calling thread to `cpus`; false (and nothing changed) when the kernel refuses.
    @discardableResult
    public static func pinCurrentThread(to cpus: [Int]) -> Bool { set(thread: 0, cpus) }

    /// Restricts every thread the process has now to `cpus` (threads made later inherit their creator's set).
    @discardableResult
    public static func pinProcess(to cpus: [Int]) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return false }
        var all = true
        for task in tasks { if let tid = Int32(task), !set(thread: tid, cpus) { all = false } }
        return all
    }

    private static func set(thread: Int32, _ cpus: [Int]) -> Bool {
        let numbers = cpus.map { Int32($0) }
        return axon_set_thread_cpus(thread, numbers, Int32(numbers.count)) == 0
    }
}
