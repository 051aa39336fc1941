#ifndef SHARE_CMALLOC_SHIM_H
#define SHARE_CMALLOC_SHIM_H

#include <malloc.h>

// glibc keeps memory that was freed for later use; after a one-off peak (a bulk import) that memory is
// still counted in the process's RSS. malloc_trim hands it back to the system. Swift's Glibc module does
// not declare it.
static inline void share_release_free_memory(void) {
    malloc_trim(0);
}

#endif
