/*
 * link_packets.h - the host's side of the packet format, for tests: build a
 * command as wire bytes, split the device's output back into packets.
 */
#ifndef EPDLE_LINK_PACKETS_H
#define EPDLE_LINK_PACKETS_H

#include <stdint.h>

#include "protocol.h"

#define LINK_PACKETS_MAX 64u

typedef struct {
    uint8_t type;
    uint8_t seq;
    uint8_t payload[LINK_PAYLOAD_MAX];
    uint8_t payload_length;
} link_packet_t;

/* Wire bytes (COBS, delimiter) of one command; returns their count. */
uint16_t link_packet_build(uint8_t type, uint8_t seq, const uint8_t *payload,
                           uint8_t payload_length, uint8_t *wire);

/*
 * Decode every well-formed, CRC-correct packet in wire[0..length-1] into
 * packets[]; returns how many (at most LINK_PACKETS_MAX).
 */
uint8_t link_packets_parse(const uint8_t *wire, uint16_t length, link_packet_t *packets);

/* A valid frame of exactly `length` bytes (even, at least 10), varied by seed. */
void link_make_frame(uint8_t *out, uint16_t length, uint8_t seed);

/* The set stream of frames (header + bytes each); returns its length. */
uint16_t link_set_stream(const uint8_t *const *frames, const uint16_t *lengths, uint8_t count,
                         uint8_t *stream);

/* Flash words that set takes (store_frame_words summed). */
uint16_t link_set_words(const uint16_t *lengths, uint8_t count);

#endif /* EPDLE_LINK_PACKETS_H */
