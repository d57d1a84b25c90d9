/*
 * recording_hal.c - see recording_hal.h. Only pin writes feed the SPI decoder,
 * so the tests check what a logic analyser on the panel connector would see.
 */
#include "recording_hal.h"

#include <string.h>

#define NS_PER_MS 1000000ull
#define NS_PER_US 1000ull

/* IL0373 commands that start a BUSY period in this model. */
#define CMD_POWER_OFF 0x02u
#define CMD_POWER_ON 0x04u
#define CMD_DISPLAY_REFRESH 0x12u

rec_hal_t rec;

void rec_reset(void) {
    memset(&rec, 0, sizeof rec);
    rec.busy_ms_power_on = 37u;
    rec.busy_ms_power_off = 21u;
    rec.busy_ms_refresh = 14900u;
    rec.busy_ms_reset = 1u;
    rec.irq_enabled = true;
    rec.pin[HAL_PIN_BUTTON] = 1u;
}

uint32_t rec_now_ms(void) {
    return (uint32_t)(rec.now_ns / NS_PER_MS);
}

void rec_button_at(uint32_t t_ms, uint8_t level) {
    if (rec.button_event_count < REC_MAX_BUTTON_EVENTS) {
        rec.button_event_ms[rec.button_event_count] = t_ms;
        rec.button_event_level[rec.button_event_count] = level;
        rec.button_event_count++;
    }
}

void rec_button_press(uint32_t t_ms, uint32_t hold_ms, uint8_t bounces) {
    uint8_t i;

    rec_button_at(t_ms, 0u);
    for (i = 0u; i < bounces; i++) {
        rec_button_at(t_ms + 2u * i + 1u, 1u);
        rec_button_at(t_ms + 2u * i + 2u, 0u);
    }
    rec_button_at(t_ms + hold_ms, 1u);
    for (i = 0u; i < bounces; i++) {
        rec_button_at(t_ms + hold_ms + 2u * i + 1u, 0u);
        rec_button_at(t_ms + hold_ms + 2u * i + 2u, 1u);
    }
}

static void apply_button_event(void) {
    uint8_t level = rec.button_event_level[rec.button_event_next];

    if (rec.pin[HAL_PIN_BUTTON] == 1u && level == 0u) {
        rec.button_edge_latched = true;
    }
    rec.pin[HAL_PIN_BUTTON] = level;
    rec.button_event_next++;
}

static void advance_ns(uint64_t ns) {
    rec.now_ns += ns;
    while (rec.button_event_next < rec.button_event_count &&
           (uint64_t)rec.button_event_ms[rec.button_event_next] * NS_PER_MS <= rec.now_ns) {
        apply_button_event();
    }
}

static bool is_panel_control_pin(hal_pin_t pin) {
    return pin == HAL_PIN_EPD_SCL || pin == HAL_PIN_EPD_SDA || pin == HAL_PIN_EPD_CS ||
           pin == HAL_PIN_EPD_DC || pin == HAL_PIN_EPD_RST;
}

bool rec_panel_pins_all_low(void) {
    return rec.pin[HAL_PIN_EPD_SCL] == 0u && rec.pin[HAL_PIN_EPD_SDA] == 0u &&
           rec.pin[HAL_PIN_EPD_CS] == 0u && rec.pin[HAL_PIN_EPD_DC] == 0u &&
           rec.pin[HAL_PIN_EPD_RST] == 0u && rec.pin[HAL_PIN_EPD_PWR] == 0u;
}

static void start_busy(uint32_t ms) {
    rec.busy_until_ns = rec.now_ns + (uint64_t)ms * NS_PER_MS;
}

static void byte_clocked(void) {
    uint8_t dc = rec.pin[HAL_PIN_EPD_DC];

    if (rec.byte_count < REC_MAX_BYTES) {
        rec.bytes[rec.byte_count].dc = dc;
        rec.bytes[rec.byte_count].value = rec.shift;
        rec.bytes[rec.byte_count].t_ns = rec.now_ns;
        rec.byte_count++;
    } else {
        rec.overflow_count++;
    }
    if (dc == 0u && rec.shift == CMD_POWER_ON) {
        start_busy(rec.busy_ms_power_on);
    } else if (dc == 0u && rec.shift == CMD_POWER_OFF) {
        start_busy(rec.busy_ms_power_off);
    } else if (dc == 0u && rec.shift == CMD_DISPLAY_REFRESH) {
        start_busy(rec.busy_ms_refresh);
    }
}

