#include "observe/KeyPattern.h"

#include <utility>

namespace redlock {

bool patternNamesLocks(const QByteArray& pattern)
{
    return !pattern.isEmpty() && pattern.count('*') != pattern.size();
}

namespace {

// Redis' stringmatchlen, binary safe.
bool globMatch(const char* p, const char* pEnd, const char* s, const char* sEnd)
{
    while (p < pEnd) {
        switch (*p) {
        case '*':
            while (p + 1 < pEnd && p[1] == '*')
                ++p;
            if (p + 1 == pEnd)
                return true;
            for (const char* t = s; t <= sEnd; ++t) {
                if (globMatch(p + 1, pEnd, t, sEnd))
                    return true;
            }
            return false;
        case '?':
            if (s == sEnd)
                return false;
            ++s;
            break;
        case '[': {
            if (s == sEnd)
                return false;
            ++p;
            const bool negate = p < pEnd && *p == '^';
            if (negate)
                ++p;
            bool match = false;
            while (p < pEnd && *p != ']') {
                if (*p == '\\' && p + 1 < pEnd) {
                    ++p;
                    match = match || *p == *s;
                } else if (p + 2 < pEnd && p[1] == '-' && p[2] != ']') {
                    char lo = p[0], hi = p[2];
                    if (lo > hi)
                        std::swap(lo, hi);
                    match = match || (*s >= lo && *s <= hi);
                    p += 2;
                } else {
                    match = match || *p == *s;
                }
                ++p;
            }
            if (negate)
                match = !match;
            if (!match)
                return false;
            ++s;
            break;
        }
        case '\\':
            if (p + 1 < pEnd)
                ++p;
            [[fallthrough]];
        default:
            if (s == sEnd || *p != *s)
                return false;
            ++s;
            break;
        }
        ++p;
    }
    return s == sEnd;
}

} // namespace

bool globMatches(const QByteArray& pattern, const QByteArray& name)
{
    return globMatch(pattern.constData(), pattern.constData() + pattern.size(), name.constData(),
                     name.constData() + name.size());
}

} // namespace redlock
