/*
 * store.c - the frame set in program flash (layout: store_layout.h).
 * Read side (store.h) for display.c, write side (store_write.h) for link.c.
 *
 * Written for the 8-bit core: one read position, one candidate set and one
 * writer, each file-static and reached directly (no pointer arguments); the
 * row buffer is its own array so no object outgrows an 80-byte RAM bank.
 */
#include "store.h"

#include "crc16.h"
#include "frame.h"
#include "hal.h"
#include "store_layout.h"
#include "store_write.h"

typedef struct {
    uint16_t first_row; /* absolute row number */
    uint16_t words;     /* flash words the frames take */
    uint16_t generation;
    uint8_t count;
    uint8_t journal_row; /* 0 .. STORE_JOURNAL_ROWS - 1: where its record is */
} store_set_t;

/* The committed set, and the one being checked (a record read, or an upload). */
static store_set_t current;
static store_set_t candidate;
/* Newest generation among well-formed records, valid or not: the next
 * record must outrank every one of them. */
static uint16_t newest_generation;
static uint8_t failed_frame;

/* The read position: a bit stream of 14-bit words (store_layout.h). */
static uint16_t read_addr;  /* next flash word to unpack */
static uint16_t read_left;  /* frame bytes left */
static uint8_t read_phase;  /* bits of read_carry not yet handed out */
static uint16_t read_carry; /* the word being unpacked */

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
/* One flash row: the upload's next row, or a journal record. */
static uint16_t row_buf[HAL_FLASH_ROW_WORDS];

/* ---- words and bits -------------------------------------------------- */

uint16_t store_frame_words(uint16_t length) {
    uint16_t bytes = (uint16_t)(length + STORE_FRAME_HEADER_BYTES);
    uint8_t tail_bits = (uint8_t)((uint8_t)(bytes % 7u) << 3);

    /* 7 bytes in 4 words, then the tail's bits rounded up to whole words. */
    return (
        uint16_t)((uint16_t)((bytes / 7u) << 2) +
                  (uint8_t)((uint8_t)(tail_bits + STORE_BITS_PER_WORD - 1u) / STORE_BITS_PER_WORD));
}

static uint16_t rows_for_words(uint16_t words) {
    return (uint16_t)((uint16_t)(words + HAL_FLASH_ROW_WORDS - 1u) >> 5);
}

HAL_STATIC_ASSERT(row_is_32_words, HAL_FLASH_ROW_WORDS == 32u);

static uint16_t row_address(uint16_t row) {
    return (uint16_t)(row << 5);
}

static uint16_t next_generation(uint16_t generation) {
    return generation + 1u >= STORE_GENERATION_LIMIT ? 0u : (uint16_t)(generation + 1u);
}

/* Serial-number order, so generations may wrap (both are below the limit). */
static bool generation_newer(uint16_t a, uint16_t b) {
    uint16_t ahead = a >= b ? (uint16_t)(a - b) : (uint16_t)(a + (STORE_GENERATION_LIMIT - b));
    return ahead != 0u && ahead < STORE_GENERATION_LIMIT / 2u;
}

static void read_at(uint16_t word_addr, uint16_t length) {
    read_addr = word_addr;
    read_left = length;
    read_phase = 0u;
    read_carry = 0u;
}

uint8_t store_read_byte(void) {
    uint8_t need;
    uint16_t high;
    uint16_t word;

    if (read_left == 0u) {
        return 0xFFu;
    }
    read_left--;
    if (read_phase >= 8u) {
        read_phase = (uint8_t)(read_phase - 8u);
        return (uint8_t)(read_carry >> read_phase);
    }
    need = (uint8_t)(8u - read_phase);
    high = (uint16_t)(read_carry & (uint16_t)((1u << read_phase) - 1u));
    word = (uint16_t)(hal_flash_read(read_addr) & STORE_WORD_MASK);
    read_addr++;
    read_phase = (uint8_t)(STORE_BITS_PER_WORD - need);
    read_carry = word;
    return (uint8_t)((high << need) | (word >> read_phase));
}

uint16_t store_frame_left(void) {
    return read_left;
}

/* ---- read side ------------------------------------------------------- */

/*
 * Read the header of the frame at addr, with `left` words of the set from
 * there on; leaves the read position on the frame's bytes and its CRC in
 * *expected_crc. False if it cannot be a frame of this set.
 */
static uint16_t expected_crc;

static bool open_frame_at(uint16_t addr, uint16_t left) {
    uint16_t length;

    read_at(addr, STORE_FRAME_HEADER_BYTES);
    length = store_read_byte();
    length = (uint16_t)(length | ((uint16_t)store_read_byte() << 8));
    expected_crc = store_read_byte();
    expected_crc = (uint16_t)(expected_crc | ((uint16_t)store_read_byte() << 8));
    read_left = length;
    /* Checked before store_frame_words(), which would wrap for lengths near 64 K. */
    return length != 0u && length <= STORE_FRAME_MAX_BYTES && store_frame_words(length) <= left;
}

