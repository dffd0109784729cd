// Preloaded, before libfaketime, into the redis-server whose clock TestMutualExclusion moves. Debian's
// redis-server allocates with jemalloc, and jemalloc reads the clock while it initializes, which is exactly
// when libfaketime is initializing too: the server dies in a clock_gettime() recursion
// (wolfcw/libfaketime#130). Routing the allocation functions to glibc's allocator keeps jemalloc out of that
// path; redis-server then runs unchanged, with libfaketime's clock. Test infrastructure only.

#include <cerrno>
#include <cstddef>

#include <dlfcn.h>

extern "C" {

void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void __libc_free(void* pointer);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);

__attribute__((visibility("default"))) void* malloc(std::size_t size)
{
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void* calloc(std::size_t count, std::size_t size)
{
    return __libc_calloc(count, size);
}

__attribute__((visibility("default"))) void* realloc(void* pointer, std::size_t size)
{
    return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void free(void* pointer)
{
    __libc_free(pointer);
}

__attribute__((visibility("default"))) void* memalign(std::size_t alignment, std::size_t size)
{
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void* aligned_alloc(std::size_t alignment, std::size_t size)
{
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void** out, std::size_t alignment, std::size_t size)
{
    void* pointer = __libc_memalign(alignment, size);
    if (!pointer)
        return ENOMEM;
    *out = pointer;
    return 0;
}

__attribute__((visibility("default"))) void* valloc(std::size_t size)
{
    return __libc_valloc(size);
}

__attribute__((visibility("default"))) void* pvalloc(std::size_t size)
{
    return __libc_pvalloc(size);
}

// jemalloc exports one too and comes first in the server's search order: ask for glibc's by its version.
__attribute__((visibility("default"))) std::size_t malloc_usable_size(void* pointer)
{
    using Function = std::size_t (*)(void*);
    static const Function glibc = reinterpret_cast<Function>(dlvsym(RTLD_NEXT, "malloc_usable_size", "GLIBC_2.2.5"));
    return glibc ? glibc(pointer) : 0;
}

} // extern "C"
