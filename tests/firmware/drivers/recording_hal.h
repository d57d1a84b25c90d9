/*
 * recording_hal.h - a host HAL for unit tests that records every pin write,
 * decodes the bit-banged SPI into (DC, byte) pairs from those writes alone,
 * keeps a virtual clock, models the panel's BUSY line and scripts the button.
 */
#ifndef EPDLE_RECORDING_HAL_H
#define EPDLE_RECORDING_HAL_H

#include "hal.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#define REC_MAX_BYTES 16384u
#define REC_MAX_BUTTON_EVENTS 32u
#define REC_PIN_ACCESS_NS 125u

typedef struct {
    uint8_t dc;    /* 0 = command, 1 = data */
    uint8_t value; /* the byte clocked in MSB first */
    uint64_t t_ns; /* when its last bit was clocked */
} rec_spi_byte_t;

typedef struct {
    /* Decoded SPI traffic, in order. */
    rec_spi_byte_t bytes[REC_MAX_BYTES];
    uint32_t byte_count;
    /* Bytes beyond REC_MAX_BYTES (counted, not stored). */
    uint32_t overflow_count;

    uint8_t pin[HAL_PIN_COUNT];
    uint64_t now_ns;
    uint32_t pin_writes;

    /* Protocol faults seen on the wire. */
    uint32_t backfeed_writes; /* a control pin high while EPD_PWR is low */
    uint32_t sda_changes_while_clock_high;
    uint32_t partial_bytes; /* CS rose with 1..7 bits clocked */
    uint32_t clocks_without_cs;
    uint32_t cs_frames; /* CS low periods that carried exactly one byte */

    /* BUSY model: low for the configured time after each command. */
    uint32_t busy_ms_power_on;
    uint32_t busy_ms_power_off;
    uint32_t busy_ms_refresh;
    uint32_t busy_ms_reset;
    bool busy_stuck;
    uint64_t busy_until_ns;

    /* Button script: level changes at given times (ms). */
    uint32_t button_event_ms[REC_MAX_BUTTON_EVENTS];
    uint8_t button_event_level[REC_MAX_BUTTON_EVENTS];
    uint32_t button_event_count;
    uint32_t button_event_next;
    bool button_edge_latched;

    /* Sleep bookkeeping; hal_sleep() with no event left longjmps to exit_to. */
    uint32_t sleep_count;
    uint32_t sleeps_with_panel_pin_high;
    uint32_t sleeps_with_irq_enabled; /* racy: an interrupt could slip in before SLEEP */
    bool irq_enabled;
    uint32_t init_count;
    jmp_buf *exit_to;

    /* hal_sleep_period(): calls, and the time the CPU slept in them. */
    uint32_t pin_sleep_calls;
    uint64_t pin_sleep_ns;
    bool busy_wake_armed; /* hal_busy_wake() */

    /* Internal SPI decoder state. */
    uint8_t shift;
    uint8_t bit_count;
    uint32_t frame_bytes;
} rec_hal_t;

extern rec_hal_t rec;

/* Clear everything: pins low, time 0, BUSY times as the GDEW0213Z16 (facts 1.4). */
void rec_reset(void);

/* Schedule the button level `level` at t_ms (events must be added in time order). */
void rec_button_at(uint32_t t_ms, uint8_t level);

/* One press: down at t_ms, up at t_ms + hold_ms, each edge followed by `bounces` bounces 1 ms
 * apart. */
void rec_button_press(uint32_t t_ms, uint32_t hold_ms, uint8_t bounces);

/* Milliseconds on the virtual clock. */
uint32_t rec_now_ms(void);

/* Index of the n-th (0-based) command byte equal to cmd, or -1. */
int32_t rec_find_command(uint8_t cmd, uint32_t nth);

/* Number of data bytes following the command at index i (up to the next command). */
uint32_t rec_data_len(uint32_t command_index);

/* True if every output the panel sees is low (EPD_PWR included). */
bool rec_panel_pins_all_low(void);

#endif /* EPDLE_RECORDING_HAL_H */
