// SPDX-License-Identifier: MIT
#include "formats/kineto/synth/trainingloop.h"

#include "formats/kineto/synth/synthkernels.h"

#include <initializer_list>

namespace strobe::kinetosynth {

namespace {

using namespace kernels;

constexpr std::int64_t kMain = SynthWriter::kMainTid, kAutograd = SynthWriter::kAutogradTid;
constexpr std::int64_t kClasses = 1000;
constexpr std::int64_t kGradientBytes = 8 << 20; // per bucketed weight in job traces
constexpr const char* kModuleFrame = "torch/nn/modules/module.py(1501): _call_impl";

// A tensor's shape as Input Dims writes it: "[32, 64, 56, 56]".
std::string shape(std::initializer_list<std::int64_t> dims) {
    std::string s = "[";
    for (const std::int64_t d : dims) {
        if (s.size() > 1)
            s += ", ";
        s += std::to_string(d);
    }
    return s + ']';
}

// An operator's Input Dims: its arguments' shapes, then `scalars` non-tensor arguments ("[]").
std::string dims(std::initializer_list<std::string> tensors, int scalars = 0) {
    std::string s = "[";
    for (const std::string& t : tensors) {
        if (s.size() > 1)
            s += ", ";
        s += t;
    }
    for (int i = 0; i < scalars; ++i)
        s += s.size() > 1 ? ", []" : "[]";
    return s + ']';
}

std::string activation(std::int64_t c, std::int64_t hw) {
    return shape({TrainingLoop::kBatch, c, hw, hw});
}

// Elements of an activation relative to the first block's (32 x 64 x 56 x 56): what an
// elementwise kernel's time scales with.
double elements(std::int64_t c, std::int64_t hw) {
    return double(c * hw * hw) / double(64 * 56 * 56);
}

} // namespace

TrainingLoop::TrainingLoop(SynthWriter& w)
    : m_w(w) {
    // The network: 4 to 8 residual blocks over four stages (64 channels at 56 x 56 doubling as
    // the side halves), its parameters' shapes for the optimizer's tensor lists.
    const auto blocks = std::int64_t(4 + m_w.rng().below(5));
    m_params.push_back(shape({64, 3, 7, 7}));
    m_params.push_back(shape({64}));
    for (std::int64_t b = 0; b < blocks; ++b) {
        const std::int64_t stage = b * 4 / blocks;
        const Block block{64 << stage, 56 >> stage};
        m_blocks.push_back(block);
        for (int k = 0; k < 2; ++k) {
            m_params.push_back(shape({block.channels, block.channels, 3, 3}));
            m_params.push_back(shape({block.channels}));
        }
    }
    m_params.push_back(shape({kClasses, m_blocks.back().channels}));
    m_params.push_back(shape({kClasses}));
    m_paramList = "[";
    for (const std::string& p : m_params)
        m_paramList += (m_paramList.size() > 1 ? ", " : "") + p;
    m_paramList += ']';
}

void TrainingLoop::run(std::int64_t t) {
    m_w.startClock(t);
    for (std::uint64_t n = kFirstStep; !m_w.full(); ++n) {
        step(t, n);
        t += m_w.rng().around(2000, 2000);
    }
}

void TrainingLoop::step(std::int64_t& t, std::uint64_t n) {
    m_tape.clear();
    ++m_w.stats().steps;
    m_w.annotation(kMain, t, "ProfilerStep#" + std::to_string(n), [&] {
        m_w.annotation(kMain, t, "Optimizer.zero_grad#SGD.zero_grad", [] {});
        dataLoader(t);
        batchToGpu(t);
        m_w.annotation(kMain, t, "## forward ##", [&] { forward(t); });
        if (!m_tape.empty())
            backward(t);
        if (!m_w.full())
            m_w.annotation(kMain, t, "Optimizer.step#SGD.step", [&] { optimizerStep(t); });
        lossItem(t);
        m_w.deviceSynchronize(kMain, t);
    });
}

void TrainingLoop::dataLoader(std::int64_t& t) {
    Rng& rng = m_w.rng();
    m_w.annotation(kMain, t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", [&] {
        // Reading and decoding the batch: 1 to 4 ms, one step in sixteen a 15 ms stall. The GPU
        // has nothing to do meanwhile.
        t += rng.around(1000000, 3000000) + (rng.below(16) == 0 ? 15000000 : 0);
        std::string images = "[";
        for (std::int64_t i = 0; i < kBatch; ++i)
            images += i ? ", [3, 224, 224]" : "[3, 224, 224]";
        images += ']';
        const std::string stacked = dims({images}, 1);
        m_w.op(kMain, t, "aten::stack", stacked, [&] { m_w.leaf(kMain, t, "aten::cat", stacked); });
        const std::string labels = dims({shape({kBatch})}, 4);
        m_w.op(kMain, t, "aten::to", labels, [&] {
            m_w.op(kMain, t, "aten::_to_copy", dims({shape({kBatch})}, 6), [&] {
                m_w.leaf(kMain, t, "aten::empty_strided", dims({}, 6));
                m_w.leaf(kMain, t, "aten::copy_", dims({shape({kBatch}), shape({kBatch})}, 1));
            });
        });
    });
}

