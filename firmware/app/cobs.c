#include "cobs.h"

void cobs_decoder_init(cobs_decoder_t *decoder, uint8_t *buffer, uint8_t capacity) {
    decoder->buffer = buffer;
    decoder->capacity = capacity;
    cobs_decoder_reset(decoder);
}

void cobs_decoder_reset(cobs_decoder_t *decoder) {
    decoder->length = 0;
    decoder->block_left = 0;
    decoder->block_code = 0;
    decoder->overflow = false;
}

bool cobs_decoder_busy(const cobs_decoder_t *decoder) {
    return decoder->block_code != 0u;
}

static void append(cobs_decoder_t *decoder, uint8_t byte) {
    if (decoder->length < decoder->capacity) {
        decoder->buffer[decoder->length] = byte;
        decoder->length++;
    } else {
        decoder->overflow = true;
    }
}

cobs_result_t cobs_decode_byte(cobs_decoder_t *decoder, uint8_t byte) {
    bool well_formed;

    if (byte == COBS_DELIMITER) {
        if (decoder->block_code == 0u) {
            return COBS_MORE; /* idle line or wake preamble */
        }
        /* A block cut short means bytes were lost: the packet is not whole. */
        well_formed = decoder->block_left == 0u && !decoder->overflow && decoder->length > 0u;
        decoder->block_code = 0;
        decoder->block_left = 0;
        if (well_formed) {
            return COBS_PACKET;
        }
        cobs_decoder_reset(decoder);
        return COBS_DROPPED;
    }
    if (decoder->block_left == 0u) {
        if (decoder->block_code == 0u) {
            decoder->length = 0;
            decoder->overflow = false;
        } else if (decoder->block_code != 0xFFu) {
            /* The block before this code byte stood for its data and a zero
             * (a full 254-byte run carries no zero). */
            append(decoder, 0x00u);
        }
        decoder->block_code = byte;
        decoder->block_left = (uint8_t)(byte - 1u);
    } else {
        append(decoder, byte);
        decoder->block_left--;
    }
    return COBS_MORE;
}

uint8_t cobs_encode(const uint8_t *data, uint8_t length, uint8_t *out) {
    uint8_t code_at = 0;
    uint8_t written = 1;
    uint8_t code = 1;
    uint8_t i;

    for (i = 0; i < length; i++) {
        if (data[i] == 0x00u) {
            out[code_at] = code;
            code_at = written;
            written++;
            code = 1;
        } else {
            out[written] = data[i];
            written++;
            code++;
        }
    }
    out[code_at] = code;
    out[written] = COBS_DELIMITER;
    written++;
    return written;
}
