#pragma once

#include <QByteArrayView>

#include <array>

namespace redlock::rl1 {

// This project's lock token (LockToken::bytes(): "rl1:", 32 lower-case hex digits, then ':' and the rest) kept as its
// digits' 16 bytes and the rest, for the stores that keep one token per lock (PackedLockView, AlertMonitor): 16 bytes
// less than the text, and a client's locks share the rest. Exact both ways: upper-case digits are not this form
// (written back in lower case, they would differ).
constexpr qsizetype kPrefix = 4;                    // "rl1:"
constexpr qsizetype kDigits = 32;                   // the random digits
constexpr qsizetype kDigitsEnd = kPrefix + kDigits; // where the rest starts (its ':')
using Digits = std::array<quint8, kDigits / 2>;

inline int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// A token of 32 lower-case hex digits and nothing else (node-redlock's: 16 random bytes in hex) as its bytes; false
// when it is not of this form.
inline bool splitDigits(QByteArrayView token, Digits* digits)
{
    if (token.size() != kDigits)
        return false;
    for (qsizetype i = 0; i < kDigits / 2; ++i) {
        const int high = hexDigit(token[2 * i]);
        const int low = hexDigit(token[2 * i + 1]);
        if (high < 0 || low < 0)
            return false;
        (*digits)[size_t(i)] = quint8((high << 4) | low);
    }
    return true;
}

// The token's digits as bytes; false when it is not of this form. Its rest is token.sliced(kDigitsEnd).
inline bool split(QByteArrayView token, Digits* digits)
{
    if (token.size() <= kDigitsEnd || !token.startsWith("rl1:") || token[kDigitsEnd] != ':')
        return false;
    return splitDigits(token.sliced(kPrefix, kDigits), digits);
}

// The 32 digits again, in lower case, at `out`.
inline void writeDigits(char* out, const quint8* digits)
{
    static constexpr char kHex[] = "0123456789abcdef";
    for (qsizetype i = 0; i < kDigits / 2; ++i) {
        out[2 * i] = kHex[digits[i] >> 4];
        out[2 * i + 1] = kHex[digits[i] & 0xf];
    }
}

// The token's first kDigitsEnd bytes again ("rl1:" and the digits in lower case) at `out`; the rest follows them.
inline void writeHead(char* out, const quint8* digits)
{
    out[0] = 'r';
    out[1] = 'l';
    out[2] = '1';
    out[3] = ':';
    writeDigits(out + kPrefix, digits);
}

} // namespace redlock::rl1
