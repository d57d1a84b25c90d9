/*
 * epd.c - panel driver (UC8151D or IL0373, epd.h): bit-banged SPI, reset,
 * init, streamed plane writes, refresh, deep sleep and power gating.
 */
#include "epd.h"

#include "hal.h"
#include "supply.h"

#include <stdbool.h>

/* Command bytes (facts 1.3; the same on both controllers). */
#define CMD_PANEL_SETTING 0x00u
#define CMD_POWER_OFF 0x02u
#define CMD_POWER_ON 0x04u
#define CMD_BOOSTER_SOFT_START 0x06u
#define CMD_DEEP_SLEEP 0x07u
#define CMD_DTM1 EPD_DTM1
#define CMD_DISPLAY_REFRESH 0x12u
#define CMD_DTM2 EPD_DTM2
#define CMD_LUT_VCOM 0x20u
#define CMD_LUT_BW 0x22u /* black to white (after WW 0x21) */
#define CMD_LUT_WB 0x23u /* white to black */
#define CMD_LUT_BB 0x24u
#define CMD_VCOM_AND_DATA_INTERVAL 0x50u
#define CMD_RESOLUTION_SETTING 0x61u
#define CMD_PARTIAL_WINDOW 0x90u
#define CMD_PARTIAL_IN 0x91u
#define CMD_PARTIAL_OUT 0x92u

#define DEEP_SLEEP_CHECK_CODE 0xA5u
#define PARTIAL_WINDOW_SCAN_ALL_GATES 0x01u

/*
 * Timing. The load switch brings the rail up in well under a millisecond; one
 * millisecond covers it and the controller's own power-on reset.
 */
#define SUPPLY_SETTLE_MS 1u
#if EPD_CONTROLLER == EPD_UC8151D
/*
 * UC8151D (Waveshare 2.13" (B) V3). UltraChip latches a reset on RST_N low
 * for 50 us; Waveshare's driver for this module holds it 2 ms, then waits
 * 10 ms; Good Display's note on the upgraded UC8151D asks for the pulse three
 * times at init, each followed by 10 ms. Here: three pulses of 2 ms low, 2 ms
 * apart, and the vendors' 10 ms after the last only (20 ms in all, not 36:
 * the press-to-refresh goal of 300 ms has no room for the other 16), then
 * BUSY, bounded. GxEPD2 measured power on 79.4 ms, power off 39.1 ms, a full
 * refresh 16.8 s on it: the bounds are about twice those (POWER_ON's: below).
 */
#define RESET_PULSES 3u
#define RESET_LOW_MS 2u
#define RESET_GAP_MS 2u
#define RESET_READY_MS 10u
#define REFRESH_TIMEOUT_MS 34000u
#else
/*
 * IL0373 (GDEW0213Z16). It latches a reset on a low pulse of microseconds
 * (its vendor's operating sequence is: RST low, RST high, then poll BUSY
 * before the first command), so one pulse of 1 ms. Published BUSY times:
 * power on 37 ms, power off 21 ms, full refresh 14.9 s (datasheets: about
 * 15 s); the bounds are twice the refresh, a few times the short steps
 * (POWER_ON's: below).
 */
#define RESET_PULSES 1u
#define RESET_LOW_MS 1u
#define RESET_GAP_MS 0u
#define RESET_READY_MS 0u
#define REFRESH_TIMEOUT_MS 30000u
#endif
#define RESET_READY_TIMEOUT_MS 10u
/*
 * The fast black/white waveform (GxEPD2_213_Z19c's refresh_bw, facts 4.1):
 * one group per LUT of 0x1F frames then 1, repeated once, at the PLL's reset
 * frame rate (50 Hz): 32 frames, 640 ms. Level selects (phase A in the top
 * two bits; 01 VDH pulls a pixel black, 10 VDL white): VCOM at VCOM_DC, WW and
 * BB grounded, BW (black to white) VDL, WB (white to black) VDH. The rest of
 * each LUT is zero. Its bound is three times the waveform.
 */