/* CRC of the open frame's bytes; leaves the read position where it was. */
static bool frame_crc_ok(void) {
    uint16_t addr = read_addr;
    uint16_t left = read_left;
    uint8_t phase = read_phase;
    uint16_t carry = read_carry;
    uint16_t crc = CRC16_INIT;

    while (read_left != 0u) {
        crc = crc16_update(crc, store_read_byte());
    }
    read_addr = addr;
    read_left = left;
    read_phase = phase;
    read_carry = carry;
    return crc == expected_crc;
}

/*
 * Every frame of the candidate intact (and, for a new upload, decodable),
 * and the frames fill exactly the recorded words.
 */
static store_status_t check_candidate(bool check_format) {
    uint16_t addr = row_address(candidate.first_row);
    uint16_t left = candidate.words;
    uint16_t words;
    uint8_t i;

    for (i = 0u; i < candidate.count; i++) {
        failed_frame = i;
        if (!open_frame_at(addr, left) || !frame_crc_ok()) {
            return STORE_ERR_FRAME_CRC;
        }
        words = store_frame_words(read_left);
        if (check_format && frame_check(store_read_byte, read_left) != FRAME_OK) {
            return STORE_ERR_FRAME_FORMAT;
        }
        addr = (uint16_t)(addr + words);
        left = (uint16_t)(left - words);
    }
    failed_frame = candidate.count;
    return left == 0u ? STORE_OK : STORE_ERR_FRAME_CRC;
}

/* CRC of a record's words 0..4, each as two bytes little-endian. */
static uint16_t record_crc(void) {
    uint16_t crc = CRC16_INIT;
    uint8_t i;

    for (i = 0u; i < STORE_RECORD_CRC_HIGH_AT; i++) {
        crc = crc16_update(crc, (uint8_t)row_buf[i]);
        crc = crc16_update(crc, (uint8_t)(row_buf[i] >> 8));
    }
    return crc;
}

/* The record in journal row `journal_row` into candidate; false if not a valid one. */
static bool read_record(uint8_t journal_row) {
    uint16_t addr = row_address((uint16_t)(STORE_REGION_FIRST_ROW + journal_row));
    uint16_t crc;
    uint8_t i;

    for (i = 0u; i < STORE_RECORD_WORDS; i++) {
        row_buf[i] = (uint16_t)(hal_flash_read((uint16_t)(addr + i)) & STORE_WORD_MASK);
    }
    crc = record_crc();
    if (row_buf[STORE_RECORD_MAGIC_AT] != STORE_RECORD_MAGIC ||
        row_buf[STORE_RECORD_CRC_HIGH_AT] != (crc >> 8) ||
        row_buf[STORE_RECORD_CRC_LOW_AT] != (crc & 0xFFu) ||
        row_buf[STORE_RECORD_GENERATION_AT] >= STORE_GENERATION_LIMIT ||
        row_buf[STORE_RECORD_COUNT_AT] > STORE_MAX_FRAMES) {
        return false;
    }
    candidate.generation = row_buf[STORE_RECORD_GENERATION_AT];
    candidate.first_row = row_buf[STORE_RECORD_FIRST_ROW_AT];
    candidate.count = (uint8_t)row_buf[STORE_RECORD_COUNT_AT];
    candidate.words = row_buf[STORE_RECORD_WORDS_AT];
    candidate.journal_row = journal_row;
    return candidate.first_row >= STORE_DATA_FIRST_ROW &&
           candidate.first_row < STORE_DATA_FIRST_ROW + STORE_DATA_ROWS &&
           candidate.words <= STORE_DATA_WORDS &&
           rows_for_words(candidate.words) <=
               STORE_DATA_FIRST_ROW + STORE_DATA_ROWS - candidate.first_row;
}

void store_init(void) {
    uint16_t generations[STORE_JOURNAL_ROWS];
    uint8_t valid = 0u; /* bit r: journal row r holds a well-formed record */
    uint8_t row;
    uint8_t best;
    uint8_t tries;

    writing = false;
    current.first_row = STORE_DATA_FIRST_ROW;
    current.words = 0u;
    current.count = 0u;
    current.generation = 0u;
    current.journal_row = STORE_JOURNAL_ROWS - 1u;
    newest_generation = STORE_GENERATION_LIMIT - 1u;

    for (row = 0u; row < STORE_JOURNAL_ROWS; row++) {
        if (!read_record(row)) {
            continue;
        }
        generations[row] = candidate.generation;
        if (valid == 0u || generation_newer(candidate.generation, newest_generation)) {
            newest_generation = candidate.generation;
            current.journal_row = row;
        }
        valid = (uint8_t)(valid | (1u << row));
    }
    if (valid != 0u) {
        current.generation = newest_generation;
    }
    /* Newest first; a record whose frames fail their check yields to the
     * one before it. */
    for (tries = 0u; tries < STORE_JOURNAL_ROWS && valid != 0u; tries++) {
        best = STORE_JOURNAL_ROWS;
        for (row = 0u; row < STORE_JOURNAL_ROWS; row++) {
            if ((valid & (1u << row)) != 0u &&
                (best == STORE_JOURNAL_ROWS ||
                 generation_newer(generations[row], generations[best]))) {
                best = row;
            }
        }
        (void)read_record(best);
        if (check_candidate(false) == STORE_OK) {
            current = candidate;
            return;
        }
        valid = (uint8_t)(valid & ~(1u << best));
    }
}

