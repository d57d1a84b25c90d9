/*
 * fuzz_link.h - what one input of fuzz_link got to, for the seeds' replay test.
 */
#ifndef EPDLE_FUZZ_LINK_H
#define EPDLE_FUZZ_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    bool chunk_accepted;  /* a CHUNK was ACKed */
    bool commit_accepted; /* a COMMIT was ACKed: a set was made current */
    bool cached_resend;   /* a command was answered twice: the second from the copy */
    bool commit_refused;  /* a COMMIT was refused for a frame's CRC or format */
    bool bad_packet;      /* a packet was reported damaged (BAD_PACKET event) */
} fuzz_link_reach_t;

extern fuzz_link_reach_t fuzz_link_reached;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* EPDLE_FUZZ_LINK_H */
