/*
 * store.c - the frame set in program flash (layout: store_layout.h), read
 * side (store.h, for display.c): finding the store_current set at boot, checking
 * sets, reading frames. The write side (store_write.h, for link.c) is
 * store_write.c.
 *
 * Written for the 8-bit core: one read position and one store_candidate set, each
 * reached directly (no pointer arguments); the row buffer is its own array,
 * and the two halves are two files, so no object (a file's locals are one)
 * outgrows an 80-byte RAM bank.
 */
#include "store.h"

#include "crc16.h"
#include "frame.h"
#include "hal.h"
#include "store_layout.h"
#include "store_set.h"

uint16_t store_current_first_row;
uint16_t store_current_words;
uint16_t store_current_generation;
uint8_t store_current_count;
uint8_t store_current_journal_row;
uint16_t store_candidate_first_row;
uint16_t store_candidate_words;
uint16_t store_candidate_generation;
uint8_t store_candidate_count;
uint8_t store_candidate_journal_row;
uint16_t store_newest_generation;
uint8_t store_failed;
uint16_t store_row_buf[HAL_FLASH_ROW_WORDS];

/*
 * The read position: a bit stream of 14-bit words (store_layout.h), 7 bytes
 * in each 4 words, so a byte's bits sit at one of 7 fixed places (its phase).
 */
static uint16_t read_addr; /* next flash word to unpack */
static uint16_t read_left; /* frame bytes left */
static uint8_t read_phase; /* 0 .. 6: the next byte's place in its 4 words */
static uint8_t read_high;  /* the word being unpacked: its top 6 bits */
static uint8_t read_low;   /* and its low 8 */

/* ---- words and bits -------------------------------------------------- */

/* 4 * bytes + 6 below stays in 16 bits for every length the store accepts. */
HAL_STATIC_ASSERT(frame_words_fit_u16,
                  4ul * (STORE_FRAME_MAX_BYTES + STORE_FRAME_HEADER_BYTES) + 6ul <= 0xFFFFul);
HAL_STATIC_ASSERT(seven_bytes_in_four_words, STORE_BITS_PER_WORD * 4u == 7u * 8u);

/*
 * 7 bytes in 4 words: ceil(4 * bytes / 7) words, for lengths up to
 * STORE_FRAME_MAX_BYTES. The division is 16 steps of shift and subtract in
 * 8-bit arithmetic (the runtime's 16-bit division and modulo take 117 words).
 */
uint16_t store_frame_words(uint16_t length) {
    uint16_t n = (uint16_t)((uint16_t)((uint16_t)(length + STORE_FRAME_HEADER_BYTES) << 2) + 6u);
    uint16_t quotient = 0u;
    uint8_t remainder = 0u;
    uint8_t step;

    for (step = 16u; step > 0u; step--) {
        remainder = (uint8_t)(remainder << 1);
        if ((n & 0x8000u) != 0u) {
            remainder |= 1u;
        }
        n = (uint16_t)(n << 1);
        quotient = (uint16_t)(quotient << 1);
        if (remainder >= 7u) {
            remainder = (uint8_t)(remainder - 7u);
            quotient |= 1u;
        }
    }
    return quotient;
}

uint16_t store_rows_for_words(uint16_t words) {
    return (uint16_t)((uint16_t)(words + HAL_FLASH_ROW_WORDS - 1u) >> 5);
}

HAL_STATIC_ASSERT(row_is_32_words, HAL_FLASH_ROW_WORDS == 32u);

uint16_t store_row_address(uint16_t row) {
    return (uint16_t)(row << 5);
}

/* Serial-number order, so generations may wrap (both are below the limit). */
static bool generation_newer(uint16_t a, uint16_t b) {
    uint16_t ahead = (uint16_t)(a - b);

    if (a < b) {
        ahead = (uint16_t)(ahead + STORE_GENERATION_LIMIT);
    }
    return ahead != 0u && ahead < STORE_GENERATION_LIMIT / 2u;
}

static void read_at(uint16_t word_addr, uint16_t length) {
    read_addr = word_addr;
    read_left = length;
    read_phase = 0u;
    read_high = 0u;
    read_low = 0u;
}

static void read_word(void) {
    uint16_t word = hal_flash_read(read_addr);

    read_addr++;
    read_high = (uint8_t)((uint8_t)(word >> 8) & (uint8_t)(STORE_WORD_MASK >> 8));
    read_low = (uint8_t)word;
}

HAL_STATIC_ASSERT(word_is_6_and_8_bits, STORE_WORD_MASK == 0x3FFFu);

/*
 * Words w0 .. w3 hold bytes b0 .. b6, most significant bit first:
 * b0 = w0[13:6], b1 = w0[5:0] w1[13:12], b2 = w1[11:4], b3 = w1[3:0] w2[13:10],
 * b4 = w2[9:2], b5 = w2[1:0] w3[13:8], b6 = w3[7:0]. Every shift is a
 * constant one on a byte (a variable shift is a loop on the 8-bit core).
 */
