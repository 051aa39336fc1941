#ifndef SHARE_CFILESYNC_SHIM_H
#define SHARE_CFILESYNC_SHIM_H

// An upload's bytes start for the disk as each chunk is written, so that the fsync that makes the upload durable
// waits only for the last ones (sync_file_range, SYNC_FILE_RANGE_WRITE; Swift's Glibc module does not declare it).
// Elsewhere it does nothing, and the fsync does all the work.
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

static inline int share_start_writeback(int descriptor, long long offset, long long count) {
    return (int)syscall(SYS_sync_file_range, descriptor, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
}
#else
static inline int share_start_writeback(int descriptor, long long offset, long long count) {
    (void)descriptor; (void)offset; (void)count;
    return 0;
}
#endif

#endif
