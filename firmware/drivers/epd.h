/*
 * epd.h - driver for the 2.13" 104 x 212 black/white/red panel (IL0373
 * command set), SPI bit-banged over the HAL's pins.
 *
 * Native geometry: 104 px wide (x, 13 bytes a row, MSB = leftmost pixel)
 * by 212 rows (y). Plane bytes: bit 1 = white; bit 0 = black in plane 1
 * (DTM1), red in plane 2 (DTM2).
 *
 * Pixel data never sits in RAM: every write pulls its bytes one at a time
 * from a caller-supplied source.
 */
#ifndef EPDLE_EPD_H
#define EPDLE_EPD_H

#include <stdint.h>

#define EPD_WIDTH 104u
#define EPD_HEIGHT 212u
#define EPD_ROW_BYTES (EPD_WIDTH / 8u)
#define EPD_PLANE_BYTES (EPD_ROW_BYTES * EPD_HEIGHT) /* 2756 */

typedef enum {
    EPD_OK = 0,
    EPD_ERR_BUSY_TIMEOUT, /* BUSY stayed low past the bound of that step */
    EPD_ERR_BAD_WINDOW,   /* window outside the panel or not 8-aligned */
    EPD_ERR_NOT_READY     /* call out of order (e.g. write before init) */
} epd_status_t;

/* Next pixel byte of a stream; ctx is the caller's decoder state. */
typedef uint8_t (*epd_byte_source_t)(void *ctx);

/* Supply on, hardware reset, init sequence (facts 1.4). */
epd_status_t epd_power_up(void);

/* Both planes, whole panel, every byte = black_fill / red_fill. */
epd_status_t epd_fill(uint8_t black_fill, uint8_t red_fill);

/*
 * One partial window: x and w multiples of 8, inside the panel.
 * Pulls (w / 8) * h bytes for plane 1, then the same count for plane 2.
 */
epd_status_t epd_write_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h, epd_byte_source_t source,
                              void *ctx);

/* DISPLAY_REFRESH and the (long, bounded) wait for BUSY, which the MCU sleeps through. */
epd_status_t epd_refresh(void);

/*
 * POWER_OFF, DEEP_SLEEP (0xA5), then supply off and every control pin low.
 * Always leaves the panel unpowered, even after an error.
 */
epd_status_t epd_power_down(void);

#endif /* EPDLE_EPD_H */
