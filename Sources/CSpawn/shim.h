#ifndef SHARE_CSPAWN_SHIM_H
#define SHARE_CSPAWN_SHIM_H

#include <spawn.h>

// glibc's file actions that close every descriptor from `from` on (2.34) and change the folder (2.29) in the child.
// <spawn.h> declares them only under _GNU_SOURCE, so Swift's Glibc module does not have them.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

#endif
