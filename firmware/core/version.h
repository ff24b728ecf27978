/* This firmware's own version, reported in `identity` (the protocol's version is in
 * protocol.h, generated from the protocol's table). */
#ifndef SHOE_VERSION_H
#define SHOE_VERSION_H

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

#endif