static void decode_spi(hal_pin_t pin, uint8_t old_level, uint8_t level) {
    if (pin == HAL_PIN_EPD_CS && level == 1u && old_level == 0u) {
        if (rec.bit_count != 0u) {
            rec.partial_bytes++;
        }
        if (rec.frame_bytes == 1u) {
            rec.cs_frames++;
        }
        rec.bit_count = 0u;
    } else if (pin == HAL_PIN_EPD_CS && level == 0u) {
        rec.bit_count = 0u;
        rec.frame_bytes = 0u;
    } else if (pin == HAL_PIN_EPD_SDA && level != old_level && rec.pin[HAL_PIN_EPD_SCL] == 1u) {
        rec.sda_changes_while_clock_high++;
    } else if (pin == HAL_PIN_EPD_SCL && level == 1u && old_level == 0u) {
        if (rec.pin[HAL_PIN_EPD_CS] != 0u || rec.pin[HAL_PIN_EPD_PWR] == 0u) {
            rec.clocks_without_cs++;
            return;
        }
        rec.shift = (uint8_t)((rec.shift << 1) | rec.pin[HAL_PIN_EPD_SDA]);
        rec.bit_count++;
        if (rec.bit_count == 8u) {
            rec.bit_count = 0u;
            rec.frame_bytes++;
            byte_clocked();
        }
    } else if (pin == HAL_PIN_EPD_RST && level == 1u && old_level == 0u) {
        start_busy(rec.busy_ms_reset);
    }
}

void hal_pin_write(hal_pin_t pin, uint8_t level) {
    uint8_t old_level;
    hal_pin_t other;

    advance_ns(REC_PIN_ACCESS_NS);
    rec.pin_writes++;
    if (pin == HAL_PIN_EPD_BUSY || pin == HAL_PIN_BUTTON || pin >= HAL_PIN_COUNT) {
        return;
    }
    level = level != 0u ? 1u : 0u;
    old_level = rec.pin[pin];
    rec.pin[pin] = level;
    decode_spi(pin, old_level, level);
    if (rec.pin[HAL_PIN_EPD_PWR] == 0u) {
        for (other = HAL_PIN_EPD_SCL; other < HAL_PIN_COUNT; other++) {
            if (is_panel_control_pin(other) && rec.pin[other] != 0u) {
                rec.backfeed_writes++;
                break;
            }
        }
    }
}

void hal_spi_write(uint8_t byte) {
    uint8_t mask;

    /* Recorded as the pin edges the chip makes, so the decoder above checks them. */
    hal_pin_write(HAL_PIN_EPD_CS, 0u);
    for (mask = 0x80u; mask != 0u; mask >>= 1) {
        hal_pin_write(HAL_PIN_EPD_SDA, (byte & mask) != 0u ? 1u : 0u);
        hal_pin_write(HAL_PIN_EPD_SCL, 1u);
        hal_pin_write(HAL_PIN_EPD_SCL, 0u);
    }
    hal_pin_write(HAL_PIN_EPD_CS, 1u);
}

void hal_spi_repeat(uint8_t byte, uint16_t count) {
    for (; count != 0u; count--) {
        hal_spi_write(byte);
    }
}

uint8_t hal_pin_read(hal_pin_t pin) {
    advance_ns(REC_PIN_ACCESS_NS);
    if (pin == HAL_PIN_EPD_BUSY) {
        if (rec.pin[HAL_PIN_EPD_PWR] == 0u || rec.busy_stuck || rec.now_ns < rec.busy_until_ns) {
            return 0u;
        }
        return 1u;
    }
    return pin < HAL_PIN_COUNT ? rec.pin[pin] : 0u;
}

void hal_delay_us(uint16_t us) {
    advance_ns((uint64_t)us * NS_PER_US);
}

