#ifndef SHARE_CZLIB_SHIM_H
#define SHARE_CZLIB_SHIM_H

// zlib's CRC-32, which ZIP entries carry (zlib1g-dev).
#include <zlib.h>

#endif