#define FAST_REFRESH_TIMEOUT_MS 2000u
#define LUT_GROUP_BYTES 6u
#define LEVEL_VDH 0x40u /* phase A at VDH: towards black */
#define LEVEL_VDL 0x80u /* phase A at VDL: towards white */
#define LUT_VCOM_BYTES 44u
#define LUT_BYTES 42u
#define PANEL_SETTING_OTP 0x0Fu    /* three colours, LUT from OTP (Waveshare's init) */
#define PANEL_SETTING_REG_BW 0xBFu /* LUT from registers, black/white (GxEPD2's refresh_bw) */
#define PANEL_SETTING_SECOND 0x89u /* Waveshare's second PANEL_SETTING byte */
#define VCOM_DATA_INTERVAL 0x77u   /* three colours (Waveshare, GxEPD2) */
/* Floating border: GxEPD2's for the black/white waveform, and Waveshare's before POWER_OFF. */
#define VCOM_DATA_INTERVAL_FLOAT 0xF7u
/*
 * The reset's wait is polled; POWER_ON, the refresh and POWER_OFF are slept
 * through (the MCU's run current for 15 s would be a quarter of the energy of
 * an update; on top of the charge pumps' 8 mA it would sag a half-used cell's
 * VDD towards the clock's minimum: hardware/power.md). Asleep, every wake-up,
 * a bounce of the button's release too, counts a whole watchdog period: 20 of
 * them bound POWER_ON and POWER_OFF, room for their BUSY (79 and 39 ms: 3 and
 * 2 periods) and 17 such edges.
 */
#define POWER_ON_TIMEOUT_MS (20u * HAL_SLEEP_PERIOD_MS)
#define POWER_OFF_TIMEOUT_MS POWER_ON_TIMEOUT_MS

/* The bounds are counted in 16 bits on the chip. */
HAL_STATIC_ASSERT(refresh_timeout_16_bits, REFRESH_TIMEOUT_MS <= 0xFFFFu);
HAL_STATIC_ASSERT(short_timeouts_16_bits, POWER_ON_TIMEOUT_MS <= 0xFFFFu &&
                                              POWER_OFF_TIMEOUT_MS <= 0xFFFFu &&
                                              RESET_READY_TIMEOUT_MS <= 0xFFFFu);
HAL_STATIC_ASSERT(fast_timeout_16_bits, FAST_REFRESH_TIMEOUT_MS <= 0xFFFFu);
HAL_STATIC_ASSERT(plane_bytes_16_bits, EPD_PLANE_BYTES * 1ul <= 0xFFFFul);
HAL_STATIC_ASSERT(panel_fits_u8, EPD_WIDTH <= 0xFFu && EPD_HEIGHT <= 0xFFu);

/*
 * How far epd_power_up_start() / epd_power_up() got; cut_power() drops it.
 * READY only counts while EPD_PWR still reads high, so a reboot (hal_init()
 * drops the supply) can never leave a stale "ready" behind.
 */
typedef enum { PANEL_OFF = 0, PANEL_STARTING, PANEL_READY } panel_state_t;
static uint8_t panel_state;
/* A fast refresh is running: its wait has its own bound. */
#if EPD_FAST_UPDATES
static bool fast_refresh;
#endif

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

/*
 * After a command that makes the controller busy (POWER_ON, POWER_OFF,
 * DISPLAY_REFRESH): BUSY falls a little after the command, not with it, so a
 * wait for BUSY high that starts at once could see the level from before the
 * command and end at once. This waits, bounded, for BUSY to go low first. No
 * datasheet gives that delay; GxEPD2 and Zephyr's uc81xx driver wait 1 ms
 * before they poll. The bound is ten times that (twice the 5 ms the tests
 * try); BUSY still high after it is left to the wait for idle.
 */
#define BUSY_ASSERT_POLL_US 100u
#define BUSY_ASSERT_POLLS 100u /* 10 ms */
HAL_STATIC_ASSERT(busy_assert_polls_u8, BUSY_ASSERT_POLLS <= 0xFFu);

static void send_busy_command(uint8_t command) {
    uint8_t polls;

    send_command(command);
    for (polls = 0u; polls < (uint8_t)BUSY_ASSERT_POLLS; polls++) {
        if (hal_pin_read(HAL_PIN_EPD_BUSY) == 0u) {
            return;
        }
        hal_delay_us(BUSY_ASSERT_POLL_US);
    }
}