void TrainingLoop::batchToGpu(std::int64_t& t) {
    struct Copy {
        std::string tensor;
        std::int64_t bytes;
    };
    for (const Copy& c : {Copy{shape({kBatch, 3, 224, 224}), kBatch * 3 * 224 * 224 * 4},
                          Copy{shape({kBatch}), kBatch * 8}}) {
        m_w.op(kMain, t, "aten::to", dims({c.tensor}, 5), [&] {
            m_w.op(kMain, t, "aten::_to_copy", dims({c.tensor}, 6), [&] {
                m_w.leaf(kMain, t, "aten::empty_strided", dims({}, 6));
                m_w.op(kMain, t, "aten::copy_", dims({c.tensor, c.tensor}, 1),
                       [&] { m_w.memcpy(kMain, t, true, c.bytes); });
            });
        });
    }
}

std::int64_t TrainingLoop::record(Grad g, std::int64_t c, std::int64_t hw, std::int64_t in,
                                  std::int64_t inHw, std::int64_t k) {
    const std::int64_t sequence = ++m_sequence;
    m_tape.push_back(TapeEntry{g, sequence, c, hw, in, inHw, k});
    return sequence;
}

void TrainingLoop::forward(std::int64_t& t) {
    m_w.pythonFrame(kMain, t, kModuleFrame, [&] { // the stem
        conv(t, 3, 64, 224, 112, 7);
        batchNorm(t, 64, 112);
        relu(t, 64, 112);
        maxPool(t, 64, 112, 56);
    });
    std::int64_t c = 64, hw = 56;
    for (const Block& b : m_blocks) {
        if (m_w.full())
            return;
        m_w.pythonFrame(kMain, t, kModuleFrame, [&] {
            conv(t, c, b.channels, hw, b.hw, 3);
            batchNorm(t, b.channels, b.hw);
            relu(t, b.channels, b.hw);
            conv(t, b.channels, b.channels, b.hw, b.hw, 3);
            batchNorm(t, b.channels, b.hw);
            add(t, b.channels, b.hw);
            relu(t, b.channels, b.hw);
        });
        c = b.channels;
        hw = b.hw;
    }
    if (m_w.full())
        return;
    m_w.pythonFrame(kMain, t, kModuleFrame, [&] { head(t, c, hw); });
    m_w.pythonFrame(kMain, t, kModuleFrame, [&] { loss(t); });
}

void TrainingLoop::conv(std::int64_t& t, std::int64_t in, std::int64_t out, std::int64_t inHw,
                        std::int64_t hw, std::int64_t k) {
    const std::string x = activation(in, inHw), w = shape({out, in, k, k});
    // Multiply-adds relative to a 3x3 convolution of the first block.
    const double scale = double(out * hw * hw * in * k * k) / double(64 * 56 * 56 * 64 * 9);
    const std::int64_t sequence = record(Grad::Conv, out, hw, in, inHw, k);
    m_w.op(
        kMain, t, "aten::conv2d", dims({x, w}, 5),
        [&] {
            m_w.op(kMain, t, "aten::convolution", dims({x, w}, 7), [&] {
                m_w.op(kMain, t, "aten::_convolution", dims({x, w}, 11), [&] {
                    m_w.op(kMain, t, "aten::cudnn_convolution", dims({x, w}, 6), [&] {
                        m_w.leaf(kMain, t, "aten::empty", dims({}, 6));
                        m_w.kernel(kMain, t, kConvFprop, scale);
                    });
                });
            });
        },
        sequence);
}

