/*
 * epd.c - IL0373 panel driver: bit-banged SPI, reset, init, streamed plane
 * writes, refresh, deep sleep and power gating.
 */
#include "epd.h"

#include "hal.h"

#include <stdbool.h>

/* IL0373 command bytes (facts 1.3). */
#define CMD_PANEL_SETTING 0x00u
#define CMD_POWER_OFF 0x02u
#define CMD_POWER_ON 0x04u
#define CMD_BOOSTER_SOFT_START 0x06u
#define CMD_DEEP_SLEEP 0x07u
#define CMD_DTM1 0x10u
#define CMD_DISPLAY_REFRESH 0x12u
#define CMD_DTM2 0x13u
#define CMD_VCOM_AND_DATA_INTERVAL 0x50u
#define CMD_RESOLUTION_SETTING 0x61u
#define CMD_PARTIAL_WINDOW 0x90u
#define CMD_PARTIAL_IN 0x91u
#define CMD_PARTIAL_OUT 0x92u

#define DEEP_SLEEP_CHECK_CODE 0xA5u
#define PARTIAL_WINDOW_SCAN_ALL_GATES 0x01u

/*
 * Timing. The load switch brings the rail up in well under a millisecond; one
 * millisecond covers it and the controller's own power-on reset. The IL0373
 * latches a reset on a low pulse of microseconds (its vendor's operating
 * sequence is: RST low, RST high, then poll BUSY before the first command), so
 * the reset here is 1 ms low followed by a bounded BUSY wait, instead of the
 * 2 x 200 ms of fixed delays of the original build.
 */
#define SUPPLY_SETTLE_MS 1u
#define RESET_LOW_MS 1u
#define RESET_READY_TIMEOUT_MS 10u
/* BUSY bounds, from the published times on GDEW0213Z16 / IL0373 (power on
 * 37 ms, power off 21 ms, full refresh 14.9 s; datasheets say about 15 s):
 * twice the refresh, a few times the short steps. The short steps are polled;
 * the refresh is slept through (the MCU's run current for 15 s would be a
 * quarter of the energy of an update, hardware/power.md). */
#define POWER_ON_TIMEOUT_MS 100u
#define POWER_OFF_TIMEOUT_MS 100u
#define REFRESH_TIMEOUT_MS 30000u

/* The bounds are counted in 16 bits on the chip. */
HAL_STATIC_ASSERT(refresh_timeout_16_bits, REFRESH_TIMEOUT_MS <= 0xFFFFu);
HAL_STATIC_ASSERT(short_timeouts_16_bits, POWER_ON_TIMEOUT_MS <= 0xFFFFu &&
                                              POWER_OFF_TIMEOUT_MS <= 0xFFFFu &&
                                              RESET_READY_TIMEOUT_MS <= 0xFFFFu);
HAL_STATIC_ASSERT(plane_bytes_16_bits, EPD_PLANE_BYTES * 1ul <= 0xFFFFul);
HAL_STATIC_ASSERT(panel_fits_u8, EPD_WIDTH <= 0xFFu && EPD_HEIGHT <= 0xFFu);

/*
 * How far epd_power_up_start() / epd_power_up() got; cut_power() drops it.
 * READY only counts while EPD_PWR still reads high, so a reboot (hal_init()
 * drops the supply) can never leave a stale "ready" behind.
 */
typedef enum { PANEL_OFF = 0, PANEL_STARTING, PANEL_READY } panel_state_t;
static uint8_t panel_state;

static bool panel_powered(void) {
    return hal_pin_read(HAL_PIN_EPD_PWR) != 0u;
}

static bool ready(void) {
    return panel_state == (uint8_t)PANEL_READY && panel_powered();
}

/*
 * DC is only written when it changes (a plane is 5512 data bytes in a row):
 * the level last driven; epd_power_up() drives it low before the first byte.
 */
static uint8_t dc_level;

static void spi_send(uint8_t byte, uint8_t dc) {
    if (dc != dc_level) {
        hal_pin_write(HAL_PIN_EPD_DC, dc);
        dc_level = dc;
    }
    hal_spi_write(byte);
}

static void send_command(uint8_t command) {
    spi_send(command, 0u);
}

static void send_data(uint8_t data) {
    spi_send(data, 1u);
}

/* D/C high for the plane bytes that follow a DTM1 or DTM2 (epd_data() and the white
 * window's hal_spi_repeat() write no D/C). */
