/*
 * store_set.h - what the two halves of the frame store share (store.c reads
 * and checks sets, store_write.c writes them); not for use outside them.
 */
#ifndef EPDLE_STORE_SET_H
#define EPDLE_STORE_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"
#include "store_write.h"

typedef struct {
    uint16_t first_row; /* absolute row number */
    uint16_t words;     /* flash words the frames take */
    uint16_t generation;
    uint8_t count;
    uint8_t journal_row; /* 0 .. STORE_JOURNAL_ROWS - 1: where its record is */
} store_set_t;

/* The committed set, and the one being checked (a record read, or an upload). */
extern store_set_t store_current;
extern store_set_t store_candidate;
/* Newest generation among well-formed records, valid or not: the next
 * record must outrank every one of them. */
extern uint16_t store_newest_generation;
/* The frame a check of the candidate failed at. */
extern uint8_t store_failed;
/* One flash row: the upload's next row, or a journal record. */
extern uint16_t store_row_buf[HAL_FLASH_ROW_WORDS];

uint16_t store_rows_for_words(uint16_t words);
uint16_t store_row_address(uint16_t row);
/* CRC of the record in store_row_buf (words 0..4, each as two bytes little-endian). */
uint16_t store_record_crc(void);
/*
 * Every frame of store_candidate intact (and, for a new upload, decodable),
 * and the frames fill exactly the recorded words.
 */
store_status_t store_check_candidate(bool check_format);
/* store_candidate becomes store_current (field by field: a struct copy is a memcpy call). */
void store_take_candidate(void);

#endif /* EPDLE_STORE_SET_H */
