/*
 * cobs.h - Consistent Overhead Byte Stuffing: packets on the wire contain no
 * 0x00, so a 0x00 byte always ends a packet and any garbage is forgotten at
 * the next delimiter.
 *
 * The decoder works byte by byte as the UART delivers them, so only the
 * decoded packet is ever held in RAM.
 */
#ifndef EPDLE_COBS_H
#define EPDLE_COBS_H

#include <stdbool.h>
#include <stdint.h>

#define COBS_DELIMITER 0x00u

/* Encoded size of n bytes (n < 254): one code byte more, plus the delimiter. */
#define COBS_ENCODED_MAX(n) ((n) + 2u)

typedef enum {
    COBS_MORE = 0, /* byte taken, packet not finished */
    COBS_PACKET,   /* delimiter closed a well-formed, non-empty packet */
    COBS_DROPPED   /* delimiter closed a malformed or oversized packet */
} cobs_result_t;

typedef struct {
    uint8_t *buffer;    /* decoded bytes land here */
    uint8_t capacity;   /* size of buffer */
    uint8_t length;     /* decoded bytes so far */
    uint8_t block_left; /* bytes still due in the current block */
    uint8_t block_code; /* code byte of the current block (0 before the first) */
    bool overflow;      /* the packet did not fit: drop it at the delimiter */
} cobs_decoder_t;

void cobs_decoder_init(cobs_decoder_t *decoder, uint8_t *buffer, uint8_t capacity);

/* Forget the packet in progress (as if a delimiter had been seen). */
void cobs_decoder_reset(cobs_decoder_t *decoder);

/* True while a packet is half received. */
bool cobs_decoder_busy(const cobs_decoder_t *decoder);

/*
 * Feed one wire byte. On COBS_PACKET the packet is buffer[0 .. length-1] and
 * stays there until the next call; the decoder is ready for the next packet.
 */
cobs_result_t cobs_decode_byte(cobs_decoder_t *decoder, uint8_t byte);

/*
 * Encode length bytes (length < 254) into out, which must hold
 * COBS_ENCODED_MAX(length) bytes; the closing delimiter is included.
 * Returns the number of bytes written.
 */
uint8_t cobs_encode(const uint8_t *data, uint8_t length, uint8_t *out);

#endif /* EPDLE_COBS_H */
