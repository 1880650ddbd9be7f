// SPDX-License-Identifier: MIT
#pragma once

// A small PyTorch-like trace whose kernels are launched from nested operators, for the views
// of the operators (the Operators panel, the detail pane's chain, the kernel table's Operator
// column). Thread 1 of process 1, times in ns:
//
//   Python  train.py(10): main                    [0, 12000)
//   Python    model.py(20): forward               [900, 9500)
//   op      aten::conv2d                          [1000, 5000)
//   op        aten::_convolution                  [1100, 4900)
//   op          aten::cudnn_convolution           [1200, 4800)
//   api           cudaLaunchKernel [1300, 1400) -> kernel 0 implicit_gemm [2000, 3000)
//   api           cudaLaunchKernel [1500, 1600) -> kernel 1 bias_add      [3000, 3200)
//   op      aten::relu                            [6000, 7000)
//   api       cudaLaunchKernel [6100, 6200)     -> kernel 2 relu_kernel   [7000, 7100)
//   op      aten::conv2d                          [8000, 9000), the same chain below it
//   api           cudaLaunchKernel [8200, 8300) -> kernel 3 implicit_gemm [9000, 10500)
//   api     cudaLaunchKernel [11000, 11100)     -> kernel 4 stray_kernel  [11200, 11300)
//
// Kernel 4 has no operator; the GPU's time is 2900 ns, 2700 of it under aten::cudnn_convolution.

#include "model/tracebuilder.h"

#include <memory>

namespace strobe::test {

inline std::shared_ptr<const Trace> launchChainTrace() {
    TraceBuilder b(QStringLiteral("launchchain.pt.trace.json"));
    b.metadata().format = QStringLiteral("kineto-json"); // cpu_op ranges are operators
    GpuInfo g;
    g.id = 0;
    g.name = b.intern("Test GPU");
    b.addGpu(g);
    auto op = [&](const char* name, TimeNs start, TimeNs end) {
        b.addCpuOp(LaneKind::CpuOps, 1, 1, start, end, b.intern(name), CpuOpRecord{});
    };
    b.addCpuOp(LaneKind::Python, 1, 1, 0, 12000, b.intern("train.py(10): main"), CpuOpRecord{});
    b.addCpuOp(LaneKind::Python, 1, 1, 900, 9500, b.intern("model.py(20): forward"), CpuOpRecord{});
    const StringId launch = b.intern("cudaLaunchKernel");
    std::uint32_t corr = 0;
    auto kernel = [&](TimeNs call, const char* name, TimeNs start, TimeNs end) {
        ApiCallRecord a;
        a.correlationId = ++corr;
        b.addApiCall(1, 1, call, call + 100, launch, a);
        KernelConfig c;
        c.shortName = b.intern(name);
        c.demangledName = b.intern(std::string("void ") + name + "()");
        c.grid = {4, 1, 1};
        c.block = {128, 1, 1};
        b.addKernel(1, 0, 1, 7, start, end, c, corr, std::nullopt);
    };
    op("aten::conv2d", 1000, 5000);
    op("aten::_convolution", 1100, 4900);
    op("aten::cudnn_convolution", 1200, 4800);
    kernel(1300, "implicit_gemm", 2000, 3000);
    kernel(1500, "bias_add", 3000, 3200);
    op("aten::relu", 6000, 7000);
    kernel(6100, "relu_kernel", 7000, 7100);
    op("aten::conv2d", 8000, 9000);
    op("aten::_convolution", 8050, 8950);
    op("aten::cudnn_convolution", 8100, 8900);
    kernel(8200, "implicit_gemm", 9000, 10500);
    kernel(11000, "stray_kernel", 11200, 11300);
    return std::shared_ptr<const Trace>(b.finish());
}

} // namespace strobe::test