static void data_mode(void) {
    if (dc_level != 1u) {
        hal_pin_write(HAL_PIN_EPD_DC, 1u);
        dc_level = 1u;
    }
}

/* Polls BUSY (1 = idle) once a millisecond; false if still busy after timeout_ms. */
static bool wait_until_idle(uint16_t timeout_ms) {
    uint16_t waited_ms = 0u;

    while (hal_pin_read(HAL_PIN_EPD_BUSY) == 0u) {
        if (waited_ms >= timeout_ms) {
            return false;
        }
        hal_delay_ms(1u);
        waited_ms++;
    }
    return true;
}

/* Every control pin low first, then the supply: no pin may feed an unpowered panel. */
static void cut_power(void) {
    hal_pin_write(HAL_PIN_EPD_SCL, 0u);
    hal_pin_write(HAL_PIN_EPD_SDA, 0u);
    hal_pin_write(HAL_PIN_EPD_DC, 0u);
    hal_pin_write(HAL_PIN_EPD_CS, 0u);
    hal_pin_write(HAL_PIN_EPD_RST, 0u);
    hal_pin_write(HAL_PIN_EPD_PWR, 0u);
    panel_state = PANEL_OFF;
}

static void hardware_reset(void) {
    hal_pin_write(HAL_PIN_EPD_RST, 0u);
    hal_delay_ms(RESET_LOW_MS);
    hal_pin_write(HAL_PIN_EPD_RST, 1u);
}

epd_status_t epd_power_up_start(void) {
    panel_state = PANEL_OFF;
    hal_pin_write(HAL_PIN_EPD_PWR, 1u);
    hal_delay_ms(SUPPLY_SETTLE_MS);
    hal_pin_write(HAL_PIN_EPD_SDA, 0u);
    hal_pin_write(HAL_PIN_EPD_DC, 0u);
    dc_level = 0u;
    hal_pin_write(HAL_PIN_EPD_CS, 1u);
    hardware_reset();
    if (!wait_until_idle(RESET_READY_TIMEOUT_MS)) {
        return EPD_ERR_BUSY_TIMEOUT;
    }

    send_command(CMD_BOOSTER_SOFT_START);
    send_data(0x17u);
    send_data(0x17u);
    send_data(0x17u);
    send_command(CMD_POWER_ON);
    panel_state = PANEL_STARTING;
    return EPD_OK;
}

epd_status_t epd_power_up(void) {
    epd_status_t status;

    if (panel_state != (uint8_t)PANEL_STARTING || !panel_powered()) {
        status = epd_power_up_start();
        if (status != EPD_OK) {
            return status;
        }
    }
    if (!wait_until_idle(POWER_ON_TIMEOUT_MS)) {
        return EPD_ERR_BUSY_TIMEOUT;
    }
    send_command(CMD_PANEL_SETTING);
    send_data(0x8Fu);
    send_command(CMD_VCOM_AND_DATA_INTERVAL);
    send_data(0x37u);
    send_command(CMD_RESOLUTION_SETTING);
    send_data((uint8_t)EPD_WIDTH);
    send_data(0x00u);
    send_data((uint8_t)EPD_HEIGHT);

    panel_state = PANEL_READY;
    return EPD_OK;
}

/* In 8-bit arithmetic: x, y inside the panel first, then w, h within what is left. */
static bool window_is_valid(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    if (((uint8_t)(x | w) & 0x07u) != 0u || w == 0u || h == 0u || x >= (uint8_t)EPD_WIDTH ||
        y >= (uint8_t)EPD_HEIGHT) {
        return false;
    }
    return w <= (uint8_t)(EPD_WIDTH - x) && h <= (uint8_t)(EPD_HEIGHT - y);
}

epd_status_t epd_window_begin(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    uint8_t last_row;

    if (!window_is_valid(x, y, w, h)) {
        return EPD_ERR_BAD_WINDOW;
    }
    if (!ready()) {
        return EPD_ERR_NOT_READY;
    }
    last_row = (uint8_t)(y + h - 1u); /* < EPD_HEIGHT, so its high byte is 0 */

    send_command(CMD_PARTIAL_IN);
    send_command(CMD_PARTIAL_WINDOW);
    send_data(x);
    send_data((uint8_t)((uint8_t)(x + w) - 1u));
    send_data(0x00u); /* high byte of the first row */
    send_data(y);
    send_data(0x00u); /* high byte of the last row */
    send_data(last_row);
    send_data(PARTIAL_WINDOW_SCAN_ALL_GATES);
    send_command(CMD_DTM1);
    data_mode();
    return EPD_OK;
}

