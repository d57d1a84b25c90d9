/*
 * store.c - the frame set in program flash (layout: store_layout.h).
 * Read side (store.h) for display.c, write side (store_write.h) for link.c.
 */
#include "store.h"

#include "crc16.h"
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

typedef struct {
    bool active;
    uint8_t count;
    uint16_t first_row;
    uint16_t planned_words;
    uint16_t words_done;
    uint16_t offset;
    uint16_t next_row;
    uint16_t row[HAL_FLASH_ROW_WORDS];
    uint8_t row_fill;
    uint16_t bits;     /* pending bits of the next word, right-aligned */
    uint8_t bit_count; /* how many (0..13) */
    uint8_t frames_done;
    uint8_t header_have; /* header bytes of the current frame seen (0..4) */
    uint16_t frame_left; /* frame bytes still due once the header is in */
} store_writer_t;

static store_set_t current;
/* Newest generation among well-formed records, valid or not: the next
 * record must outrank every one of them. */
static uint16_t newest_generation;
static store_writer_t writer;

/* ---- words and bits -------------------------------------------------- */

uint16_t store_frame_words(uint16_t length) {
    uint16_t bytes = (uint16_t)(length + STORE_FRAME_HEADER_BYTES);
    uint16_t tail_bits = (uint16_t)((bytes % 7u) * 8u);

    return (uint16_t)((bytes / 7u) * 4u +
                      (tail_bits + STORE_BITS_PER_WORD - 1u) / STORE_BITS_PER_WORD);
}

static uint16_t rows_for_words(uint16_t words) {
    return (uint16_t)((words + HAL_FLASH_ROW_WORDS - 1u) / HAL_FLASH_ROW_WORDS);
}

static uint16_t next_generation(uint16_t generation) {
    return generation + 1u >= STORE_GENERATION_LIMIT ? 0u : (uint16_t)(generation + 1u);
}

/* Serial-number order, so generations may wrap. */
static bool generation_newer(uint16_t a, uint16_t b) {
    uint16_t ahead = (uint16_t)((a + STORE_GENERATION_LIMIT - b) % STORE_GENERATION_LIMIT);
    return ahead != 0u && ahead < STORE_GENERATION_LIMIT / 2u;
}

static void cursor_at(store_cursor_t *cursor, uint16_t word_addr, uint16_t length) {
    cursor->word_addr = word_addr;
    cursor->remaining = length;
    cursor->phase = 0;
    cursor->carry = 0;
}

uint8_t store_cursor_next(store_cursor_t *cursor) {
    uint8_t need;
    uint16_t high;
    uint16_t word;

    if (cursor->remaining == 0u) {
        return 0xFFu;
    }
    cursor->remaining--;
    if (cursor->phase >= 8u) {
        cursor->phase = (uint8_t)(cursor->phase - 8u);
        return (uint8_t)(cursor->carry >> cursor->phase);
    }
    need = (uint8_t)(8u - cursor->phase);
    high = (uint16_t)(cursor->carry & ((1u << cursor->phase) - 1u));
    word = (uint16_t)(hal_flash_read(cursor->word_addr) & STORE_WORD_MASK);
    cursor->word_addr++;
    cursor->phase = (uint8_t)(STORE_BITS_PER_WORD - need);
    cursor->carry = word;
    return (uint8_t)((high << need) | (word >> cursor->phase));
}

static uint16_t cursor_next_u16(store_cursor_t *cursor) {
    uint16_t low = store_cursor_next(cursor);
    return (uint16_t)(low | ((uint16_t)store_cursor_next(cursor) << 8));
}

/* ---- read side ------------------------------------------------------- */

/*
 * Read the header of the frame at addr, with `left` words of the set from
 * there on; leaves *cursor on the frame's bytes. False if it cannot be a
 * frame of this set.
 */
static bool open_frame_at(uint16_t addr, uint16_t left, store_cursor_t *cursor,
                          uint16_t *expected_crc) {
    uint16_t length;

    cursor_at(cursor, addr, STORE_FRAME_HEADER_BYTES);
    length = cursor_next_u16(cursor);
    *expected_crc = cursor_next_u16(cursor);
    cursor->remaining = length;
    return length != 0u && store_frame_words(length) <= left;
}

/* Reads a copy of the cursor: the caller's stays at the frame's start. */
static bool frame_crc_ok(const store_cursor_t *frame, uint16_t expected_crc) {
    store_cursor_t reader;
    uint16_t crc = CRC16_INIT;

    reader = *frame;
    while (reader.remaining != 0u) {
        crc = crc16_update(crc, store_cursor_next(&reader));
    }
    return crc == expected_crc;
}

