/*
 * sim_nvm.c - the chip's non-volatile memories.
 *
 * Flash programming can only clear bits, so writing a row that was not
 * erased ANDs the new words into the old ones (and is reported). A power cut
 * scheduled for the Nth operation strikes during it: a row is left done up to
 * a word (sim_set_power_cut_tear; half by default), the word after it with
 * some of its bits done, and the board goes dark; an EEPROM byte is left
 * erased.
 */
#include "sim_nvm.h"

#include "sim.h"
#include "sim_board.h"
#include "sim_violation.h"

#include <string.h>

#define FLASH_WORDS 16384u
#define FLASH_ROW_WORDS 32u
#define FLASH_ROWS (FLASH_WORDS / FLASH_ROW_WORDS)
#define FLASH_ERASED 0x3FFFu
#define EEPROM_BYTES 256u
#define EEPROM_ERASED 0xFFu

static uint16_t flash[FLASH_WORDS];
static uint32_t row_erases[FLASH_ROWS];
static uint32_t total_erases;
static uint8_t eeprom[EEPROM_BYTES];
static uint32_t ops_started;
static uint32_t cut_at_op;     /* 0 = no cut scheduled */
static uint8_t tear_words;     /* words of a cut row operation that are done */
static uint16_t tear_bits;     /* bits of the next word that are done */
static uint32_t reads_outside; /* flash reads past the last word */

void sim_nvm_reset(void) {
    reads_outside = 0;
    unsigned i;

    for (i = 0; i < FLASH_WORDS; i++) {
        flash[i] = FLASH_ERASED;
    }
    memset(row_erases, 0, sizeof row_erases);
    memset(eeprom, EEPROM_ERASED, sizeof eeprom);
    total_erases = 0;
    ops_started = 0;
    cut_at_op = 0;
    tear_words = FLASH_ROW_WORDS / 2u;
    tear_bits = 0;
}

void sim_set_power_cut_tear(uint8_t words_done, uint16_t partial_bits) {
    tear_words = words_done > FLASH_ROW_WORDS ? FLASH_ROW_WORDS : words_done;
    tear_bits = partial_bits & FLASH_ERASED;
}

/* Counts the operation; true if the scheduled power cut strikes it. */
static bool start_op(void) {
    ops_started++;
    if (cut_at_op != 0 && ops_started >= cut_at_op) {
        cut_at_op = 0;
        return true;
    }
    return false;
}

static bool row_ok(uint16_t row_addr) {
    return row_addr < FLASH_WORDS && row_addr % FLASH_ROW_WORDS == 0u;
}

uint16_t sim_nvm_flash_read(uint16_t word_addr) {
    /* As the chip: program memory past its 16K words reads as erased (0x3FFF). */
    if (word_addr >= FLASH_WORDS) {
        reads_outside++;
        return FLASH_ERASED;
    }
    return flash[word_addr];
}

uint16_t *sim_nvm_flash_words(void) {
    return flash;
}

uint8_t *sim_nvm_eeprom_bytes(void) {
    return eeprom;
}

uint32_t sim_nvm_flash_reads_outside(void) {
    return reads_outside;
}

static void erase_words(uint16_t first, unsigned count) {
    unsigned i;

    for (i = 0; i < count; i++) {
        flash[first + i] = FLASH_ERASED;
    }
}

bool sim_nvm_flash_erase_row(uint16_t row_addr) {
    if (!row_ok(row_addr)) {
        return false;
    }
    row_erases[row_addr / FLASH_ROW_WORDS]++;
    total_erases++;
    if (start_op()) {
        erase_words(row_addr, tear_words);
        if (tear_words < FLASH_ROW_WORDS) {
            flash[row_addr + tear_words] |= tear_bits;
        }
        sim_board_power_fail();
    }
    erase_words(row_addr, FLASH_ROW_WORDS);
    sim_cpu_stall(SIM_FLASH_ROW_NS);
    return true;
}

static void program_words(uint16_t row_addr, const uint16_t *words, unsigned count) {
    unsigned i;

    for (i = 0; i < count; i++) {
        flash[row_addr + i] &= (uint16_t)(words[i] & FLASH_ERASED);
    }
}

bool sim_nvm_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    unsigned i;

    if (!row_ok(row_addr) || words == NULL) {
        return false;
    }
    for (i = 0; i < FLASH_ROW_WORDS; i++) {
        if (flash[row_addr + i] != FLASH_ERASED) {
            sim_violation("flash write to row 0x%04X which is not erased (bits ANDed)", row_addr);
            break;
        }
    }
    if (start_op()) {
        program_words(row_addr, words, tear_words);
        if (tear_words < FLASH_ROW_WORDS) {
            flash[row_addr + tear_words] &=
                (uint16_t)(words[tear_words] | (FLASH_ERASED & ~tear_bits));
        }
        sim_board_power_fail();
    }
    program_words(row_addr, words, FLASH_ROW_WORDS);
    sim_cpu_stall(SIM_FLASH_ROW_NS);
    return true;
}

uint8_t sim_nvm_eeprom_read(uint8_t addr) {
    return eeprom[addr];
}

bool sim_nvm_eeprom_write(uint8_t addr, uint8_t value) {
    if (start_op()) {
        eeprom[addr] = EEPROM_ERASED; /* erased, never written */
        sim_board_power_fail();
    }
    eeprom[addr] = value;
    /* The CPU keeps running; the HAL polls WR until the write completes. */
    sim_cpu_spend(SIM_EEPROM_WRITE_NS);
    return true;
}

/* ---- host side ------------------------------------------------------------ */

void sim_schedule_power_cut(uint32_t after_nvm_ops) {
    cut_at_op = after_nvm_ops == 0 ? 0 : ops_started + after_nvm_ops;
}

uint32_t sim_nvm_op_count(void) {
    return ops_started;
}

uint32_t sim_flash_erase_count(void) {
    return total_erases;
}

uint32_t sim_flash_row_erase_count(uint16_t row) {
    return row < FLASH_ROWS ? row_erases[row] : 0u;
}

uint16_t sim_flash_peek(uint16_t word_addr) {
    return flash[word_addr % FLASH_WORDS];
}

void sim_flash_poke(uint16_t word_addr, uint16_t value) {
    flash[word_addr % FLASH_WORDS] = value & FLASH_ERASED;
}

uint8_t sim_eeprom_peek(uint8_t addr) {
    return eeprom[addr];
}

void sim_eeprom_poke(uint8_t addr, uint8_t value) {
    eeprom[addr] = value;
}
