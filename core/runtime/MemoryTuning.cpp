#include "runtime/MemoryTuning.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace redlock {

void keepLargeBuffersReturnable()
{
#if defined(__GLIBC__)
    // glibc's default start value; setting it explicitly turns the dynamic adjustment off.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

} // namespace redlock
