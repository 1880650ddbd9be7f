// SPDX-License-Identifier: MIT
#pragma once

// What a GPU kernel does, from its names: the one rule the timeline colours and the per-GPU
// breakdown both use. The default table is below (kernelClassDefaultJson) and in
// docs/BREAKDOWN.md; a user's JSON file with the same layout replaces it.

#include <QByteArray>
#include <QString>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strobe {

enum class KernelClass : std::uint8_t {
    Gemm,
    Convolution,
    Attention,
    Normalization,
    Softmax,
    ElementwiseReduction,
    Other,
};
inline constexpr int kKernelClassCount = 7;

// Stable lowercase key for files and machine output: "gemm", "convolution", "attention",
// "normalization", "softmax", "elementwise", "other".
QString kernelClassKey(KernelClass c);
// For people: "GEMM", "Convolution", "Attention", "Normalisation", "Softmax",
// "Elementwise/reduction", "Other".
QString kernelClassLabel(KernelClass c);
std::optional<KernelClass> kernelClassFromKey(QStringView key);

// One row of the table: a kernel whose lowercased name contains any of `patterns` is `cls`.
struct KernelClassRule {
    KernelClass cls = KernelClass::Other;
    std::vector<std::string> patterns; // lowercase substrings
};

// An ordered table of name patterns, first match wins, plus the patterns that make a kernel
// communication (NCCL). Immutable once built.
class KernelClassTable {
public:
    // The built-in table (parsed from kernelClassDefaultJson()).
    static const KernelClassTable& defaults();
    // The table the application uses: defaults() unless setActive() installed another. Call
    // setActive only at start-up, before any trace is loaded or painted.
    static const KernelClassTable& active();
    static void setActive(const KernelClassTable& table);

    // Parses the JSON layout of kernelClassDefaultJson(); nullopt with one sentence in `error`
    // naming what is wrong.
    static std::optional<KernelClassTable> fromJson(const QByteArray& json, QString* error);
    // Reads and parses `path`; the error names the file.
    static std::optional<KernelClassTable> fromFile(const QString& path, QString* error);
    // Where the GUI looks for a user table: AppConfigLocation/kernel-classes.json.
    static QString userFilePath();

    // True when the lowercased name contains a communication pattern.
    bool isCommunication(std::string_view name) const;
    // The first rule matching the name, Other when none does.
    KernelClass classify(std::string_view name) const;
    // A kernel's class from both its names: the short name's when a rule matches it, otherwise
    // that of the template arguments of the kernel function in `fullName` (what a launcher such
    // as "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_...>" runs); Other when neither
    // matches. The namespace and the parameters are never read: "fbgemm_gpu::" or a
    // "cublasTransposeParams" parameter say nothing about what the kernel does.
    KernelClass classify(std::string_view shortName, std::string_view fullName) const;

    const std::vector<KernelClassRule>& rules() const { return m_rules; }
    const std::vector<std::string>& communicationPatterns() const { return m_communication; }

private:
    std::vector<KernelClassRule> m_rules;
    std::vector<std::string> m_communication;
};

// The default table as JSON: the documented source of truth.
QByteArray kernelClassDefaultJson();

} // namespace strobe
