/*
 * store_set.h - what the two halves of the frame store share (store.c reads
 * and checks sets, store_write.c writes them); not for use outside them.
 */
#ifndef EPDLE_STORE_SET_H
#define EPDLE_STORE_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"
#include "store_layout.h"
#include "store_write.h"

/*
 * A set: the committed one (store_current_*) and the one being checked
 * (store_candidate_*: a record read, or an upload). Each field is its own
 * variable: SDCC pic14 works on a plain variable in place, a struct field
 * only through a copy.
 */
extern uint16_t store_current_first_row; /* absolute row number */
extern uint16_t store_current_words;     /* flash words the frames take */
extern uint16_t store_current_generation;
extern uint8_t store_current_count;
extern uint8_t store_current_journal_row; /* 0 .. STORE_JOURNAL_ROWS - 1: where its record is */
extern uint16_t store_candidate_first_row;
extern uint16_t store_candidate_words;
extern uint16_t store_candidate_generation;
extern uint8_t store_candidate_count;
extern uint8_t store_candidate_journal_row;
/* Newest generation among well-formed records, valid or not: the next
 * record must outrank every one of them. */
extern uint16_t store_newest_generation;
/* The frame a check of the candidate failed at. */
extern uint8_t store_failed;
/* One flash row: the upload's next row, or a journal record. */
extern uint16_t store_row_buf[HAL_FLASH_ROW_WORDS];

uint16_t store_rows_for_words(uint16_t words);
uint16_t store_row_address(uint16_t row);
/* CRC of store_candidate's record (words 0..4, each as two bytes little-endian). */
uint16_t store_record_crc(void);
/* store_record_crc() and write_record() take a record's words in this order. */
HAL_STATIC_ASSERT(record_word_order,
                  STORE_RECORD_MAGIC_AT == 0u && STORE_RECORD_GENERATION_AT == 1u &&
                      STORE_RECORD_FIRST_ROW_AT == 2u && STORE_RECORD_COUNT_AT == 3u &&
                      STORE_RECORD_WORDS_AT == 4u && STORE_RECORD_CRC_HIGH_AT == 5u &&
                      STORE_RECORD_CRC_LOW_AT == 6u && STORE_RECORD_WORDS == 7u);
/*
 * Every frame of store_candidate intact (and, for a new upload, decodable),
 * and the frames fill exactly the recorded words.
 */
store_status_t store_check_candidate(bool check_format);
/* store_candidate becomes store_current. */
void store_take_candidate(void);

#endif /* EPDLE_STORE_SET_H */