void hal_delay_ms(uint16_t ms) {
    advance_ns((uint64_t)ms * NS_PER_MS);
}

void hal_init(void) {
    hal_pin_t pin;

    rec.init_count++;
    for (pin = HAL_PIN_EPD_SCL; pin < HAL_PIN_COUNT; pin++) {
        if (pin != HAL_PIN_EPD_BUSY && pin != HAL_PIN_BUTTON) {
            rec.pin[pin] = 0u;
        }
    }
}

void hal_irq_enable(void) {
    rec.irq_enabled = true;
}

void hal_irq_disable(void) {
    rec.irq_enabled = false;
}

bool hal_button_edge_take(void) {
    bool edge = rec.button_edge_latched;

    advance_ns(REC_PIN_ACCESS_NS);
    rec.button_edge_latched = false;
    return edge;
}

/* This HAL has no UART (the app tests fake the link): nothing is ever received. */
bool hal_uart_pending(void) {
    return false;
}

void hal_sleep(void) {
    rec.sleep_count++;
    if (!rec_panel_pins_all_low()) {
        rec.sleeps_with_panel_pin_high++;
    }
    if (rec.irq_enabled) {
        rec.sleeps_with_irq_enabled++;
    }
    /* As on the chip, a latched interrupt flag makes SLEEP return at once. */
    while (!rec.button_edge_latched) {
        if (rec.button_event_next >= rec.button_event_count) {
            longjmp(*rec.exit_to, 1);
        }
        rec.now_ns = (uint64_t)rec.button_event_ms[rec.button_event_next] * NS_PER_MS;
        apply_button_event();
    }
}

/* When the CPU sleeping from now would wake: BUSY rising, the next button event if it is a
 * press, or the watchdog period, whichever comes first. */
static uint64_t pin_sleep_wake_ns(void) {
    uint64_t wake_ns = rec.now_ns + (uint64_t)HAL_SLEEP_PERIOD_MS * NS_PER_MS;
    uint64_t button_ns;

    if (!rec.busy_stuck && rec.busy_until_ns > rec.now_ns && rec.busy_until_ns < wake_ns) {
        wake_ns = rec.busy_until_ns;
    }
    if (rec.button_event_next < rec.button_event_count &&
        rec.button_event_level[rec.button_event_next] == 0u) {
        button_ns = (uint64_t)rec.button_event_ms[rec.button_event_next] * NS_PER_MS;
        if (button_ns < wake_ns) {
            wake_ns = button_ns > rec.now_ns ? button_ns : rec.now_ns;
        }
    }
    return wake_ns;
}

void hal_busy_wake(bool on) {
    rec.busy_wake_armed = on;
}

hal_wake_t hal_sleep_period(void) {
    uint64_t wake_ns = pin_sleep_wake_ns();
    uint64_t period_end_ns = rec.now_ns + (uint64_t)HAL_SLEEP_PERIOD_MS * NS_PER_MS;

    rec.pin_sleep_calls++;
    if (rec.irq_enabled) {
        rec.sleeps_with_irq_enabled++;
    }
    if (!rec.busy_wake_armed && wake_ns == rec.busy_until_ns && wake_ns < period_end_ns) {
        wake_ns = period_end_ns; /* BUSY's rise wakes the CPU only when armed */
    }
    rec.pin_sleep_ns += wake_ns - rec.now_ns;
    advance_ns(wake_ns - rec.now_ns);
    return wake_ns == period_end_ns ? HAL_WAKE_WATCHDOG : HAL_WAKE_OTHER;
}

int32_t rec_find_command(uint8_t cmd, uint32_t nth) {
    uint32_t i;

    for (i = 0u; i < rec.byte_count; i++) {
        if (rec.bytes[i].dc == 0u && rec.bytes[i].value == cmd) {
            if (nth == 0u) {
                return (int32_t)i;
            }
            nth--;
        }
    }
    return -1;
}

uint32_t rec_data_len(uint32_t command_index) {
    uint32_t i = command_index + 1u;

    while (i < rec.byte_count && rec.bytes[i].dc == 1u) {
        i++;
    }
    return i - command_index - 1u;
}
