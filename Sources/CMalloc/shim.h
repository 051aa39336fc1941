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
#else
static inline void share_release_free_memory(void) {}
#endif

#endif
