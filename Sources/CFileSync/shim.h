#ifndef SHARE_CFILESYNC_SHIM_H
#define SHARE_CFILESYNC_SHIM_H

// An upload's bytes start for the disk as each chunk is written, so that the fsync that makes the upload durable
// waits only for the last ones (sync_file_range, SYNC_FILE_RANGE_WRITE; Swift's Glibc module does not declare it).
// Elsewhere it does nothing, and the fsync does all the work.
#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int share_start_writeback(int descriptor, long long offset, long long count) {
    return (int)syscall(SYS_sync_file_range, descriptor, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
}

// The flag that writes around the page cache (O_DIRECT, which glibc declares only for _GNU_SOURCE; its value differs
// between architectures). 0 where there is none: writes then always go through the cache.
static inline int share_direct_writes_flag(void) {
#if defined(__O_DIRECT)
    return __O_DIRECT;
#else
    return 0;
#endif
}
#else
static inline int share_start_writeback(int descriptor, long long offset, long long count) {
    (void)descriptor; (void)offset; (void)count;
    return 0;
}

static inline int share_direct_writes_flag(void) {
    return 0;
}
#endif

#endif
