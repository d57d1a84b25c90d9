/*
 * epd.h - driver for the 2.13" 104 x 212 black/white/red panel, SPI
 * bit-banged over the HAL's pins.
 *
 * Two controllers speak the same commands (facts 1.3) with another reset,
 * init and timing: the UC8151D of the module the BOM names (Waveshare 2.13"
 * (B) V3) and the IL0373 of its alternative (Good Display GDEW0213Z16 on a
 * DESPI-C02). Which one is chosen here, at build time, in this one place:
 * the wiring gives no way to ask (SDA is write-only, no MISO), and one image
 * per module keeps the other's sequence out of the flash. Build with
 * -DEPD_CONTROLLER=EPD_IL0373 for the alternative.
 *
 * Native geometry: 104 px wide (x, 13 bytes a row, MSB = leftmost pixel)
 * by 212 rows (y). Plane bytes: bit 1 = white; bit 0 = black in plane 1
 * (DTM1), red in plane 2 (DTM2).
 *
 * Pixel data never sits in RAM: a window's bytes are handed over one at a
 * time, as the caller produces them.
 */
#ifndef EPDLE_EPD_H
#define EPDLE_EPD_H

#include <stdbool.h>
#include <stdint.h>

#include "hal.h"

#define EPD_UC8151D 1
#define EPD_IL0373 2
#ifndef EPD_CONTROLLER
#define EPD_CONTROLLER EPD_UC8151D
#endif
#if EPD_CONTROLLER != EPD_UC8151D && EPD_CONTROLLER != EPD_IL0373
#error "EPD_CONTROLLER must be EPD_UC8151D or EPD_IL0373"
#endif

/*
 * Fast black/white updates (epd_fast_refresh_start() and display.c's use of
 * them): on the UC8151D, in every build, the PIC16F18326 image included.
 * -DEPD_FAST_UPDATES=0 leaves them out (every frame then goes by a full refresh).
 */
#ifndef EPD_FAST_UPDATES
#if EPD_CONTROLLER == EPD_UC8151D
#define EPD_FAST_UPDATES 1
#else
#define EPD_FAST_UPDATES 0
#endif
#endif

#define EPD_WIDTH 104u
#define EPD_HEIGHT 212u
#define EPD_ROW_BYTES (EPD_WIDTH / 8u)
#define EPD_PLANE_BYTES (EPD_ROW_BYTES * EPD_HEIGHT) /* 2756 */

typedef enum {
    EPD_OK = 0,
    EPD_ERR_BUSY_TIMEOUT, /* BUSY stayed low past the bound of that step */
    EPD_ERR_BAD_WINDOW,   /* window outside the panel or not 8-aligned */
    EPD_ERR_NOT_READY,    /* call out of order (e.g. write before init) */
    EPD_ERR_LOW_SUPPLY    /* the cell too weak to power the panel (supply.h): not powered */
} epd_status_t;

/*
 * The cell checked (supply.h), supply on, hardware reset, (IL0373:
 * BOOSTER_SOFT_START), POWER_ON and the cell checked under its load, without
 * the rest of the wait for POWER_ON's BUSY (about 79 ms on the UC8151D, 37 ms
 * on the IL0373): the caller can work meanwhile. EPD_ERR_LOW_SUPPLY leaves the
 * panel unpowered (powered down in order if it was switched on).
 */
epd_status_t epd_power_up_start(void);

/*
 * The rest of the init sequence (facts 1.4, 4.1): waits for POWER_ON's BUSY,
 * then the panel settings. Starts the power-up first unless epd_power_up_start()
 * just did.
 */
epd_status_t epd_power_up(void);

/*
 * One partial window: x and w multiples of 8, inside the panel. After
 * EPD_OK the caller sends (w / 8) * h bytes of plane 1 with epd_data(), then
 * epd_second_plane(), the same count of plane 2, and epd_window_end().
 * epd_window_plane() begins with plane EPD_DTM1 or EPD_DTM2 (their commands)
 * and the caller may end after it: what a fast update writes
 * (epd_fast_refresh_start).
 */
#define EPD_DTM1 0x10u
#define EPD_DTM2 0x13u
epd_status_t epd_window_plane(uint8_t plane, uint8_t x, uint8_t y, uint8_t w, uint8_t h);
#define epd_window_begin(x, y, w, h) epd_window_plane(EPD_DTM1, (x), (y), (w), (h))
void epd_second_plane(void);
/*
 * A plane byte. D/C is high from epd_window_begin() and epd_second_plane() on,
 * so it is the HAL's framed SPI write itself: the hot path (4,532 calls for a
 * full-width window) saves a call level and the D/C check on every byte.
 */
#define epd_data(byte) hal_spi_write(byte)
void epd_window_end(void);
/* A whole window white in both planes (rules as epd_window_begin; an empty one is EPD_OK). */
epd_status_t epd_white_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h);

/*
 * A refresh in two steps, so the caller may work while the panel refreshes:
 * DISPLAY_REFRESH (EPD_ERR_NOT_READY unless powered up with no error), then
 * the (long, bounded) wait for BUSY, which the MCU sleeps through.
 */
epd_status_t epd_refresh_start(void);
epd_status_t epd_refresh_wait(void);

/*
 * A fast black/white update of one window (UC8151D only), in place of
 * epd_refresh_start(): the waveform GxEPD2's refresh_bw drives on this panel
 * (facts 4.1) loaded into the LUT registers, PANEL_SETTING 0xBF (LUT from
 * the registers, black/white), VCOM and data interval 0xF7, PARTIAL_IN, the
 * window, DISPLAY_REFRESH. In this mode the controller drives each pixel from
 * its DTM1 value (OLD) to its DTM2 value (NEW), whatever the glass shows
 * (facts 5.1): the caller first writes, inside the window, the picture on
 * the glass to DTM1 and the new black to DTM2 (epd_window_plane()). Only the
 * window's black changes (about 0.64 s of BUSY instead of 16.8 s); red cannot
 * be driven, so the window must hold none. epd_refresh_wait() then waits with
 * the fast bound; epd_power_down() follows (the next epd_power_up() sets the
 * three-colour PANEL_SETTING again). x, y, w, h: a frame's fast window,
 * which the frame decoder checked (inside the panel, x and w multiples of
 * 8); not checked again here.
 */
epd_status_t epd_fast_refresh_start(uint8_t x, uint8_t y, uint8_t w, uint8_t h);

/*
 * The MCU asleep until BUSY reads high (true) or about max_ms have passed
 * (false): the policy over the HAL's one-period sleeps (see epd.c).
 */
bool epd_sleep_until_idle(uint16_t max_ms);

/*
 * Called about every millisecond while epd_sleep_until_idle() stays awake
 * because the host talks, if set (the link answers the host there, saying it
 * is busy; it must not touch the panel). Unset (0) after reset.
 */
extern void (*epd_awake_hook)(void);

/*
 * VCOM and data interval 0xF7 (floating border, as Waveshare's sleep),
 * POWER_OFF, DEEP_SLEEP (0xA5), then supply off and every control pin low
 * (after waiting out a power-up in progress). Always leaves the panel
 * unpowered, even after an error.
 */
epd_status_t epd_power_down(void);

#endif /* EPDLE_EPD_H */