void TrainingLoop::batchNorm(std::int64_t& t, std::int64_t c, std::int64_t hw) {
    const std::string x = activation(c, hw), v = shape({c});
    const std::int64_t sequence = record(Grad::BatchNorm, c, hw);
    m_w.op(
        kMain, t, "aten::batch_norm", dims({x, v, v, v, v}, 4),
        [&] {
            m_w.op(kMain, t, "aten::_batch_norm_impl_index", dims({x, v, v, v, v}, 4), [&] {
                m_w.op(kMain, t, "aten::cudnn_batch_norm", dims({x, v, v, v, v}, 3), [&] {
                    m_w.leaf(kMain, t, "aten::empty_like", dims({x}, 5));
                    m_w.kernel(kMain, t, kBnForward, elements(c, hw));
                });
            });
        },
        sequence);
}

void TrainingLoop::relu(std::int64_t& t, std::int64_t c, std::int64_t hw) {
    const std::string x = activation(c, hw);
    const std::int64_t sequence = record(Grad::Relu, c, hw);
    m_w.op(
        kMain, t, "aten::relu_", dims({x}),
        [&] {
            m_w.op(kMain, t, "aten::clamp_min_", dims({x}, 1),
                   [&] { m_w.kernel(kMain, t, kClampMin, elements(c, hw)); });
        },
        sequence);
}

void TrainingLoop::add(std::int64_t& t, std::int64_t c, std::int64_t hw) {
    const std::string x = activation(c, hw);
    const std::int64_t sequence = record(Grad::Add, c, hw);
    m_w.op(
        kMain, t, "aten::add_", dims({x, x}, 1),
        [&] { m_w.kernel(kMain, t, kAdd, elements(c, hw)); }, sequence);
}

void TrainingLoop::maxPool(std::int64_t& t, std::int64_t c, std::int64_t inHw, std::int64_t hw) {
    const std::string x = activation(c, inHw);
    const std::int64_t sequence = record(Grad::MaxPool, c, hw, c, inHw);
    m_w.op(
        kMain, t, "aten::max_pool2d", dims({x}, 5),
        [&] {
            m_w.op(kMain, t, "aten::max_pool2d_with_indices", dims({x}, 5),
                   [&] { m_w.kernel(kMain, t, kMaxPool, elements(c, inHw)); });
        },
        sequence);
}

void TrainingLoop::head(std::int64_t& t, std::int64_t c, std::int64_t hw) {
    const std::string x = activation(c, hw), pooled = shape({kBatch, c, 1, 1});
    const std::int64_t avgSequence = record(Grad::AvgPool, c, hw);
    m_w.op(
        kMain, t, "aten::adaptive_avg_pool2d", dims({x}, 1),
        [&] {
            m_w.op(kMain, t, "aten::_adaptive_avg_pool2d", dims({x}, 1),
                   [&] { m_w.kernel(kMain, t, kAvgPool, elements(c, hw)); });
        },
        avgSequence);
    m_w.op(kMain, t, "aten::flatten", dims({pooled}, 2),
           [&] { m_w.leaf(kMain, t, "aten::view", dims({pooled}, 1)); });
    const std::string in = shape({kBatch, c}), w = shape({kClasses, c}), bias = shape({kClasses});
    const std::int64_t sequence = record(Grad::Linear, kClasses, 1, c);
    m_w.op(
        kMain, t, "aten::linear", dims({in, w, bias}),
        [&] {
            m_w.op(kMain, t, "aten::t", dims({w}), [&] {
                m_w.op(kMain, t, "aten::transpose", dims({w}, 2),
                       [&] { m_w.leaf(kMain, t, "aten::as_strided", dims({w}, 3)); });
            });
            m_w.op(kMain, t, "aten::addmm", dims({bias, in, shape({c, kClasses})}, 2),
                   [&] { m_w.kernel(kMain, t, kGemm); });
        },
        sequence);
}

void TrainingLoop::loss(std::int64_t& t) {
    const std::string logits = shape({kBatch, kClasses}), labels = shape({kBatch});
    m_w.op(kMain, t, "aten::cross_entropy_loss", dims({logits, labels}, 4), [&] {
        const std::int64_t softmax = record(Grad::LogSoftmax, kClasses, 1);
        m_w.op(
            kMain, t, "aten::log_softmax", dims({logits}, 2),
            [&] {
                m_w.op(kMain, t, "aten::_log_softmax", dims({logits}, 2),
                       [&] { m_w.kernel(kMain, t, kLogSoftmax); });
            },
            softmax);
        const std::int64_t nll = record(Grad::NllLoss, kClasses, 1);
        m_w.op(
            kMain, t, "aten::nll_loss_nd", dims({logits, labels}, 3),
            [&] {
                m_w.op(kMain, t, "aten::nll_loss", dims({logits, labels}, 3), [&] {
                    m_w.op(kMain, t, "aten::nll_loss_forward", dims({logits, labels}, 3),
                           [&] { m_w.kernel(kMain, t, kNllLoss); });
                });
            },
            nll);
    });
}