/* Every frame intact and the frames fill exactly the recorded words. */
static bool check_set(const store_set_t *set, uint8_t *failed_frame) {
    uint16_t addr = (uint16_t)(set->first_row * HAL_FLASH_ROW_WORDS);
    uint16_t left = set->words;
    uint8_t i;

    for (i = 0; i < set->count; i++) {
        store_cursor_t cursor;
        uint16_t expected_crc;
        uint16_t frame_words;

        *failed_frame = i;
        if (!open_frame_at(addr, left, &cursor, &expected_crc) ||
            !frame_crc_ok(&cursor, expected_crc)) {
            return false;
        }
        frame_words = store_frame_words(cursor.remaining);
        addr = (uint16_t)(addr + frame_words);
        left = (uint16_t)(left - frame_words);
    }
    *failed_frame = set->count;
    return left == 0u;
}

static uint16_t record_crc(const uint16_t *words) {
    uint16_t crc = CRC16_INIT;
    uint8_t i;

    for (i = 0; i < STORE_RECORD_CRC_HIGH_AT; i++) {
        crc = crc16_update(crc, (uint8_t)words[i]);
        crc = crc16_update(crc, (uint8_t)(words[i] >> 8));
    }
    return crc;
}

static bool read_record(uint8_t journal_row, store_set_t *set) {
    uint16_t words[STORE_RECORD_WORDS];
    uint16_t row_addr = (uint16_t)((STORE_REGION_FIRST_ROW + journal_row) * HAL_FLASH_ROW_WORDS);
    uint16_t crc;
    uint8_t i;

    for (i = 0; i < STORE_RECORD_WORDS; i++) {
        words[i] = (uint16_t)(hal_flash_read((uint16_t)(row_addr + i)) & STORE_WORD_MASK);
    }
    crc = record_crc(words);
    if (words[STORE_RECORD_MAGIC_AT] != STORE_RECORD_MAGIC ||
        words[STORE_RECORD_CRC_HIGH_AT] != (crc >> 8) ||
        words[STORE_RECORD_CRC_LOW_AT] != (crc & 0xFFu) ||
        words[STORE_RECORD_GENERATION_AT] >= STORE_GENERATION_LIMIT) {
        return false;
    }
    set->generation = words[STORE_RECORD_GENERATION_AT];
    set->first_row = words[STORE_RECORD_FIRST_ROW_AT];
    set->count = (uint8_t)words[STORE_RECORD_COUNT_AT];
    set->words = words[STORE_RECORD_WORDS_AT];
    set->journal_row = journal_row;
    return words[STORE_RECORD_COUNT_AT] <= STORE_MAX_FRAMES &&
           set->first_row >= STORE_DATA_FIRST_ROW &&
           set->first_row < STORE_DATA_FIRST_ROW + STORE_DATA_ROWS &&
           set->words <= STORE_DATA_WORDS &&
           rows_for_words(set->words) <= STORE_DATA_FIRST_ROW + STORE_DATA_ROWS - set->first_row;
}

static void set_empty(void) {
    current.first_row = STORE_DATA_FIRST_ROW;
    current.words = 0;
    current.count = 0;
}

void store_init(void) {
    store_set_t records[STORE_JOURNAL_ROWS];
    bool valid[STORE_JOURNAL_ROWS];
    bool any = false;
    uint8_t row;
    uint8_t tries;

    writer.active = false;
    set_empty();
    current.generation = 0;
    current.journal_row = STORE_JOURNAL_ROWS - 1u;
    newest_generation = STORE_GENERATION_LIMIT - 1u;

    for (row = 0; row < STORE_JOURNAL_ROWS; row++) {
        valid[row] = read_record(row, &records[row]);
        if (valid[row] && (!any || generation_newer(records[row].generation, newest_generation))) {
            newest_generation = records[row].generation;
            current.journal_row = row;
        }
        any = any || valid[row];
    }
    if (any) {
        current.generation = newest_generation;
    }
    /* Newest first; a record whose frames fail their check yields to the
     * one before it. */
    for (tries = 0; tries < STORE_JOURNAL_ROWS; tries++) {
        uint8_t best = STORE_JOURNAL_ROWS;
        uint8_t failed;
        for (row = 0; row < STORE_JOURNAL_ROWS; row++) {
            if (valid[row] &&
                (best == STORE_JOURNAL_ROWS ||
                 generation_newer(records[row].generation, records[best].generation))) {
                best = row;
            }
        }
        if (best == STORE_JOURNAL_ROWS) {
            return;
        }
        if (check_set(&records[best], &failed)) {
            current = records[best];
            return;
        }
        valid[best] = false;
    }
}

uint8_t store_frame_count(void) {
    return current.count;
}

