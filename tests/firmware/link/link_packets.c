#include "link_packets.h"

#include <assert.h>
#include <string.h>

#include "frame.h"

#include "cobs.h"
#include "crc16.h"
#include "store_write.h"

uint16_t link_packet_build(uint8_t type, uint8_t seq, const uint8_t *payload,
                           uint8_t payload_length, uint8_t *wire) {
    uint8_t body[LINK_PACKET_MAX];
    uint8_t length = (uint8_t)(LINK_HEADER_BYTES + payload_length);
    uint16_t crc;

    body[0] = type;
    body[1] = seq;
    memcpy(&body[2], payload, payload_length);
    /* The CRC covers the decoded length first (CRC bytes included), then the packet. */
    crc = crc16_block(crc16_update(CRC16_INIT, (uint8_t)(length + LINK_CRC_BYTES)), body, length);
    body[length] = (uint8_t)(crc >> 8);
    body[length + 1u] = (uint8_t)crc;
    return cobs_encode(body, (uint8_t)(length + LINK_CRC_BYTES), wire);
}

/* The test's own COBS decoder (the device's is a singleton the link owns). */
static uint8_t unstuff(const uint8_t *wire, uint16_t length, uint8_t *out, uint8_t capacity) {
    uint16_t at = 0;
    uint8_t written = 0;

    while (at < length) {
        uint8_t code = wire[at++];
        uint8_t k;
        if (code == 0u) {
            return 0; /* a zero inside an encoded packet: not COBS */
        }
        for (k = 1; k < code; k++) {
            if (at >= length || written >= capacity) {
                return 0;
            }
            out[written++] = wire[at++];
        }
        if (code != 0xFFu && at < length) {
            if (written >= capacity) {
                return 0;
            }
            out[written++] = 0u;
        }
    }
    return written;
}

uint8_t link_packets_parse(const uint8_t *wire, uint16_t length, link_packet_t *packets) {
    uint8_t buffer[LINK_PACKET_MAX];
    uint8_t found = 0;
    uint16_t start = 0;
    uint16_t i;

    for (i = 0; i < length && found < LINK_PACKETS_MAX; i++) {
        uint8_t decoded;
        if (wire[i] != 0u) {
            continue;
        }
        decoded =
            i > start ? unstuff(&wire[start], (uint16_t)(i - start), buffer, sizeof buffer) : 0u;
        start = (uint16_t)(i + 1u);
        if (decoded < 4u || crc16_block(crc16_update(CRC16_INIT, decoded), buffer, decoded) != 0u) {
            continue;
        }
        packets[found].type = buffer[0];
        packets[found].seq = buffer[1];
        packets[found].payload_length = (uint8_t)(decoded - 4u);
        memcpy(packets[found].payload, &buffer[2], packets[found].payload_length);
        found++;
    }
    return found;
}

void link_make_frame(uint8_t *out, uint16_t length, uint8_t seed) {
    uint16_t at = 2;
    uint16_t left;

    assert(length >= 10u && length % 2u == 0u);
    out[0] = FRAME_VERSION;
    out[1] = 0;
    left = (uint16_t)(length - 2u);
    while (left > 0u) {
        /* One byte wide, h rows: 6 header bytes and 2h code bytes (a "1" a pixel, both planes). */
        uint8_t y = (uint8_t)((seed + out[1]) % 8u);
        uint16_t rows = (uint16_t)((left - 6u) / 2u);
        uint16_t i;
        if (rows > EPD_HEIGHT - y) {
            rows = (uint16_t)(EPD_HEIGHT - y);
        }
        if (left - (6u + 2u * rows) != 0u && left - (6u + 2u * rows) < 10u) {
            rows = (uint16_t)(rows - 8u); /* leave room for one more window */
        }
        out[at++] = (uint8_t)((seed + out[1]) % EPD_ROW_BYTES);
        out[at++] = y;
        out[at++] = 1;
        out[at++] = (uint8_t)rows;
        out[at++] = 0x00; /* order 0 everywhere */
        out[at++] = 0x00;
        for (i = 0; i < 2u * rows; i++) {
            out[at++] = 0xFFu;
        }
        left = (uint16_t)(left - 6u - 2u * rows);
        out[1]++;
        assert(out[1] <= FRAME_MAX_WINDOWS);
    }
}

uint16_t link_set_stream(const uint8_t *const *frames, const uint16_t *lengths, uint8_t count,
                         uint8_t *stream) {
    uint16_t at = 0;
    uint8_t i;

    for (i = 0; i < count; i++) {
        uint16_t crc = CRC16_INIT;
        uint16_t j;
        for (j = 0; j < lengths[i]; j++) {
            crc = crc16_update(crc, frames[i][j]);
        }
        stream[at++] = (uint8_t)lengths[i];
        stream[at++] = (uint8_t)(lengths[i] >> 8);
        stream[at++] = (uint8_t)crc;
        stream[at++] = (uint8_t)(crc >> 8);
        memcpy(&stream[at], frames[i], lengths[i]);
        at = (uint16_t)(at + lengths[i]);
    }
    return at;
}

uint16_t link_set_words(const uint16_t *lengths, uint8_t count) {
    uint16_t words = 0;
    uint8_t i;

    for (i = 0; i < count; i++) {
        words = (uint16_t)(words + store_frame_words(lengths[i]));
    }
    return words;
}
