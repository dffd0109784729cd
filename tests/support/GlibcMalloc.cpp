// Preloaded (LD_PRELOAD) into a redis-server with libfaketime, before it: the malloc family of glibc instead
// of jemalloc, which Debian's redis-server is linked with.
//
// libfaketime and jemalloc deadlock each other at start-up (libfaketime issue #130): jemalloc initialises
// with clock_gettime(), libfaketime's clock_gettime() initialises with dlsym(), dlsym() allocates, and the
// allocation re-enters jemalloc's unfinished initialisation. With every allocation going to glibc, dlsym()
// no longer reaches jemalloc. Everything that allocates or frees goes through these, so memory never passes
// from one allocator to the other; jemalloc's own extras (mallctl for INFO, nallocx) still work.
//
// No header that declares the malloc family is included: these definitions are the declarations.

#include <cerrno>
#include <cstddef>
#include <cstring>

#include <dlfcn.h>

extern "C" {

void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* pointer, size_t size);
void __libc_free(void* pointer);
void* __libc_memalign(size_t alignment, size_t size);
void* __libc_valloc(size_t size);
void* __libc_pvalloc(size_t size);

__attribute__((visibility("default"))) void* malloc(size_t size)
{
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void* calloc(size_t count, size_t size)
{
    return __libc_calloc(count, size);
}

__attribute__((visibility("default"))) void* realloc(void* pointer, size_t size)
{
    return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void free(void* pointer)
{
    __libc_free(pointer);
}

__attribute__((visibility("default"))) void* memalign(size_t alignment, size_t size)
{
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void* aligned_alloc(size_t alignment, size_t size)
{
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void** out, size_t alignment, size_t size)
{
    void* pointer = __libc_memalign(alignment, size);
    if (!pointer)
        return ENOMEM;
    *out = pointer;
    return 0;
}

__attribute__((visibility("default"))) void* valloc(size_t size)
{
    return __libc_valloc(size);
}

__attribute__((visibility("default"))) void* pvalloc(size_t size)
{
    return __libc_pvalloc(size);
}

// glibc exports it under this name only, as jemalloc does: take glibc's from libc itself.
__attribute__((visibility("default"))) size_t malloc_usable_size(void* pointer)
{
    using UsableSize = size_t (*)(void*);
    static UsableSize glibcUsableSize = nullptr;
    if (!glibcUsableSize) {
        void* libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
        void* symbol = libc ? dlsym(libc, "malloc_usable_size") : nullptr;
        if (!symbol)
            return 0;
        std::memcpy(&glibcUsableSize, &symbol, sizeof glibcUsableSize);
    }
    return glibcUsableSize(pointer);
}

} // extern "C"