bool store_frame_open(uint8_t index, store_cursor_t *cursor) {
    uint16_t addr = (uint16_t)(current.first_row * HAL_FLASH_ROW_WORDS);
    uint16_t left = current.words;
    uint16_t expected_crc = 0;
    uint8_t i;

    for (i = 0; i <= index && i < current.count; i++) {
        if (!open_frame_at(addr, left, cursor, &expected_crc)) {
            break;
        }
        if (i == index) {
            if (frame_crc_ok(cursor, expected_crc)) {
                return true;
            }
            break;
        }
        addr = (uint16_t)(addr + store_frame_words(cursor->remaining));
        left = (uint16_t)(left - store_frame_words(cursor->remaining));
    }
    cursor_at(cursor, 0, 0);
    return false;
}

/* ---- write side ------------------------------------------------------ */

/* Rows [start, end) of the data area relative to its first row. */
static void current_rows(uint16_t *start, uint16_t *end) {
    *start = (uint16_t)(current.first_row - STORE_DATA_FIRST_ROW);
    *end = (uint16_t)(*start + rows_for_words(current.words));
}

uint16_t store_free_words(void) {
    uint16_t start;
    uint16_t end;
    uint16_t after;

    current_rows(&start, &end);
    after = (uint16_t)(STORE_DATA_ROWS - end);
    return (uint16_t)((start > after ? start : after) * HAL_FLASH_ROW_WORDS);
}

/* First row of a free run of `rows` rows outside the current set, or 0. */
static uint16_t place_set(uint16_t rows) {
    uint16_t start;
    uint16_t end;

    current_rows(&start, &end);
    if (rows <= start) {
        return STORE_DATA_FIRST_ROW;
    }
    if (rows <= STORE_DATA_ROWS - end) {
        return (uint16_t)(STORE_DATA_FIRST_ROW + end);
    }
    return 0;
}

bool store_write_active(void) {
    return writer.active;
}

uint16_t store_write_offset(void) {
    return writer.offset;
}

void store_write_abort(void) {
    writer.active = false;
}

store_status_t store_write_begin(uint8_t count, uint16_t flash_words) {
    uint16_t first_row;

    writer.active = false;
    if (count > STORE_MAX_FRAMES) {
        return STORE_ERR_TOO_MANY_FRAMES;
    }
    if (flash_words > STORE_DATA_WORDS) {
        return STORE_ERR_TOO_BIG;
    }
    first_row = place_set(rows_for_words(flash_words));
    if (first_row == 0u) {
        return STORE_ERR_TOO_BIG;
    }
    writer.active = true;
    writer.count = count;
    writer.first_row = first_row;
    writer.next_row = first_row;
    writer.planned_words = flash_words;
    writer.words_done = 0;
    writer.offset = 0;
    writer.row_fill = 0;
    writer.bits = 0;
    writer.bit_count = 0;
    writer.frames_done = 0;
    writer.header_have = 0;
    writer.frame_left = 0;
    return STORE_OK;
}

static bool program_row(uint16_t row, const uint16_t *words) {
    uint16_t addr = (uint16_t)(row * HAL_FLASH_ROW_WORDS);
    uint8_t i;

    if (!hal_flash_erase_row(addr) || !hal_flash_write_row(addr, words)) {
        return false;
    }
    for (i = 0; i < HAL_FLASH_ROW_WORDS; i++) {
        if ((hal_flash_read((uint16_t)(addr + i)) & STORE_WORD_MASK) !=
            (words[i] & STORE_WORD_MASK)) {
            return false;
        }
    }
    return true;
}

static store_status_t flush_row(void) {
    while (writer.row_fill < HAL_FLASH_ROW_WORDS) {
        writer.row[writer.row_fill] = HAL_FLASH_ERASED;
        writer.row_fill++;
    }
    writer.row_fill = 0;
    if (!program_row(writer.next_row, writer.row)) {
        return STORE_ERR_FLASH;
    }
    writer.next_row++;
    return STORE_OK;
}

static store_status_t emit_word(uint16_t word) {
    if (writer.words_done >= writer.planned_words) {
        return STORE_ERR_BAD_STREAM;
    }
    writer.row[writer.row_fill] = (uint16_t)(word & STORE_WORD_MASK);
    writer.row_fill++;
    writer.words_done++;
    return writer.row_fill == HAL_FLASH_ROW_WORDS ? flush_row() : STORE_OK;
}