/* Every control pin low first, then the supply: no pin may feed an unpowered panel. */
HAL_STATIC_ASSERT(control_pins_in_a_row, HAL_PIN_EPD_SCL == 0 && HAL_PIN_EPD_SDA == 1 &&
                                             HAL_PIN_EPD_CS == 2 && HAL_PIN_EPD_DC == 3 &&
                                             HAL_PIN_EPD_RST == 4);
static void cut_power(void) {
    uint8_t pin;

    for (pin = (uint8_t)HAL_PIN_EPD_SCL; pin <= (uint8_t)HAL_PIN_EPD_RST; pin++) {
        hal_pin_write((hal_pin_t)pin, 0u);
    }
    hal_pin_write(HAL_PIN_EPD_PWR, 0u);
    panel_state = PANEL_OFF;
}

static void hardware_reset(void) {
    uint8_t pulse = (uint8_t)RESET_PULSES;

    for (;;) {
        hal_pin_write(HAL_PIN_EPD_RST, 0u);
        hal_delay_ms(RESET_LOW_MS);
        hal_pin_write(HAL_PIN_EPD_RST, 1u);
        if (--pulse == 0u) {
            break;
        }
        hal_delay_ms(RESET_GAP_MS);
    }
#if RESET_READY_MS > 0
    hal_delay_ms(RESET_READY_MS);
#endif
}

/*
 * The one place that switches the panel on: the cell is checked first (supply.c), awake
 * with the panel off, and again SUPPLY_LOAD_MS after POWER_ON, under the charge pumps'
 * load; a cell too weak is refused (EPD_ERR_LOW_SUPPLY): before the panel is powered, or
 * with POWER_OFF and DEEP_SLEEP before its supply is cut.
 */
epd_status_t epd_power_up_start(void) {
    panel_state = PANEL_OFF;
    if (!supply_awake_ok()) {
        return EPD_ERR_LOW_SUPPLY;
    }
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

#if EPD_CONTROLLER == EPD_IL0373
    send_command(CMD_BOOSTER_SOFT_START);
    send_data(0x17u);
    send_data(0x17u);
    send_data(0x17u);
#endif
    send_busy_command(CMD_POWER_ON);
    panel_state = PANEL_STARTING;
    if (!supply_loaded_ok()) {
        (void)epd_power_down();
        return EPD_ERR_LOW_SUPPLY;
    }
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
    /* Asleep: the CPU's 1.5 mA on top of the charge pumps' 8 mA would sag VDD towards the
     * brown-out reset's trip point (hardware/power.md, "A design that survives it"). */
    if (!epd_sleep_until_idle(POWER_ON_TIMEOUT_MS)) {
        return EPD_ERR_BUSY_TIMEOUT;
    }
#if EPD_CONTROLLER == EPD_UC8151D
    /* Waveshare's EPD_2in13b_V3: three colours, LUT from OTP; white border. */
    send_command(CMD_PANEL_SETTING);
    send_data(PANEL_SETTING_OTP);
    send_data(PANEL_SETTING_SECOND);
    send_command(CMD_RESOLUTION_SETTING);
    send_data((uint8_t)EPD_WIDTH);
    send_data(0x00u);
    send_data((uint8_t)EPD_HEIGHT);
    send_command(CMD_VCOM_AND_DATA_INTERVAL);
    send_data(VCOM_DATA_INTERVAL);
#else
    send_command(CMD_PANEL_SETTING);
    send_data(0x8Fu);
    send_command(CMD_VCOM_AND_DATA_INTERVAL);
    send_data(0x37u);
    send_command(CMD_RESOLUTION_SETTING);
    send_data((uint8_t)EPD_WIDTH);
    send_data(0x00u);
    send_data((uint8_t)EPD_HEIGHT);
#endif

#if EPD_FAST_UPDATES
    fast_refresh = false;
#endif
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

/* PARTIAL_IN and the window (checked by the caller). */
static void partial_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    uint8_t last_row = (uint8_t)(y + h - 1u); /* < EPD_HEIGHT, so its high byte is 0 */

    send_command(CMD_PARTIAL_IN);
    send_command(CMD_PARTIAL_WINDOW);
    send_data(x);
    send_data((uint8_t)((uint8_t)(x + w) - 1u));
    send_data(0x00u); /* high byte of the first row */
    send_data(y);
    send_data(0x00u); /* high byte of the last row */
    send_data(last_row);
    send_data(PARTIAL_WINDOW_SCAN_ALL_GATES);
}

