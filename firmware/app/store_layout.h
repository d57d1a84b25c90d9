/*
 * store_layout.h - where the frame store lives in program flash and how its
 * bytes are packed into 14-bit words. host/epdle/link/flash_layout.py mirrors
 * it (checked by a test) so the host can build a flash image with a set.
 *
 * Region: STORE_REGION_ROWS rows from word STORE_REGION_FIRST_ROW * 32.
 *   journal: the first STORE_JOURNAL_ROWS rows, one set record per row;
 *   data:    the rest, where the sets' frames live.
 *
 * A set record (one row, words 0..6, the rest erased):
 *   magic, generation (0..0x3FFE, the newest wins, wraps), first data row
 *   (absolute row number), frame count, flash words used, CRC high byte,
 *   CRC low byte; the CRC covers words 0..4, each as two bytes little-endian.
 *
 * Frames of a set follow each other from its first row, each starting on a
 * word boundary: a 4-byte header (length u16 LE, CRC-16 of the frame bytes
 * u16 LE) then the frame bytes. Bytes are packed into words as one bit
 * stream, most significant bit first, 14 bits a word (7 bytes in 4 words);
 * the last word of a frame is padded with 1 bits.
 *
 * A new set is written to rows no committed set uses; it becomes current
 * when its record is written to the journal row after the current one, so a
 * power cut at any point leaves the previous set intact.
 */
#ifndef EPDLE_STORE_LAYOUT_H
#define EPDLE_STORE_LAYOUT_H

#include "hal.h"

#define STORE_BITS_PER_WORD 14u
#define STORE_WORD_MASK 0x3FFFu

/* Word 0x2800: the lower 10 K words are the firmware's (its SDCC build needs about 8.5 K
 * of them), the upper 6 K hold two typical 8-frame sets side by side. */
#define STORE_REGION_FIRST_ROW 320u
#define STORE_REGION_ROWS 192u
#define STORE_JOURNAL_ROWS 4u
#define STORE_DATA_FIRST_ROW (STORE_REGION_FIRST_ROW + STORE_JOURNAL_ROWS)
#define STORE_DATA_ROWS (STORE_REGION_ROWS - STORE_JOURNAL_ROWS)
#define STORE_DATA_WORDS (STORE_DATA_ROWS * HAL_FLASH_ROW_WORDS)

#define STORE_MAX_FRAMES 32u
#define STORE_FRAME_HEADER_BYTES 4u
/* The longest frame the data area could hold (7 bytes in 4 words, less its header). */
#define STORE_FRAME_MAX_BYTES ((STORE_DATA_WORDS / 4u) * 7u - STORE_FRAME_HEADER_BYTES)

#define STORE_RECORD_MAGIC 0x2E5Du
#define STORE_GENERATION_LIMIT 0x3FFFu /* generations run 0 .. limit - 1 */

/* Word indices inside a record row. */
#define STORE_RECORD_MAGIC_AT 0u
#define STORE_RECORD_GENERATION_AT 1u
#define STORE_RECORD_FIRST_ROW_AT 2u
#define STORE_RECORD_COUNT_AT 3u
#define STORE_RECORD_WORDS_AT 4u
#define STORE_RECORD_CRC_HIGH_AT 5u
#define STORE_RECORD_CRC_LOW_AT 6u
#define STORE_RECORD_WORDS 7u

/* Every figure above is computed in 16-bit unsigned arithmetic on the chip:
 * checked here in 32 bits, so a value that would wrap fails the build. */
/* The store is exactly the flash the HAL lets the firmware erase and write. */
HAL_STATIC_ASSERT(store_region_is_the_writable_flash,
                  STORE_REGION_FIRST_ROW * 1ul * HAL_FLASH_ROW_WORDS == HAL_FLASH_WRITABLE_FROM);
HAL_STATIC_ASSERT(store_region_in_flash,
                  (STORE_REGION_FIRST_ROW + STORE_REGION_ROWS) * 1ul * HAL_FLASH_ROW_WORDS <=
                      HAL_FLASH_WORDS);
HAL_STATIC_ASSERT(store_data_words_16_bits,
                  STORE_DATA_ROWS * 1ul * HAL_FLASH_ROW_WORDS <= 0xFFFFul);
HAL_STATIC_ASSERT(store_frame_max_16_bits, (STORE_DATA_WORDS / 4u) * 7ul <= 0xFFFFul);
HAL_STATIC_ASSERT(store_journal_power_of_two,
                  (STORE_JOURNAL_ROWS & (STORE_JOURNAL_ROWS - 1u)) == 0u);
HAL_STATIC_ASSERT(store_generation_fits_word, STORE_GENERATION_LIMIT <= STORE_WORD_MASK + 1u);
HAL_STATIC_ASSERT(store_frames_fit_record, STORE_MAX_FRAMES <= STORE_WORD_MASK);

#endif /* EPDLE_STORE_LAYOUT_H */
