/*
 * store_write.c - the frame store's write side (store_write.h, for link.c):
 * an upload streamed into free rows beside the current set, checked, then
 * made current by one journal record (layout: store_layout.h).
 */
#include "store_write.h"

#include "crc16.h"
#include "hal.h"
#include "store.h"
#include "store_layout.h"
#include "store_set.h"

/* The upload in progress. */
static bool writing;
static uint8_t write_count;
static uint16_t write_first_row;
static uint16_t planned_words;
static uint16_t words_done;
static uint16_t write_offset;
static uint16_t next_row;
static uint8_t row_fill;
static uint16_t pending_bits; /* of the next word, right-aligned */
static uint8_t pending_count; /* how many (0..13) */
static uint8_t frames_done;
static uint8_t header_have; /* header bytes of the current frame seen (0..4) */
static uint16_t frame_left; /* frame bytes still due once the header is in */

static uint16_t next_generation(uint16_t generation) {
    generation++;
    if (generation >= STORE_GENERATION_LIMIT) {
        generation = 0u;
    }
    return generation;
}

/* Rows [start, end) of the data area relative to its first row. */
static uint16_t current_start(void) {
    return (uint16_t)(store_current_first_row - STORE_DATA_FIRST_ROW);
}

static uint16_t current_end(void) {
    return (uint16_t)(current_start() + store_rows_for_words(store_current_words));
}

uint16_t store_free_words(void) {
    uint16_t start = current_start();
    uint16_t after = (uint16_t)(STORE_DATA_ROWS - current_end());

    return store_row_address(start > after ? start : after);
}

/* First row of a free run of `rows` rows outside the store_current set, or 0. */
static uint16_t place_set(uint16_t rows) {
    if (rows <= current_start()) {
        return STORE_DATA_FIRST_ROW;
    }
    if (rows <= STORE_DATA_ROWS - current_end()) {
        return (uint16_t)(STORE_DATA_FIRST_ROW + current_end());
    }
    return 0u;
}

bool store_write_active(void) {
    return writing;
}

uint16_t store_write_offset(void) {
    return write_offset;
}

void store_write_abort(void) {
    writing = false;
}

uint8_t store_failed_frame(void) {
    return store_failed;
}

store_status_t store_write_begin(uint8_t count, uint16_t flash_words) {
    writing = false;
    if (count > STORE_MAX_FRAMES) {
        return STORE_ERR_TOO_MANY_FRAMES;
    }
    if (flash_words > STORE_DATA_WORDS) {
        return STORE_ERR_TOO_BIG;
    }
    write_first_row = place_set(store_rows_for_words(flash_words));
    if (write_first_row == 0u) {
        return STORE_ERR_TOO_BIG;
    }
    writing = true;
    write_count = count;
    next_row = write_first_row;
    planned_words = flash_words;
    words_done = 0u;
    write_offset = 0u;
    row_fill = 0u;
    pending_bits = 0u;
    pending_count = 0u;
    frames_done = 0u;
    header_have = 0u;
    frame_left = 0u;
    return STORE_OK;
}

/* Erase, program and read back the row at `row` from store_row_buf. */
static bool program_row(uint16_t row) {
    uint16_t addr = store_row_address(row);
    uint8_t i;

    if (!hal_flash_erase_row(addr) || !hal_flash_write_row(addr, store_row_buf)) {
        return false;
    }
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        if (((hal_flash_read(addr) ^ store_row_buf[i]) & STORE_WORD_MASK) != 0u) {
            return false;
        }
        addr++;
    }
    return true;
}

/* The next word of the row being filled, reached by its byte offset: an 8-bit index
 * times the word's size is a call to SDCC's multiply (74 words of runtime). */
HAL_STATIC_ASSERT(row_byte_offset_fits_u8, HAL_FLASH_ROW_WORDS * 2u <= 0xFFu);
static void put_word(uint16_t word) {
    HAL_RAM uint8_t *at = (HAL_RAM uint8_t *)store_row_buf + (uint8_t)(row_fill + row_fill);

    *(HAL_RAM uint16_t *)at = (uint16_t)(word & STORE_WORD_MASK);
    row_fill++;
}

/* The row padded with erased words, programmed. */
static store_status_t flush_row(void) {
    while (row_fill < HAL_FLASH_ROW_WORDS) {
        put_word(HAL_FLASH_ERASED);
    }
    row_fill = 0u;
    if (!program_row(next_row)) {
        return STORE_ERR_FLASH;
    }
    next_row++;
    return STORE_OK;
}

