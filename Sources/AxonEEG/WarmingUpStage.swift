// AxonEEG — a stage ahead of the engine whose first output is not yet what the rest will be.

import AxonStreams

/// A processor ahead of the engine whose output starts unsettled — an ``ASRStage`` still calibrating on the
/// stream's first seconds passes those frames through uncleaned. An ``EEGSession`` holds a requested baseline
/// until the output of its warming-up stages has settled (``EEGProcessor/warmUpStages``), so the baseline is taken
/// on the output the rest of the stream gets.
///
/// A stage's warm-up is a prefix of its stream: once a frame leaves it settled, every later frame does.
///
/// Threading: ``warmUpFramesInLastBlock`` is read on the pipeline's consumer thread, after the stage has processed
/// a block and before the engine does; it must not lock or allocate.
public protocol WarmingUpStage: SampleProcessor {
    /// How many frames of the block the stage processed last were still warm-up output: the block's first ones.
    var warmUpFramesInLastBlock: Int { get }
}
