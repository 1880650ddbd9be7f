// SPDX-License-Identifier: MIT
#include "model/kernelclass.h"

#include "model/kernelname.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStringBuilder>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace strobe {

namespace {
constexpr std::array<const char*, kKernelClassCount> kKeys{
    "gemm", "convolution", "attention", "normalization", "softmax", "elementwise", "other"};
constexpr std::array<const char*, kKernelClassCount> kLabels{
    "GEMM",    "Convolution",           "Attention", "Normalisation",
    "Softmax", "Elementwise/reduction", "Other"};

// Order matters: attention kernels often contain "gemm" or "cutlass", cuDNN convolutions
// "gemm" (implicit GEMM), and "layer_norm" kernels "reduce" in their template arguments.
// "nvjet" is cuBLAS's GEMM family on Hopper and Blackwell; "xmma" covers sm80_xmma_gemm and
// sm90_xmma_gemm, "gemm" ampere_sgemm; "scudnn"/"hcudnn" are cuDNN's implicit-GEMM convolutions.
constexpr const char* kDefaultJson = R"({
  "communication": ["nccl"],
  "classes": [
    {"class": "attention", "patterns": ["flash", "fmha", "attention", "sdpa", "mha_"]},
    {"class": "convolution",
     "patterns": ["conv", "implicit_convolve", "fprop", "dgrad", "wgrad", "scudnn",
                  "hcudnn"]},
    {"class": "gemm",
     "patterns": ["gemm", "gemv", "xmma", "cutlass", "matmul", "cublas", "nvjet"]},
    {"class": "softmax", "patterns": ["softmax"]},
    {"class": "normalization",
     "patterns": ["layer_norm", "layernorm", "batch_norm", "batchnorm", "bn_fw", "bn_bw",
                  "rms_norm", "rmsnorm", "group_norm", "groupnorm", "norm_kernel"]},
    {"class": "elementwise",
     "patterns": ["elementwise", "vectorized", "unrolled", "reduce", "reduction", "scan"]}
  ]
}
)";

std::string lowered(std::string_view s) {
    std::string out(s.substr(0, 512));
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return out;
}

bool containsAny(const std::string& lower, const std::vector<std::string>& needles) {
    return std::any_of(needles.begin(), needles.end(),
                       [&](const std::string& n) { return lower.find(n) != std::string::npos; });
}

std::optional<std::vector<std::string>> patternList(const QJsonValue& v, const QString& where,
                                                    QString* error) {
    if (!v.isArray()) {
        *error = where % QStringLiteral(" must be an array of strings.");
        return std::nullopt;
    }
    std::vector<std::string> out;
    const QJsonArray patterns = v.toArray(); // const: iterating it never detaches
    for (const auto& p : patterns) {
        if (!p.isString() || p.toString().isEmpty()) {
            *error = where % QStringLiteral(" holds something that is not a non-empty string.");
            return std::nullopt;
        }
        out.push_back(p.toString().toLower().toStdString());
    }
    return out;
}

std::unique_ptr<KernelClassTable>& activeSlot() {
    static std::unique_ptr<KernelClassTable> slot;
    return slot;
}
} // namespace

QString kernelClassKey(KernelClass c) {
    return QLatin1String(kKeys[std::size_t(c)]);
}

QString kernelClassLabel(KernelClass c) {
    return QLatin1String(kLabels[std::size_t(c)]);
}

std::optional<KernelClass> kernelClassFromKey(QStringView key) {
    for (std::size_t i = 0; i < kKeys.size(); ++i) {
        if (key == QLatin1String(kKeys[i]))
            return KernelClass(i);
    }
    return std::nullopt;
}

QByteArray kernelClassDefaultJson() {
    return QByteArray(kDefaultJson);
}

const KernelClassTable& KernelClassTable::defaults() {
    static const KernelClassTable table = [] {
        QString error;
        auto t = fromJson(kernelClassDefaultJson(), &error);
        Q_ASSERT(t);
        return t ? *t : KernelClassTable{};
    }();
    return table;
}

