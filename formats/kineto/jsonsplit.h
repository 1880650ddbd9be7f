// SPDX-License-Identifier: MIT
#pragma once

// Splitting a JSON array of objects (a Kineto trace's traceEvents) at element boundaries, for
// text larger than the 4 GiB that one simdjson document can hold (docs/KINETO.md, "Files past
// 4 GiB"). The text comes from a TextSource; the scanners here only find places: whether a place
// really is a boundary is proven by parsing the piece that ends there (kinetosplit.cpp).

#include <QString>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace strobe::kineto {

// Where a split read gets its text: a plain file's bytes, or a text already in memory.
class TextSource {
public:
    virtual ~TextSource() = default;
    // The text's size in bytes.
    virtual std::uint64_t size() const = 0;
    // The bytes before the text in its file (a byte order mark), for saying where in the file.
    virtual std::uint64_t skipped() const = 0;
    // Copies text bytes [pos, pos + n), which lie within size(), to `dest`. Returns an empty
    // string, or the end of a sentence that starts with the file's name ("could not be read:
    // ...").
    virtual QString read(std::uint64_t pos, char* dest, std::size_t n) = 0;
};

#if defined(__unix__)
// The text of the open plain file `fd` from byte `skipped` on (after a byte order mark), `size`
// bytes; owns and closes `fd`.
std::unique_ptr<TextSource> fileTextSource(int fd, std::uint64_t skipped, std::uint64_t size);
#endif
// The `size` bytes at `text`, which outlive the source; `skipped` bytes came before them.
std::unique_ptr<TextSource> memoryTextSource(const char* text, std::uint64_t size,
                                             std::uint64_t skipped);

// Where a string-aware scan of array elements stopped.
enum class CutKind : std::uint8_t {
    Comma,      // a ',' between two elements of the array (depth 0, outside strings)
    ArrayEnd,   // the ']' that closes the array
    Unbalanced, // a '}' that closes nothing: the text is not valid JSON there
    End,        // the text ended first
    TooFar,     // no boundary within the limit
};

struct Cut {
    std::uint64_t at = 0; // the text position of the ',' or ']' (or of the end, or the limit)
    CutKind kind = CutKind::End;
};

// The exact boundary: scans from `from`, the start of an element (outside strings, directly in
// the array), byte by byte, tracking strings, escapes and nesting, for the first ',' between
// elements at or after `atLeast`, or the array's ']', within `limit` bytes of `from`. Slow (one
// byte at a time): for when the quick guess (guessCut) was wrong.
Cut exactCut(TextSource& source, std::uint64_t from, std::uint64_t atLeast, std::uint64_t limit,
             QString& problem);

// The quick guess: the first ',' at or after `from` in `p[0, n)` written between a '}' and a
// '{' (blanks around it aside), as an element boundary of an array of objects is. Returns its
// index, or n when there is none. It may lie in a string or deeper in the nesting: the parse of
// the piece that ends there tells.
std::size_t guessCut(const char* p, std::size_t from, std::size_t n);

// Where the events are: the '[' of the top-level object's "traceEvents" member (a name written
// without escapes, as the whole-document reader matches it), or of a top-level array (the
// Chrome format's bare array of events).
struct EventsArray {
    bool rootIsArray = false;
    std::uint64_t bracket = 0; // the text position of the array's '['
};

// Scans the text from its start for the events array, at most `limit` bytes. Returns an empty
// string, or the end of a sentence that starts with the file's name ("is JSON but not a trace:
// it has no traceEvents array").
QString findEventsArray(TextSource& source, std::uint64_t limit, EventsArray& out);

} // namespace strobe::kineto
