/*
 * cobs.h - Consistent Overhead Byte Stuffing: packets on the wire contain no
 * 0x00, so a 0x00 byte always ends a packet and any garbage is forgotten at
 * the next delimiter.
 *
 * The decoder works byte by byte as the UART delivers them, so only the
 * decoded packet is ever held in RAM (its own buffer, reached directly).
 */
#ifndef EPDLE_COBS_H
#define EPDLE_COBS_H

#include <stdbool.h>
#include <stdint.h>

#include "protocol.h"

#define COBS_DELIMITER 0x00u

/* Encoded size of n bytes (n < 254): one code byte more, plus the delimiter. */
#define COBS_ENCODED_MAX(n) ((n) + 2u)

typedef enum {
    COBS_MORE = 0, /* byte taken, packet not finished */
    COBS_PACKET,   /* delimiter closed a well-formed, non-empty packet */
    COBS_DROPPED   /* delimiter closed a malformed or oversized packet */
} cobs_result_t;

/* The decoded packet: one decoder, as the device has one UART. */
#define COBS_CAPACITY LINK_PACKET_MAX
extern uint8_t cobs_packet[COBS_CAPACITY];
extern uint8_t cobs_length; /* decoded bytes so far */

/* Forget the packet in progress (as if a delimiter had been seen). */
void cobs_decoder_reset(void);

/*
 * Feed one wire byte. On COBS_PACKET the packet is cobs_packet[0 ..
 * cobs_length-1] and stays there until the next call; the decoder is ready
 * for the next packet. A packet longer than COBS_CAPACITY is dropped.
 */
cobs_result_t cobs_decode_byte(uint8_t byte);

/*
 * Encode length bytes (length < 254) into out, which must hold
 * COBS_ENCODED_MAX(length) bytes; the closing delimiter is included.
 * Returns the number of bytes written.
 */
uint8_t cobs_encode(const uint8_t *data, uint8_t length, uint8_t *out);

#endif /* EPDLE_COBS_H */