uint8_t store_frame_count(void) {
    return current.count;
}

bool store_frame_open(uint8_t index) {
    uint16_t addr = row_address(current.first_row);
    uint16_t left = current.words;
    uint16_t words;
    uint8_t i;

    for (i = 0u; i <= index && i < current.count; i++) {
        if (!open_frame_at(addr, left)) {
            break;
        }
        if (i == index) {
            if (frame_crc_ok()) {
                return true;
            }
            break;
        }
        words = store_frame_words(read_left);
        addr = (uint16_t)(addr + words);
        left = (uint16_t)(left - words);
    }
    read_at(0u, 0u);
    return false;
}

/* ---- write side ------------------------------------------------------ */

/* Rows [start, end) of the data area relative to its first row. */
static uint16_t current_start(void) {
    return (uint16_t)(current.first_row - STORE_DATA_FIRST_ROW);
}

static uint16_t current_end(void) {
    return (uint16_t)(current_start() + rows_for_words(current.words));
}

uint16_t store_free_words(void) {
    uint16_t start = current_start();
    uint16_t after = (uint16_t)(STORE_DATA_ROWS - current_end());

    return row_address(start > after ? start : after);
}

/* First row of a free run of `rows` rows outside the current set, or 0. */
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
    return failed_frame;
}

store_status_t store_write_begin(uint8_t count, uint16_t flash_words) {
    writing = false;
    if (count > STORE_MAX_FRAMES) {
        return STORE_ERR_TOO_MANY_FRAMES;
    }
    if (flash_words > STORE_DATA_WORDS) {
        return STORE_ERR_TOO_BIG;
    }
    write_first_row = place_set(rows_for_words(flash_words));
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

/* Erase, program and read back the row at `row` from row_buf. */
static bool program_row(uint16_t row) {
    uint16_t addr = row_address(row);
    uint8_t i;

    if (!hal_flash_erase_row(addr) || !hal_flash_write_row(addr, row_buf)) {
        return false;
    }
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        if ((hal_flash_read((uint16_t)(addr + i)) & STORE_WORD_MASK) !=
            (row_buf[i] & STORE_WORD_MASK)) {
            return false;
        }
    }
    return true;
}

static store_status_t flush_row(void) {
    while (row_fill < HAL_FLASH_ROW_WORDS) {
        row_buf[row_fill] = HAL_FLASH_ERASED;
        row_fill++;
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
    row_buf[row_fill] = (uint16_t)(word & STORE_WORD_MASK);
    row_fill++;
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

/* A frame ends on a word boundary: pad its last word with 1 bits. */
static store_status_t end_frame(void) {
    uint8_t pad;
    uint16_t word;

    frames_done++;
    if (pending_count == 0u) {
        return STORE_OK;
    }
    pad = (uint8_t)(STORE_BITS_PER_WORD - pending_count);
    word = (uint16_t)((pending_bits << pad) | (uint16_t)((1u << pad) - 1u));
    pending_bits = 0u;
    pending_count = 0u;
    return emit_word(word);
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

/* Write candidate's record to the journal row after the current one. */
static store_status_t write_record(void) {
    uint16_t crc;
    uint8_t i;

    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        row_buf[i] = HAL_FLASH_ERASED;
    }
    candidate.generation = next_generation(newest_generation);
    candidate.journal_row =
        (uint8_t)((uint8_t)(current.journal_row + 1u) & (STORE_JOURNAL_ROWS - 1u));
    row_buf[STORE_RECORD_MAGIC_AT] = STORE_RECORD_MAGIC;
    row_buf[STORE_RECORD_GENERATION_AT] = candidate.generation;
    row_buf[STORE_RECORD_FIRST_ROW_AT] = candidate.first_row;
    row_buf[STORE_RECORD_COUNT_AT] = candidate.count;
    row_buf[STORE_RECORD_WORDS_AT] = candidate.words;
    crc = record_crc();
    row_buf[STORE_RECORD_CRC_HIGH_AT] = (uint16_t)(crc >> 8);
    row_buf[STORE_RECORD_CRC_LOW_AT] = (uint16_t)(crc & 0xFFu);
    if (!program_row((uint16_t)(STORE_REGION_FIRST_ROW + candidate.journal_row))) {
        return STORE_ERR_FLASH;
    }
    newest_generation = candidate.generation;
    current = candidate;
    return STORE_OK;
}

store_status_t store_write_commit(void) {
    store_status_t status;

    failed_frame = 0u;
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
    candidate.first_row = write_first_row;
    candidate.words = planned_words;
    candidate.count = write_count;
    status = check_candidate(true);
    if (status != STORE_OK) {
        return status;
    }
    return write_record();
}

store_status_t store_clear(void) {
    writing = false;
    candidate.first_row = STORE_DATA_FIRST_ROW;
    candidate.words = 0u;
    candidate.count = 0u;
    return write_record();
}
