#include "link_packets.h"

#include <string.h>

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
    crc = crc16_block(CRC16_INIT, body, length);
    body[length] = (uint8_t)(crc >> 8);
    body[length + 1u] = (uint8_t)crc;
    return cobs_encode(body, (uint8_t)(length + LINK_CRC_BYTES), wire);
}

uint8_t link_packets_parse(const uint8_t *wire, uint16_t length, link_packet_t *packets) {
    uint8_t buffer[LINK_PACKET_MAX];
    cobs_decoder_t decoder;
    uint8_t found = 0;
    uint16_t i;

    cobs_decoder_init(&decoder, buffer, (uint8_t)sizeof buffer);
    for (i = 0; i < length && found < LINK_PACKETS_MAX; i++) {
        if (cobs_decode_byte(&decoder, wire[i]) != COBS_PACKET || decoder.length < 4u ||
            crc16_block(CRC16_INIT, buffer, decoder.length) != 0u) {
            continue;
        }
        packets[found].type = buffer[0];
        packets[found].seq = buffer[1];
        packets[found].payload_length = (uint8_t)(decoder.length - 4u);
        memcpy(packets[found].payload, &buffer[2], packets[found].payload_length);
        found++;
    }
    return found;
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