static store_status_t emit_word(uint16_t word) {
    if (words_done >= planned_words) {
        return STORE_ERR_BAD_STREAM;
    }
    put_word(word);
    words_done++;
    return row_fill == HAL_FLASH_ROW_WORDS ? flush_row() : STORE_OK;
}

static store_status_t pack_byte(uint8_t byte) {
    uint8_t take;
    uint16_t word;

    if (pending_count + 8u < STORE_BITS_PER_WORD) {
        pending_bits = (uint16_t)((pending_bits << 8) | byte);
        pending_count = (uint8_t)(pending_count + 8u);
        return STORE_OK;
    }
    take = (uint8_t)(STORE_BITS_PER_WORD - pending_count);
    word = (uint16_t)((pending_bits << take) | (byte >> (8u - take)));
    pending_count = (uint8_t)(8u - take);
    pending_bits = (uint16_t)(byte & (uint8_t)((1u << pending_count) - 1u));
    return emit_word(word);
}

/* A frame ends on a word boundary: pad its last word with 1 bits, a byte of them at a
 * time (two when fewer than 6 bits are pending), the ones past the word dropped. */
static store_status_t end_frame(void) {
    store_status_t status;

    frames_done++;
    if (pending_count == 0u) {
        return STORE_OK;
    }
    if (pending_count + 8u < STORE_BITS_PER_WORD) {
        (void)pack_byte(0xFFu); /* only pends: no word to emit yet */
    }
    status = pack_byte(0xFFu);
    pending_bits = 0u;
    pending_count = 0u;
    return status;
}

static store_status_t take_stream_byte(uint8_t byte) {
    store_status_t status;

    if (frames_done >= write_count) {
        return STORE_ERR_BAD_STREAM;
    }
    status = pack_byte(byte);
    if (status != STORE_OK) {
        return status;
    }
    if (header_have < STORE_FRAME_HEADER_BYTES) {
        if (header_have == 0u) {
            frame_left = byte;
        } else if (header_have == 1u) {
            frame_left = (uint16_t)(frame_left | ((uint16_t)byte << 8));
            if (frame_left == 0u || frame_left > STORE_FRAME_MAX_BYTES) {
                return STORE_ERR_BAD_STREAM;
            }
        }
        header_have++;
        return STORE_OK;
    }
    frame_left--;
    if (frame_left == 0u) {
        header_have = 0u;
        return end_frame();
    }
    return STORE_OK;
}

store_status_t store_write_byte(uint8_t byte) {
    store_status_t status;

    if (!writing) {
        return STORE_ERR_NOT_WRITING;
    }
    status = take_stream_byte(byte);
    if (status != STORE_OK) {
        writing = false;
        return status;
    }
    write_offset++;
    return STORE_OK;
}

/* Write store_candidate's record to the journal row after the store_current one. */
static store_status_t write_record(void) {
    uint16_t crc;

    store_candidate_generation = next_generation(store_newest_generation);
    store_candidate_journal_row =
        (uint8_t)((uint8_t)(store_current_journal_row + 1u) & (STORE_JOURNAL_ROWS - 1u));
    crc = store_record_crc();
    /* The record's words in store_layout.h's order; flush_row() erases the rest. */
    row_fill = 0u;
    put_word(STORE_RECORD_MAGIC);
    put_word(store_candidate_generation);
    put_word(store_candidate_first_row);
    put_word(store_candidate_count);
    put_word(store_candidate_words);
    put_word(crc >> 8);
    put_word(crc & 0xFFu);
    next_row = (uint16_t)(STORE_REGION_FIRST_ROW + store_candidate_journal_row);
    if (flush_row() != STORE_OK) {
        return STORE_ERR_FLASH;
    }
    store_newest_generation = store_candidate_generation;
    store_take_candidate();
    return STORE_OK;
}

store_status_t store_write_commit(void) {
    store_status_t status;

    store_failed = 0u;
    if (!writing) {
        return STORE_ERR_NOT_WRITING;
    }
    if (frames_done != write_count || header_have != 0u || pending_count != 0u ||
        words_done != planned_words) {
        return STORE_ERR_INCOMPLETE;
    }
    writing = false;
    if (row_fill != 0u) {
        status = flush_row();
        if (status != STORE_OK) {
            return status;
        }
    }
    store_candidate_first_row = write_first_row;
    store_candidate_words = planned_words;
    store_candidate_count = write_count;
    status = store_check_candidate(true);
    if (status != STORE_OK) {
        return status;
    }
    return write_record();
}

store_status_t store_clear(void) {
    writing = false;
    store_candidate_first_row = STORE_DATA_FIRST_ROW;
    store_candidate_words = 0u;
    store_candidate_count = 0u;
    return write_record();
}
