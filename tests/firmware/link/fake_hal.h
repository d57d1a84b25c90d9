/*
 * fake_hal.h - a host stand-in for hal.h with inspectable UART queues,
 * flash that counts its operations and can "lose power" after N of them.
 * Shared by the link/store unit tests and the link fuzzer.
 */
#ifndef EPDLE_FAKE_HAL_H
#define EPDLE_FAKE_HAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"

#define FAKE_UART_QUEUE 8192u

typedef struct {
    uint16_t flash[HAL_FLASH_WORDS];
    uint8_t eeprom[HAL_EEPROM_BYTES];
    uint8_t rx[FAKE_UART_QUEUE];
    uint16_t rx_head;
    uint16_t rx_tail;
    uint8_t tx[FAKE_UART_QUEUE];
    uint16_t tx_length;
    uint32_t now_us;
    uint32_t nvm_ops;
    uint32_t reads_outside_flash; /* hal_flash_read past the last word */
    uint32_t erase_count;
    /* After this many flash/EEPROM operations every further one fails and
     * changes nothing: a power cut between two operations. 0 = never. */
    uint32_t power_cut_after;
    uint8_t uart_errors;
} fake_hal_t;

extern fake_hal_t fake_hal;

/* Erased flash and EEPROM, empty queues, counters at zero. */
void fake_hal_reset(void);

/* Queue bytes for the firmware to read. */
void fake_hal_receive(const uint8_t *data, uint16_t length);

/* Bytes the firmware wrote since the last call, moved into out (max capacity). */
uint16_t fake_hal_take_tx(uint8_t *out, uint16_t capacity);

bool fake_hal_powered(void);

#endif /* EPDLE_FAKE_HAL_H */
