/*
 * fuzz_store.c - the store's reader over arbitrary flash: whatever the
 * journal rows and data hold (bit rot, a foreign image, a torn write), boot
 * picks a set whose frames all check, and reading any frame stays inside
 * the set and ends.
 *
 * Input: pairs of bytes become the 14-bit words of the journal rows and the
 * first data rows, in order. Byte 0 says which record rows get the magic and
 * byte 1 which get a correct CRC, so the bounds checks and the frame walk
 * behind those gates see arbitrary values too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "crc16.h"
#include "link_board.h"
#include "store.h"
#include "store_layout.h"

#define FUZZ_WORDS ((STORE_JOURNAL_ROWS + 64u) * HAL_FLASH_ROW_WORDS)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint16_t base = (uint16_t)(STORE_REGION_FIRST_ROW * HAL_FLASH_ROW_WORDS);
    uint16_t i;
    uint8_t count;
    uint8_t index;

    board_fresh();
    for (i = 0; i < FUZZ_WORDS && 2u * i + 1u < size; i++) {
        board_flash[base + i] =
            (uint16_t)((data[2u * i] | ((uint16_t)data[2u * i + 1u] << 8)) & STORE_WORD_MASK);
    }
    for (i = 0; i < STORE_JOURNAL_ROWS && size > 1u; i++) {
        uint16_t *record = &board_flash[base + i * HAL_FLASH_ROW_WORDS];
        if ((data[0] & (1u << i)) != 0u) {
            record[STORE_RECORD_MAGIC_AT] = STORE_RECORD_MAGIC;
        }
        if ((data[1] & (1u << i)) != 0u) {
            uint16_t crc = CRC16_INIT;
            uint8_t at;
            for (at = 0; at < STORE_RECORD_CRC_HIGH_AT; at++) {
                crc = crc16_update(crc, (uint8_t)record[at]);
                crc = crc16_update(crc, (uint8_t)(record[at] >> 8));
            }
            record[STORE_RECORD_CRC_HIGH_AT] = (uint16_t)(crc >> 8);
            record[STORE_RECORD_CRC_LOW_AT] = (uint16_t)(crc & 0xFFu);
        }
    }
    store_init();
    count = store_frame_count();
    if (count > STORE_MAX_FRAMES) {
        abort();
    }
    for (index = 0; index <= count; index++) {
        uint32_t reads = 0;
        bool opened = store_frame_open(index);
        if (index == count ? opened : !opened) {
            abort(); /* boot accepted the set, so each of its frames opens */
        }
        while (store_frame_left() != 0u) {
            (void)store_read_byte();
            reads++;
        }
        if (sim_nvm_flash_reads_outside() != 0u) {
            abort();
        }
        if (reads > 2u * HAL_FLASH_WORDS) {
            abort();
        }
    }
    return 0;
}
