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

// Blocks of `bytes` and more (a transfer's 1 MiB chunks) are mapped for themselves and given back when freed. Left
// to glibc, the threshold rises to the largest block freed, and eight downloads' chunks stayed in the arenas
// (271 MB against 94: docs/benchmarks.md, "Transfers").
static inline void share_map_large_blocks(int bytes) {
    mallopt(M_MMAP_THRESHOLD, bytes);
}
#else
static inline void share_release_free_memory(void) {}
static inline void share_limit_malloc_arenas(int count) { (void)count; }
static inline void share_map_large_blocks(int bytes) { (void)bytes; }
#endif

#endif