uint8_t store_read_byte(void) {
    uint8_t byte;
    uint8_t before;

    if (read_left == 0u) {
        return 0xFFu;
    }
    read_left--;
    HAL_WORK(HAL_WORK_STORED_BYTE);
    /* Phases 0, 1, 3 and 5 start in a new word; the odd ones end the last word's bits. */
    before = read_low;
    if (read_phase == 0u || (read_phase & 1u) != 0u) {
        read_word();
    }
    switch (read_phase) {
    case 0u:
        byte = (uint8_t)((uint8_t)(read_high << 2) | (uint8_t)(read_low >> 6));
        break;
    case 1u:
        byte = (uint8_t)((uint8_t)(before << 2) | (uint8_t)(read_high >> 4));
        break;
    case 2u:
        byte = (uint8_t)((uint8_t)(read_high << 4) | (uint8_t)(read_low >> 4));
        break;
    case 3u:
        byte = (uint8_t)((uint8_t)(before << 4) | (uint8_t)(read_high >> 2));
        break;
    case 4u:
        byte = (uint8_t)((uint8_t)(read_high << 6) | (uint8_t)(read_low >> 2));
        break;
    case 5u:
        byte = (uint8_t)((uint8_t)(before << 6) | read_high);
        break;
    default:
        byte = read_low;
        break;
    }
    read_phase++;
    if (read_phase == 7u) {
        read_phase = 0u;
    }
    return byte;
}

uint16_t store_frame_left(void) {
    return read_left;
}

/* ---- read side ------------------------------------------------------- */

/* The CRC the header of the frame opened last gives for its bytes. */
static uint16_t expected_crc;
/* A walk through a set's frames: the next frame's first word, and the set's words
 * from there on. */
static uint16_t walk_addr;
static uint16_t walk_left;

/*
 * Read the header of the frame at walk_addr and step the walk past the frame;
 * leaves the read position on the frame's bytes and its CRC in expected_crc.
 * False if it cannot be a frame of this set.
 */
static bool open_next_frame(void) {
    uint16_t length;
    uint16_t words;

    read_at(walk_addr, STORE_FRAME_HEADER_BYTES);
    length = store_read_byte();
    length = (uint16_t)(length | ((uint16_t)store_read_byte() << 8));
    expected_crc = store_read_byte();
    expected_crc = (uint16_t)(expected_crc | ((uint16_t)store_read_byte() << 8));
    read_left = length;
    /* Checked before store_frame_words(), which would wrap for lengths near 64 K. */
    if (length == 0u || length > STORE_FRAME_MAX_BYTES) {
        return false;
    }
    words = store_frame_words(length);
    if (words > walk_left) {
        return false;
    }
    walk_addr = (uint16_t)(walk_addr + words);
    walk_left = (uint16_t)(walk_left - words);
    return true;
}

/* CRC of the open frame's bytes; leaves the read position where it was. */
static bool frame_crc_ok(void) {
    uint16_t addr = read_addr;
    uint16_t left = read_left;
    uint8_t phase = read_phase;
    uint8_t high = read_high;
    uint8_t low = read_low;
    uint16_t crc = CRC16_INIT;

    while (read_left != 0u) {
        crc = crc16_update(crc, store_read_byte());
    }
    read_addr = addr;
    read_left = left;
    read_phase = phase;
    read_high = high;
    read_low = low;
    return crc == expected_crc;
}

/*
 * Every frame of the store_candidate intact (and, for a new upload, decodable),
 * and the frames fill exactly the recorded words.
 */
store_status_t store_check_candidate(bool check_format) {
    uint8_t i;

    walk_addr = store_row_address(store_candidate_first_row);
    walk_left = store_candidate_words;
    for (i = 0u; i < store_candidate_count; i++) {
        store_failed = i;
        if (!open_next_frame() || !frame_crc_ok()) {
            return STORE_ERR_FRAME_CRC;
        }
        if (check_format && frame_check(store_read_byte, read_left) != FRAME_OK) {
            return STORE_ERR_FRAME_FORMAT;
        }
    }
    store_failed = store_candidate_count;
    return walk_left == 0u ? STORE_OK : STORE_ERR_FRAME_CRC;
}

/* A field added to a set (store_set.h) must be copied below too. */
void store_take_candidate(void) {
    store_current_first_row = store_candidate_first_row;
    store_current_words = store_candidate_words;
    store_current_generation = store_candidate_generation;
    store_current_count = store_candidate_count;
    store_current_journal_row = store_candidate_journal_row;
}

static uint16_t record_crc;

static void record_crc_word(uint16_t word) {
    record_crc = crc16_update(record_crc, (uint8_t)word);
    record_crc = crc16_update(record_crc, (uint8_t)(word >> 8));
}

