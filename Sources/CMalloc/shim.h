#ifndef SHARE_CMALLOC_SHIM_H
#define SHARE_CMALLOC_SHIM_H

// glibc keeps memory that was freed for later use; after a one-off peak (a bulk import) that memory is
// still counted in the process's RSS. malloc_trim hands it back to the system (95 -> 60 MB after a 1M-record
// import: docs/benchmarks.md, "Memory"). Swift's Glibc module does not declare it. Other C libraries (musl,
// Darwin's) have no malloc_trim: there it does nothing.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

static inline void share_release_free_memory(void) {
    malloc_trim(0);
}

// glibc gives threads up to eight arenas per core; under a daemon's steady traffic each one keeps its own freed
// memory, and RSS crept up for minutes (104 -> 122 MB in two minutes of bench/soak, flat at 103-107 MB with an
// arena per core: docs/benchmarks.md, "Sustained load").
static inline void share_limit_malloc_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}

// Once a large block (a chunk of a file being sent) is freed, glibc raises the size it maps blocks from the system
// at, and later chunks come from the arenas, which keep them. A fixed threshold maps every such chunk and unmaps
// it when freed (eight downloads at once: docs/benchmarks.md, "Transfers").
static inline void share_fix_malloc_mmap_threshold(int bytes) {
    mallopt(M_MMAP_THRESHOLD, bytes);
}
#else
static inline void share_release_free_memory(void) {}
static inline void share_limit_malloc_arenas(int count) { (void)count; }
static inline void share_fix_malloc_mmap_threshold(int bytes) { (void)bytes; }
#endif

#endif
