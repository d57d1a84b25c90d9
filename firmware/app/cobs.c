#include "cobs.h"

#include "hal.h"

uint8_t cobs_packet[COBS_CAPACITY];
uint8_t cobs_length;
static uint8_t block_left; /* bytes still due in the current block */
static uint8_t block_code; /* code byte of the current block (0 before the first) */
static bool overflow;      /* the packet did not fit: drop it at the delimiter */

HAL_STATIC_ASSERT(cobs_capacity_fits_u8, COBS_CAPACITY <= 0xFFu);

void cobs_decoder_reset(void) {
    cobs_length = 0u;
    block_left = 0u;
    block_code = 0u;
    overflow = false;
}

static void append(uint8_t byte) {
    if (cobs_length < COBS_CAPACITY) {
        cobs_packet[cobs_length] = byte;
        cobs_length++;
    } else {
        overflow = true;
    }
}

cobs_result_t cobs_decode_byte(uint8_t byte) {
    bool well_formed;

    if (byte == COBS_DELIMITER) {
        if (block_code == 0u) {
            return COBS_MORE; /* idle line or wake preamble */
        }
        /* A block cut short means bytes were lost: the packet is not whole. */
        well_formed = block_left == 0u && !overflow && cobs_length > 0u;
        block_code = 0u;
        block_left = 0u;
        if (well_formed) {
            return COBS_PACKET;
        }
        cobs_decoder_reset();
        return COBS_DROPPED;
    }
    if (block_left == 0u) {
        if (block_code == 0u) {
            cobs_length = 0u;
            overflow = false;
        } else if (block_code != 0xFFu) {
            /* The block before this code byte stood for its data and a zero
             * (a full 254-byte run carries no zero). */
            append(0x00u);
        }
        block_code = byte;
        block_left = (uint8_t)(byte - 1u);
    } else {
        append(byte);
        block_left--;
    }
    return COBS_MORE;
}

/* data and out are in RAM on the chip (HAL_RAM: no runtime call a byte). */
uint8_t cobs_encode(const uint8_t *data_in, uint8_t length, uint8_t *out_in) {
    const HAL_RAM uint8_t *data = (const HAL_RAM uint8_t *)data_in;
    HAL_RAM uint8_t *out = (HAL_RAM uint8_t *)out_in;
    uint8_t code_at = 0u;
    uint8_t written = 1u;
    uint8_t code = 1u;
    uint8_t i;
    uint8_t byte;

    for (i = 0u; i < length; i++) {
        byte = data[i];
        if (byte == 0x00u) {
            out[code_at] = code;
            code_at = written;
            written++;
            code = 1u;
        } else {
            out[written] = byte;
            written++;
            code++;
        }
    }
    out[code_at] = code;
    out[written] = COBS_DELIMITER;
    written++;
    return written;
}