void TrainingLoop::transpose(std::int64_t tid, std::int64_t& t, const std::string& matrix) {
    m_w.op(tid, t, "aten::t", dims({matrix}), [&] {
        m_w.op(tid, t, "aten::transpose", dims({matrix}, 2),
               [&] { m_w.leaf(tid, t, "aten::as_strided", dims({matrix}, 3)); });
    });
}

void TrainingLoop::backward(std::int64_t& t) {
    // loss.backward(): the seed gradient on the main thread, then the engine's thread runs the
    // tape backwards while the main thread waits.
    m_w.op(kMain, t, "aten::ones_like", dims({"[]"}, 5), [&] {
        m_w.op(kMain, t, "aten::empty_like", dims({"[]"}, 5),
               [&] { m_w.leaf(kMain, t, "aten::empty", dims({}, 6)); });
        m_w.op(kMain, t, "aten::fill_", dims({"[]"}, 1), [&] { m_w.kernel(kMain, t, kFill); });
    });
    std::int64_t bt = t + m_w.rng().around(10000, 10000);
    for (auto it = m_tape.rbegin(); it != m_tape.rend() && !m_w.full(); ++it)
        undo(bt, *it);
    if (m_pendingGrads > 0)
        allReduce(bt);
    t = bt + m_w.rng().around(10000, 10000);
}

// autograd::engine::evaluate_function: NODE > NODE > what `body` writes, on the autograd thread.
template <typename Body>
void TrainingLoop::evaluate(std::int64_t& t, const char* node, const std::string& grad,
                            std::int64_t sequence, Body&& body) {
    m_w.op(
        kAutograd, t, std::string("autograd::engine::evaluate_function: ") + node, grad,
        [&] { m_w.op(kAutograd, t, node, grad, body, sequence); }, sequence);
}

void TrainingLoop::undo(std::int64_t& t, const TapeEntry& e) {
    const std::string out = activation(e.channels, e.hw);
    const double size = elements(e.channels, e.hw);
    switch (e.grad) {
    case Grad::NllLoss: {
        const std::string logits = shape({kBatch, kClasses}), labels = shape({kBatch});
        evaluate(t, "NllLossBackward0", dims({"[]"}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::nll_loss_backward", dims({"[]", logits, labels}, 4), [&] {
                m_w.memset(kAutograd, t, kBatch * kClasses * 4);
                m_w.kernel(kAutograd, t, kNllLossBackward);
            });
        });
        break;
    }
    case Grad::LogSoftmax: {
        const std::string logits = shape({kBatch, kClasses});
        evaluate(t, "LogSoftmaxBackward0", dims({logits}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::_log_softmax_backward_data", dims({logits, logits}, 2),
                   [&] { m_w.kernel(kAutograd, t, kLogSoftmaxBackward); });
        });
        break;
    }
    case Grad::Linear: {
        const std::string g = shape({kBatch, kClasses}), in = shape({kBatch, e.inChannels}),
                          w = shape({kClasses, e.inChannels});
        evaluate(t, "AddmmBackward0", dims({g}), e.sequence, [&] {
            transpose(kAutograd, t, shape({e.inChannels, kClasses}));
            m_w.op(kAutograd, t, "aten::mm", dims({g, w}),
                   [&] { m_w.kernel(kAutograd, t, kGemmNn); });
            transpose(kAutograd, t, g);
            m_w.op(kAutograd, t, "aten::mm", dims({shape({kClasses, kBatch}), in}),
                   [&] { m_w.kernel(kAutograd, t, kGemmNt); });
            m_w.op(kAutograd, t, "aten::sum", dims({g}, 3),
                   [&] { m_w.kernel(kAutograd, t, kReduce); });
        });
        accumulateGrad(t, w);
        accumulateGrad(t, shape({kClasses}));
        break;
    }
    case Grad::AvgPool: {
        const std::string pooled = shape({kBatch, e.channels, 1, 1});
        evaluate(t, "AdaptiveAvgPool2DBackward0", dims({pooled}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::_adaptive_avg_pool2d_backward", dims({pooled, out}),
                   [&] { m_w.kernel(kAutograd, t, kAvgPoolBackward, size); });
        });
        break;
    }
    case Grad::Relu:
        evaluate(t, "ReluBackward0", dims({out}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::threshold_backward", dims({out, out}, 1),
                   [&] { m_w.kernel(kAutograd, t, kThresholdBackward, size); });
        });
        break;
    case Grad::Add:
        evaluate(t, "AddBackward0", dims({out}), e.sequence, [] {});
        break;
    case Grad::BatchNorm: {
        const std::string v = shape({e.channels});
        evaluate(t, "CudnnBatchNormBackward0", dims({out}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::cudnn_batch_norm_backward",
                   dims({out, out, v, v, v, v, v}, 2),
                   [&] { m_w.kernel(kAutograd, t, kBnBackward, size); });
        });
        break;
    }
    case Grad::MaxPool: {
        const std::string in = activation(e.inChannels, e.inHw);
        evaluate(t, "MaxPool2DWithIndicesBackward0", dims({out}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::max_pool2d_with_indices_backward", dims({out, in}, 6), [&] {
                m_w.kernel(kAutograd, t, kMaxPoolBackward, elements(e.inChannels, e.inHw));
            });
        });
        break;
    }
    case Grad::Conv: {
        const std::string x = activation(e.inChannels, e.inHw),
                          w = shape({e.channels, e.inChannels, e.kernel, e.kernel});
        const double scale = double(e.channels * e.hw * e.hw * e.inChannels * e.kernel * e.kernel) /
                             double(64 * 56 * 56 * 64 * 9);
        evaluate(t, "ConvolutionBackward0", dims({out}), e.sequence, [&] {
            m_w.op(kAutograd, t, "aten::convolution_backward", dims({out, x, w}, 8), [&] {
                if (e.inChannels != 3) // the images need no gradient
                    m_w.kernel(kAutograd, t, kConvDgrad, scale);
                m_w.kernel(kAutograd, t, kConvWgrad, scale);
            });
        });
        accumulateGrad(t, w);
        if (++m_pendingGrads == 3)
            allReduce(t);
        break;
    }
    }
}

