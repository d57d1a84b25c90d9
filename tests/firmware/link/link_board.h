/*
 * link_board.h - the link and store tests (and their fuzzers) on the
 * simulated board's core: the firmware's code called straight from the test
 * (host context) against the sim HAL, bytes on the board's UART at 115200 Bd,
 * its flash and EEPROM, and its power cuts (an NVM operation cut half way,
 * the CPU stopped there: board_cut_point() is where the test resumes).
 */
#ifndef EPDLE_LINK_BOARD_H
#define EPDLE_LINK_BOARD_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "hal.h"
#include "sim.h"
#include "sim_board.h"
#include "sim_nvm.h"

/* A fresh board (flash and EEPROM erased), the chip's HAL initialised, interrupts on. */
void board_fresh(void);
/* The supply back after a cut: the chip restarts (memories kept), HAL initialised. */
void board_reboot(void);

/* The chip's flash and EEPROM themselves (sim_nvm.h). */
#define board_flash (sim_nvm_flash_words())
#define board_eeprom (sim_nvm_eeprom_bytes())

/*
 * Send bytes to the device and run link_service() until they are all taken
 * in and handled (at most max_calls calls), then wait for its replies to
 * leave the line. Returns the bytes the device sent, up to capacity.
 */
uint16_t board_exchange(const uint8_t *bytes, uint16_t length, uint32_t max_calls, uint8_t *out,
                        uint16_t capacity);
/* Bytes the device sent since the last take (after its line is quiet). */
uint16_t board_take_tx(uint8_t *out, uint16_t capacity);

uint32_t board_now_us(void);

/*
 * Power cuts: sim_schedule_power_cut(n) cuts the supply as the n-th NVM
 * operation from now starts. Run the code under test as
 *     if (setjmp(board_cut) == 0) { board_catch_cuts(true); ...; }
 *     board_catch_cuts(false);
 * and board_was_cut() tells whether the supply went.
 */
extern jmp_buf board_cut;
void board_catch_cuts(bool on);
bool board_was_cut(void);

#endif /* EPDLE_LINK_BOARD_H */