/* CRC of store_candidate's record words 0..4, each as two bytes little-endian. */
uint16_t store_record_crc(void) {
    record_crc = CRC16_INIT;
    record_crc_word(STORE_RECORD_MAGIC);
    record_crc_word(store_candidate_generation);
    record_crc_word(store_candidate_first_row);
    record_crc_word(store_candidate_count);
    record_crc_word(store_candidate_words);
    return record_crc;
}

static uint16_t record_addr;

static uint16_t record_word(uint8_t at) {
    return (uint16_t)(hal_flash_read((uint16_t)(record_addr + at)) & STORE_WORD_MASK);
}

/* The record in journal row `journal_row` into store_candidate; false if not a valid
 * one (store_candidate then holds no set). */
static bool read_record(uint8_t journal_row) {
    uint16_t count;
    uint16_t crc;

    record_addr = store_row_address((uint16_t)(STORE_REGION_FIRST_ROW + journal_row));
    count = record_word(STORE_RECORD_COUNT_AT);
    store_candidate_generation = record_word(STORE_RECORD_GENERATION_AT);
    if (record_word(STORE_RECORD_MAGIC_AT) != STORE_RECORD_MAGIC ||
        store_candidate_generation >= STORE_GENERATION_LIMIT || count > STORE_MAX_FRAMES) {
        return false;
    }
    store_candidate_count = (uint8_t)count;
    store_candidate_first_row = record_word(STORE_RECORD_FIRST_ROW_AT);
    store_candidate_words = record_word(STORE_RECORD_WORDS_AT);
    store_candidate_journal_row = journal_row;
    crc = store_record_crc();
    return record_word(STORE_RECORD_CRC_HIGH_AT) == (crc >> 8) &&
           record_word(STORE_RECORD_CRC_LOW_AT) == (crc & 0xFFu) &&
           /* One compare: a row below the data area wraps to a large number. */
           (uint16_t)(store_candidate_first_row - STORE_DATA_FIRST_ROW) < STORE_DATA_ROWS &&
           store_candidate_words <= STORE_DATA_WORDS &&
           store_rows_for_words(store_candidate_words) <=
               STORE_DATA_FIRST_ROW + STORE_DATA_ROWS - store_candidate_first_row;
}

void store_init(void) {
    uint16_t best_generation = 0u;
    uint8_t valid = 0u; /* bit r: journal row r holds a well-formed record */
    uint8_t row;
    uint8_t bit; /* 1 << row */
    uint8_t best;
    uint8_t best_bit = 0u;
    bool newest = true;

    store_current_first_row = STORE_DATA_FIRST_ROW;
    store_current_words = 0u;
    store_current_count = 0u;
    store_current_generation = 0u;
    store_current_journal_row = STORE_JOURNAL_ROWS - 1u;
    store_newest_generation = STORE_GENERATION_LIMIT - 1u;

    bit = 1u;
    for (row = 0u; row < STORE_JOURNAL_ROWS; row++) {
        if (read_record(row)) {
            valid |= bit;
        }
        bit = (uint8_t)(bit << 1);
    }
    /* Newest first (its record read again: no table of generations); a record whose
     * frames fail their check yields to the one before it. Each pass clears one bit
     * of valid. */
    while (valid != 0u) {
        best = STORE_JOURNAL_ROWS;
        bit = 1u;
        for (row = 0u; row < STORE_JOURNAL_ROWS; row++) {
            if ((valid & bit) != 0u) {
                (void)read_record(row);
                if (best == STORE_JOURNAL_ROWS ||
                    generation_newer(store_candidate_generation, best_generation)) {
                    best = row;
                    best_bit = bit;
                    best_generation = store_candidate_generation;
                }
            }
            bit = (uint8_t)(bit << 1);
        }
        if (newest) {
            /* The next record must outrank every well-formed one, valid or not. */
            newest = false;
            store_newest_generation = best_generation;
            store_current_generation = best_generation;
            store_current_journal_row = best;
        }
        (void)read_record(best);
        if (store_check_candidate(false) == STORE_OK) {
            store_take_candidate();
            return;
        }
        valid = (uint8_t)(valid & ~best_bit);
    }
}

uint8_t store_frame_count(void) {
    return store_current_count;
}

uint16_t store_generation(void) {
    return store_current_generation;
}

bool store_frame_open(uint8_t index) {
    uint8_t i;

    walk_addr = store_row_address(store_current_first_row);
    walk_left = store_current_words;
    for (i = 0u; i <= index && i < store_current_count; i++) {
        if (!open_next_frame()) {
            break;
        }
        if (i == index) {
            if (frame_crc_ok()) {
                return true;
            }
            break;
        }
    }
    read_at(0u, 0u);
    return false;
}