void TrainingLoop::accumulateGrad(std::int64_t& t, const std::string& param) {
    m_w.op(kAutograd, t, "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
           dims({param}), [&] {
               m_w.op(kAutograd, t, "torch::autograd::AccumulateGrad", dims({param}), [&] {
                   m_w.op(kAutograd, t, "aten::add_", dims({param, param}, 1),
                          [&] { m_w.kernel(kAutograd, t, kAdd, 0.05); });
               });
           });
}

void TrainingLoop::allReduce(std::int64_t& t) {
    // DistributedDataParallel's hook: a bucket of gradients (25 MB) summed across the ranks.
    const int grads = m_pendingGrads;
    m_pendingGrads = 0;
    if (m_w.options().job) {
        // A rank of a job: the collective as current PyTorch records it, record_param_comms
        // around the nccl: annotation, 8 MiB of gradients per convolution weight.
        const std::int64_t bytes = grads * kGradientBytes;
        m_w.op(
            kAutograd, t, "record_param_comms", dims({shape({bytes / 4})}),
            [&] {
                m_w.annotation(kAutograd, t, "nccl:all_reduce",
                               [&] { m_w.collective(kAutograd, t, kAllReduceArgs, bytes); });
            },
            -1, m_w.commArgs(bytes));
        return;
    }
    if (m_w.options().worldSize <= 1)
        return;
    const std::string bucket = dims({shape({6553600})});
    m_w.op(kAutograd, t, "nccl:all_reduce", bucket, [&] {
        m_w.op(kAutograd, t, "record_param_comms", dims({bucket}, 6),
               [&] { m_w.kernel(kAutograd, t, kAllReduce, double(grads) / 3.0, Stream::Nccl); });
    });
}

void TrainingLoop::optimizerStep(std::int64_t& t) {
    // SGD with momentum, foreach: buf = momentum * buf + grad; param -= lr * buf.
    m_w.op(kMain, t, "aten::_foreach_mul_", dims({m_paramList}, 1),
           [&] { m_w.kernel(kMain, t, kMultiTensorApply); });
    for (int i = 0; i < 2; ++i) {
        m_w.op(kMain, t, "aten::_foreach_add_", dims({m_paramList, m_paramList}, 1),
               [&] { m_w.kernel(kMain, t, kMultiTensorApply); });
    }
}

void TrainingLoop::lossItem(std::int64_t& t) {
    // loss.item() for the log: a 4-byte copy to pageable memory, which waits for the GPU.
    m_w.op(kMain, t, "aten::item", dims({"[]"}), [&] {
        m_w.op(kMain, t, "aten::_local_scalar_dense", dims({"[]"}),
               [&] { m_w.memcpy(kMain, t, false, 4); });
    });
}

} // namespace strobe::kinetosynth