const KernelClassTable& KernelClassTable::active() {
    const auto& slot = activeSlot();
    return slot ? *slot : defaults();
}

void KernelClassTable::setActive(const KernelClassTable& table) {
    activeSlot() = std::make_unique<KernelClassTable>(table);
}

std::optional<KernelClassTable> KernelClassTable::fromJson(const QByteArray& json, QString* error) {
    QString sink;
    QString& err = error ? *error : sink;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        err = pe.error != QJsonParseError::NoError
                  ? QStringLiteral("it is not valid JSON (") % pe.errorString() %
                        QStringLiteral(" at offset ") % QString::number(pe.offset) %
                        QStringLiteral(").")
                  : QStringLiteral("it is not a JSON object.");
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    KernelClassTable t;
    if (root.contains(QLatin1String("communication"))) {
        auto comm = patternList(root.value(QLatin1String("communication")),
                                QStringLiteral("\"communication\""), &err);
        if (!comm)
            return std::nullopt;
        t.m_communication = std::move(*comm);
    }
    const QJsonValue classes = root.value(QLatin1String("classes"));
    if (!classes.isArray()) {
        err = QStringLiteral("\"classes\" must be an array of {\"class\", \"patterns\"} objects.");
        return std::nullopt;
    }
    int row = 0;
    const QJsonArray entries = classes.toArray();
    for (const auto& v : entries) {
        const QString where = QStringLiteral("classes[") % QString::number(row++) % u']';
        const QJsonObject o = v.toObject();
        const auto cls = kernelClassFromKey(o.value(QLatin1String("class")).toString());
        if (!v.isObject() || !cls) {
            err = where % QStringLiteral(" needs \"class\" set to one of gemm, convolution, "
                                         "attention, normalization, softmax, elementwise, other.");
            return std::nullopt;
        }
        auto patterns = patternList(o.value(QLatin1String("patterns")),
                                    where % QStringLiteral(".patterns"), &err);
        if (!patterns)
            return std::nullopt;
        t.m_rules.push_back({*cls, std::move(*patterns)});
    }
    return t;
}

std::optional<KernelClassTable> KernelClassTable::fromFile(const QString& path, QString* error) {
    // Opened without blocking and read only when it is a regular file: a FIFO given here would
    // otherwise wait for a writer for ever.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st {};
    QString problem;
    if (fd < 0)
        problem = QString::fromLocal8Bit(std::strerror(errno));
    else if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        problem = QStringLiteral("it is not a regular file");
    QFile f;
    if (problem.isEmpty() && !f.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
        problem = f.errorString();
    if (!problem.isEmpty()) {
        if (fd >= 0 && !f.isOpen())
            ::close(fd);
        if (error)
            *error = QStringLiteral("cannot read kernel class file ") % path %
                     QStringLiteral(": ") % problem % u'.';
        return std::nullopt;
    }
    QString why;
    auto t = fromJson(f.read(1 << 20), &why);
    if (!t && error)
        *error =
            QStringLiteral("kernel class file ") % path % QStringLiteral(" is unusable: ") % why;
    return t;
}

QString KernelClassTable::userFilePath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) %
           QStringLiteral("/kernel-classes.json");
}

bool KernelClassTable::isCommunication(std::string_view name) const {
    return containsAny(lowered(name), m_communication);
}

KernelClass KernelClassTable::classify(std::string_view name) const {
    const std::string n = lowered(name);
    for (const KernelClassRule& r : m_rules) {
        if (containsAny(n, r.patterns))
            return r.cls;
    }
    return KernelClass::Other;
}

KernelClass KernelClassTable::classify(std::string_view shortName,
                                       std::string_view fullName) const {
    const KernelClass byName = classify(shortName);
    if (byName != KernelClass::Other)
        return byName;
    const std::string_view arguments = kernelTemplateArguments(fullName);
    return arguments.empty() ? KernelClass::Other : classify(arguments);
}

} // namespace strobe
