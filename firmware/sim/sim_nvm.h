/*
 * sim_nvm.h - program flash (16384 x 14-bit words, 32-word rows) and data
 * EEPROM (256 bytes) with the chip's granularity, timing, erase counters
 * and injectable power cuts.
 */
#ifndef EPDLE_SIM_NVM_H
#define EPDLE_SIM_NVM_H

#include <stdbool.h>
#include <stdint.h>

/* PIC16F18326 datasheet, memory programming specifications: T_PEW (row erase
 * or write) 2.0 ms typ; T_DEW (EEPROM erase/write) 4.0 ms typ. */
#define SIM_FLASH_ROW_NS 2000000ull
#define SIM_EEPROM_WRITE_NS 4000000ull

/* Erases everything and zeroes the counters (a new board). */
void sim_nvm_reset(void);

/* Firmware side: row-aligned, in range; false (nothing done) otherwise. */
uint16_t sim_nvm_flash_read(uint16_t word_addr);
bool sim_nvm_flash_erase_row(uint16_t row_addr);
bool sim_nvm_flash_write_row(uint16_t row_addr, const uint16_t *words);
uint8_t sim_nvm_eeprom_read(uint8_t addr);
bool sim_nvm_eeprom_write(uint8_t addr, uint8_t value);

/*
 * For C tests that snapshot, restore or damage the memories wholesale (what
 * sim_flash_peek/poke do a word at a time): the chip's flash (16384 words)
 * and EEPROM (256 bytes) themselves, and the reads that went past the flash.
 */
uint16_t *sim_nvm_flash_words(void);
uint8_t *sim_nvm_eeprom_bytes(void);
uint32_t sim_nvm_flash_reads_outside(void);

#endif /* EPDLE_SIM_NVM_H */
