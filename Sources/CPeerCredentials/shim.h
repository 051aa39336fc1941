#ifndef SHARE_CPEERCREDENTIALS_SHIM_H
#define SHARE_CPEERCREDENTIALS_SHIM_H

// What getsockopt(SO_PEERCRED) fills in on Linux: the process at the other end of a unix socket. It is glibc's
// `struct ucred`, which <sys/socket.h> declares only under _GNU_SOURCE, so Swift's Glibc module does not have it.
typedef struct {
    int pid;
    unsigned int uid;
    unsigned int gid;
} share_peer_credentials;

#endif