void epd_second_plane(void) {
    send_command(CMD_DTM2);
    data_mode();
}

void epd_window_end(void) {
    send_command(CMD_PARTIAL_OUT);
}

epd_status_t epd_white_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    uint16_t bytes = 0u;
    uint8_t columns;
    epd_status_t status;

    if (w == 0u || h == 0u) {
        return EPD_OK; /* nothing to whiten */
    }
    status = epd_window_begin(x, y, w, h);
    if (status == EPD_OK) {
        /* (w / 8) * h as at most 13 additions: no multiply routine on the 8-bit core. */
        for (columns = (uint8_t)(w >> 3); columns > 0u; columns--) {
            bytes = (uint16_t)(bytes + h);
        }
        hal_spi_repeat(0xFFu, bytes); /* D/C is high after the window's DTM1 and DTM2 */
        epd_second_plane();
        hal_spi_repeat(0xFFu, bytes);
        epd_window_end();
    }
    return status;
}

/*
 * Sleeps until BUSY reads high (true), or max_ms have
 * passed with it low (false). Each wake-up, whatever its cause, uses up a whole
 * watchdog period, so the bound is max_ms rounded up to periods. A button edge
 * is latched by the interrupt and the CPU sleeps on; once the host talks (a
 * UART start bit woke it) the CPU stays awake, looking at BUSY every
 * millisecond for the rest of the bound, so the host's bytes are received.
 * Interrupts are off from each look at BUSY to the SLEEP after it: a rise in
 * between leaves its flag set and that SLEEP returns at once.
 */
void (*epd_awake_hook)(void);

bool epd_sleep_until_idle(uint16_t max_ms) {
    uint16_t waited_ms = 0u;
    bool host_talking = false;
    bool idle;

    hal_busy_wake(true);
    for (;;) {
        hal_irq_disable();
        idle = hal_pin_read(HAL_PIN_EPD_BUSY) != 0u;
        if (idle || waited_ms >= max_ms) {
            break;
        }
        if (host_talking) {
            hal_irq_enable();
            if (epd_awake_hook != 0) {
                epd_awake_hook();
            }
            hal_delay_ms(1u);
            waited_ms++;
            continue;
        }
        host_talking = hal_sleep_period() == HAL_WAKE_UART;
        waited_ms = (uint16_t)(max_ms - waited_ms) > HAL_SLEEP_PERIOD_MS
                        ? (uint16_t)(waited_ms + HAL_SLEEP_PERIOD_MS)
                        : max_ms;
        hal_irq_enable(); /* the interrupt routine latches what woke the CPU */
    }
    hal_busy_wake(false);
    hal_irq_enable();
    return idle;
}

epd_status_t epd_refresh_start(void) {
    if (!ready()) {
        return EPD_ERR_NOT_READY;
    }
    send_command(CMD_DISPLAY_REFRESH);
    return EPD_OK;
}

epd_status_t epd_refresh_wait(void) {
    return epd_sleep_until_idle(REFRESH_TIMEOUT_MS) ? EPD_OK : EPD_ERR_BUSY_TIMEOUT;
}

epd_status_t epd_power_down(void) {
    epd_status_t status = EPD_OK;

    /* A power-on in progress ends first (POWER_OFF goes to a controller that listens). */
    if (panel_state == (uint8_t)PANEL_STARTING) {
        (void)wait_until_idle(POWER_ON_TIMEOUT_MS);
    }
    /* Commands only to a controller that listens; a stuck BUSY is cut off. */
    if (panel_powered()) {
        if (hal_pin_read(HAL_PIN_EPD_BUSY) == 0u) {
            status = EPD_ERR_BUSY_TIMEOUT;
        } else {
            send_command(CMD_POWER_OFF);
            if (wait_until_idle(POWER_OFF_TIMEOUT_MS)) {
                send_command(CMD_DEEP_SLEEP);
                send_data(DEEP_SLEEP_CHECK_CODE);
            } else {
                status = EPD_ERR_BUSY_TIMEOUT;
            }
        }
    }
    cut_power();
    return status;
}