epd_status_t epd_window_plane(uint8_t plane, uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    if (!window_is_valid(x, y, w, h)) {
        return EPD_ERR_BAD_WINDOW;
    }
    if (!ready()) {
        return EPD_ERR_NOT_READY;
    }
    partial_window(x, y, w, h);
    send_command(plane);
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
    send_busy_command(CMD_DISPLAY_REFRESH);
    return EPD_OK;
}

#if EPD_FAST_UPDATES
/*
 * GxEPD2 sends PARTIAL_OUT and the three-colour PANEL_SETTING again after the
 * fast refresh, to keep the controller on: here deep sleep follows every
 * update, and the next power-up's init sets them again.
 */
epd_status_t epd_fast_refresh_start(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    uint8_t lut;
    uint8_t level;

    if (!ready()) {
        return EPD_ERR_NOT_READY;
    }
    /* Each LUT's first group: its level select, 0x1F frames then 1, repeated once. */
    for (lut = CMD_LUT_VCOM; lut <= CMD_LUT_BB; lut++) {
        send_command(lut);
        level = 0x00u;
        if (lut == CMD_LUT_BW) {
            level = LEVEL_VDL;
        } else if (lut == CMD_LUT_WB) {
            level = LEVEL_VDH;
        }
        send_data(level);
        send_data(0x1Fu);
        send_data(0x01u);
        hal_spi_repeat(0x00u, 2u);
        send_data(0x01u);
        hal_spi_repeat(0x00u, lut == CMD_LUT_VCOM ? LUT_VCOM_BYTES - LUT_GROUP_BYTES
                                                  : LUT_BYTES - LUT_GROUP_BYTES);
    }
    send_command(CMD_PANEL_SETTING);
    send_data(PANEL_SETTING_REG_BW);
    send_command(CMD_VCOM_AND_DATA_INTERVAL);
    send_data(VCOM_DATA_INTERVAL_FLOAT);
    partial_window(x, y, w, h);
    fast_refresh = true;
    return epd_refresh_start();
}

epd_status_t epd_refresh_wait(void) {
    uint16_t bound = REFRESH_TIMEOUT_MS;

    if (fast_refresh) {
        bound = FAST_REFRESH_TIMEOUT_MS;
        fast_refresh = false;
    }
    if (!epd_sleep_until_idle(bound)) {
        return EPD_ERR_BUSY_TIMEOUT;
    }
    return EPD_OK;
}
#else
epd_status_t epd_fast_refresh_start(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    (void)x;
    (void)y;
    (void)w;
    (void)h;
    return EPD_ERR_NOT_READY; /* built without fast updates (epd.h) */
}

epd_status_t epd_refresh_wait(void) {
    return epd_sleep_until_idle(REFRESH_TIMEOUT_MS) ? EPD_OK : EPD_ERR_BUSY_TIMEOUT;
}
#endif

epd_status_t epd_power_down(void) {
    epd_status_t status = EPD_OK;

    /* A power-on in progress ends first (POWER_OFF goes to a controller that listens),
     * the CPU asleep: the cell may just have been refused under that load. */
    if (panel_state == (uint8_t)PANEL_STARTING) {
        (void)epd_sleep_until_idle(POWER_ON_TIMEOUT_MS);
    }
    /* POWER_OFF before the supply is cut, whatever came before: after a BUSY that never
     * rose, too (a controller whose line is stuck still takes it; one still busy ignores
     * it). DEEP_SLEEP only to one that answered. */
    if (panel_powered()) {
        if (hal_pin_read(HAL_PIN_EPD_BUSY) == 0u) {
            status = EPD_ERR_BUSY_TIMEOUT;
        }
#if EPD_CONTROLLER == EPD_UC8151D
        /* Waveshare's sleep for this module: the border floating, then POWER_OFF. */
        send_command(CMD_VCOM_AND_DATA_INTERVAL);
        send_data(VCOM_DATA_INTERVAL_FLOAT);
#endif
        send_busy_command(CMD_POWER_OFF);
        if (epd_sleep_until_idle(POWER_OFF_TIMEOUT_MS)) {
            send_command(CMD_DEEP_SLEEP);
            send_data(DEEP_SLEEP_CHECK_CODE);
        } else {
            status = EPD_ERR_BUSY_TIMEOUT;
        }
    }
    cut_power();
    return status;
}
