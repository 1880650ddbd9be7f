// SPDX-License-Identifier: MIT
#pragma once

// What the synthetic Kineto trace records: the training loop of a ResNet-like network (a stem,
// 4 to 8 residual blocks by seed, a linear head, cross-entropy) profiled with torch.profiler, one
// ProfilerStep#N (from 5) after another until the requested number of events is written:
//
//   ProfilerStep#N                                          user_annotation, main thread
//     Optimizer.zero_grad#SGD.zero_grad
//     enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__   the data wait, aten::stack
//     aten::to > aten::_to_copy > aten::copy_               the batch's host-to-device copies
//     ## forward ##                                         aten::conv2d > aten::convolution >
//                                                           aten::_convolution >
//                                                           aten::cudnn_convolution, ...
//     aten::ones_like                                       the backward pass's seed
//     Optimizer.step#SGD.step                               aten::_foreach_* over the parameters
//     aten::item > aten::_local_scalar_dense                the loss copied back (blocking)
//     cudaDeviceSynchronize
//   autograd::engine::evaluate_function: XxxBackward0       autograd thread, between the seed and
//     XxxBackward0 > aten::...                              the optimizer step; DDP all-reduces
//
// Every operator records its Input Dims; forward operators and their backward ones share a
// Sequence number. Qt-free.

#include "formats/kineto/synth/synthwriter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strobe::kinetosynth {

class TrainingLoop {
public:
    static constexpr std::uint64_t kFirstStep = 5; // ProfilerStep#5 is the first recorded
    static constexpr std::int64_t kBatch = 32;

    explicit TrainingLoop(SynthWriter& w);
    // Writes steps until the writer is full (the last one possibly cut short, still closed).
    void run(std::int64_t t);

private:
    // What the backward pass must undo, in forward order (autograd's tape).
    enum class Grad : std::uint8_t {
        Conv,
        BatchNorm,
        Relu,
        Add,
        MaxPool,
        AvgPool,
        Linear,
        LogSoftmax,
        NllLoss
    };
    struct TapeEntry {
        Grad grad;
        std::int64_t sequence;
        std::int64_t channels, hw, inChannels, inHw, kernel; // the layer's shape
    };
    struct Block {
        std::int64_t channels, hw;
    };

    void step(std::int64_t& t, std::uint64_t n);
    void dataLoader(std::int64_t& t);
    void batchToGpu(std::int64_t& t);
    void forward(std::int64_t& t);
    void backward(std::int64_t& t);
    void optimizerStep(std::int64_t& t);
    void lossItem(std::int64_t& t);

    // Forward layers (main thread), each recorded on the tape.
    void conv(std::int64_t& t, std::int64_t in, std::int64_t out, std::int64_t inHw,
              std::int64_t hw, std::int64_t k);
    void batchNorm(std::int64_t& t, std::int64_t c, std::int64_t hw);
    void relu(std::int64_t& t, std::int64_t c, std::int64_t hw);
    void add(std::int64_t& t, std::int64_t c, std::int64_t hw);
    void maxPool(std::int64_t& t, std::int64_t c, std::int64_t inHw, std::int64_t hw);
    void head(std::int64_t& t, std::int64_t c, std::int64_t hw);
    void loss(std::int64_t& t);
    // aten::t > aten::transpose > aten::as_strided of `matrix`.
    void transpose(std::int64_t tid, std::int64_t& t, const std::string& matrix);
    // The backward operators of one tape entry (autograd thread).
    void undo(std::int64_t& t, const TapeEntry& e);
    template <typename Body>
    void evaluate(std::int64_t& t, const char* node, const std::string& grad, std::int64_t sequence,
                  Body&& body);
    void accumulateGrad(std::int64_t& t, const std::string& param);
    void allReduce(std::int64_t& t);
    std::int64_t record(Grad g, std::int64_t c, std::int64_t hw, std::int64_t in = 0,
                        std::int64_t inHw = 0, std::int64_t k = 0);

    SynthWriter& m_w;
    std::vector<Block> m_blocks;
    std::vector<std::string> m_params; // parameter shapes, "[64, 3, 7, 7]"
    std::string m_paramList;           // "[[64, 3, 7, 7], [64], ...]"
    std::vector<TapeEntry> m_tape;
    std::int64_t m_sequence = 1000;
    int m_pendingGrads = 0; // weight gradients not yet all-reduced
};

} // namespace strobe::kinetosynth