static store_status_t pack_byte(uint8_t byte) {
    uint8_t take;
    uint16_t word;

    if (writer.bit_count + 8u < STORE_BITS_PER_WORD) {
        writer.bits = (uint16_t)((writer.bits << 8) | byte);
        writer.bit_count = (uint8_t)(writer.bit_count + 8u);
        return STORE_OK;
    }
    take = (uint8_t)(STORE_BITS_PER_WORD - writer.bit_count);
    word = (uint16_t)((writer.bits << take) | (byte >> (8u - take)));
    writer.bit_count = (uint8_t)(8u - take);
    writer.bits = (uint16_t)(byte & ((1u << writer.bit_count) - 1u));
    return emit_word(word);
}

/* A frame ends on a word boundary: pad its last word with 1 bits. */
static store_status_t end_frame(void) {
    uint8_t pad;
    uint16_t word;

    writer.frames_done++;
    if (writer.bit_count == 0u) {
        return STORE_OK;
    }
    pad = (uint8_t)(STORE_BITS_PER_WORD - writer.bit_count);
    word = (uint16_t)((writer.bits << pad) | ((1u << pad) - 1u));
    writer.bits = 0;
    writer.bit_count = 0;
    return emit_word(word);
}

static store_status_t take_stream_byte(uint8_t byte) {
    store_status_t status;

    if (writer.frames_done >= writer.count) {
        return STORE_ERR_BAD_STREAM;
    }
    status = pack_byte(byte);
    if (status != STORE_OK) {
        return status;
    }
    if (writer.header_have < STORE_FRAME_HEADER_BYTES) {
        if (writer.header_have == 0u) {
            writer.frame_left = byte;
        } else if (writer.header_have == 1u) {
            writer.frame_left = (uint16_t)(writer.frame_left | ((uint16_t)byte << 8));
            if (writer.frame_left == 0u) {
                return STORE_ERR_BAD_STREAM;
            }
        }
        writer.header_have++;
        return STORE_OK;
    }
    writer.frame_left--;
    if (writer.frame_left == 0u) {
        writer.header_have = 0;
        return end_frame();
    }
    return STORE_OK;
}

store_status_t store_write_bytes(const uint8_t *data, uint8_t length) {
    uint8_t i;

    if (!writer.active) {
        return STORE_ERR_NOT_WRITING;
    }
    for (i = 0; i < length; i++) {
        store_status_t status = take_stream_byte(data[i]);
        if (status != STORE_OK) {
            writer.active = false;
            return status;
        }
        writer.offset++;
    }
    return STORE_OK;
}

static store_status_t write_record(store_set_t *set) {
    /* No upload is in progress here, so its row buffer holds the record:
     * RAM is too scarce for a second 64-byte buffer. */
    uint16_t *words = writer.row;
    uint16_t crc;
    uint8_t i;

    for (i = 0; i < HAL_FLASH_ROW_WORDS; i++) {
        words[i] = HAL_FLASH_ERASED;
    }
    set->generation = next_generation(newest_generation);
    set->journal_row = (uint8_t)((current.journal_row + 1u) % STORE_JOURNAL_ROWS);
    words[STORE_RECORD_MAGIC_AT] = STORE_RECORD_MAGIC;
    words[STORE_RECORD_GENERATION_AT] = set->generation;
    words[STORE_RECORD_FIRST_ROW_AT] = set->first_row;
    words[STORE_RECORD_COUNT_AT] = set->count;
    words[STORE_RECORD_WORDS_AT] = set->words;
    crc = record_crc(words);
    words[STORE_RECORD_CRC_HIGH_AT] = (uint16_t)(crc >> 8);
    words[STORE_RECORD_CRC_LOW_AT] = (uint16_t)(crc & 0xFFu);
    if (!program_row((uint16_t)(STORE_REGION_FIRST_ROW + set->journal_row), words)) {
        return STORE_ERR_FLASH;
    }
    newest_generation = set->generation;
    current = *set;
    return STORE_OK;
}

store_status_t store_write_commit(uint8_t *failed_frame) {
    store_set_t set;
    store_status_t status;

    *failed_frame = 0;
    if (!writer.active) {
        return STORE_ERR_NOT_WRITING;
    }
    if (writer.frames_done != writer.count || writer.header_have != 0u || writer.bit_count != 0u ||
        writer.words_done != writer.planned_words) {
        return STORE_ERR_INCOMPLETE;
    }
    writer.active = false;
    if (writer.row_fill != 0u) {
        status = flush_row();
        if (status != STORE_OK) {
            return status;
        }
    }
    set.first_row = writer.first_row;
    set.words = writer.planned_words;
    set.count = writer.count;
    if (!check_set(&set, failed_frame)) {
        return STORE_ERR_FRAME_CRC;
    }
    return write_record(&set);
}

store_status_t store_clear(void) {
    store_set_t set;

    writer.active = false;
    set.first_row = STORE_DATA_FIRST_ROW;
    set.words = 0;
    set.count = 0;
    return write_record(&set);
}
