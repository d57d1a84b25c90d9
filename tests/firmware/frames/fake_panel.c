/*
 * fake_panel.c - the panel driver as the display tests see it.
 */
#include "fake_panel.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

fake_panel_t fake_panel;

/* Where the next epd_data() byte goes: plane, then row and column of the open window. */
static struct {
    bool open;
    uint8_t plane;
    uint8_t x_bytes, y, w_bytes, h;
    unsigned written; /* bytes of this plane so far */
} window;

void fake_panel_reset(void) {
    memset(&fake_panel, 0, sizeof fake_panel);
    memset(&window, 0, sizeof window);
    fake_panel.fail_call = -1;
}

static epd_status_t record(panel_call_t call) {
    assert_true(fake_panel.call_count < FAKE_PANEL_MAX_CALLS);
    fake_panel.calls[fake_panel.call_count++] = call;
    if (fake_panel.fail_call == (int)call) {
        fake_panel.fail_call = -1;
        return EPD_ERR_BUSY_TIMEOUT;
    }
    return EPD_OK;
}

epd_status_t epd_power_up(void) {
    fake_panel.powered = true;
    return record(PANEL_POWER_UP);
}

epd_status_t epd_power_up_start(void) {
    fake_panel.powered = true;
    return record(PANEL_WAKE);
}

epd_status_t epd_white_window(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    unsigned row;

    assert_true(fake_panel.powered);
    if (w == 0u || h == 0u) {
        return EPD_OK; /* as the driver: nothing sent */
    }
    assert_int_equal(x % 8u, 0);
    assert_int_equal(w % 8u, 0);
    assert_true(x + w <= EPD_WIDTH && y + h <= EPD_HEIGHT);
    for (row = y; row < (unsigned)y + h; row++) {
        memset(&fake_panel.planes[0][row * EPD_ROW_BYTES + x / 8u], 0xFF, w / 8u);
        memset(&fake_panel.planes[1][row * EPD_ROW_BYTES + x / 8u], 0xFF, w / 8u);
    }
    return record(PANEL_FILL);
}

epd_status_t epd_window_plane(uint8_t plane, uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    epd_status_t status;

    assert_true(fake_panel.powered);
    assert_false(window.open);
    assert_int_equal(x % 8u, 0);
    assert_int_equal(w % 8u, 0);
    assert_true(w > 0u && h > 0u && x + w <= EPD_WIDTH && y + h <= EPD_HEIGHT);
    status = record(PANEL_WINDOW);
    fake_panel.windows[fake_panel.window_count][0] = x;
    fake_panel.windows[fake_panel.window_count][1] = y;
    fake_panel.windows[fake_panel.window_count][2] = w;
    fake_panel.windows[fake_panel.window_count][3] = h;
    fake_panel.window_count++;
    if (status != EPD_OK) {
        return status;
    }
    window.open = true;
    assert_true(plane == EPD_DTM1 || plane == EPD_DTM2);
    window.plane = plane == EPD_DTM2 ? 1u : 0u;
    window.x_bytes = (uint8_t)(x / 8u);
    window.y = y;
    window.w_bytes = (uint8_t)(w / 8u);
    window.h = h;
    window.written = 0u;
    return EPD_OK;
}

/* epd_data() is the HAL's SPI write (epd.h): the plane bytes arrive here. */
void hal_spi_write(uint8_t byte) {
    unsigned row;
    unsigned column;

    assert_true(window.open);
    assert_true(window.written < (unsigned)window.w_bytes * window.h);
    row = window.y + window.written / window.w_bytes;
    column = window.x_bytes + window.written % window.w_bytes;
    fake_panel.planes[window.plane][row * EPD_ROW_BYTES + column] = byte;
    window.written++;
}

void epd_second_plane(void) {
    assert_true(window.open);
    assert_int_equal(window.plane, 0);
    assert_int_equal(window.written, (unsigned)window.w_bytes * window.h);
    window.plane = 1u;
    window.written = 0u;
}

/* After both planes, or after the one plane of an epd_window_plane(). */
void epd_window_end(void) {
    assert_true(window.open);
    assert_int_equal(window.written, (unsigned)window.w_bytes * window.h);
    window.open = false;
}

epd_status_t epd_refresh_start(void) {
    assert_true(fake_panel.powered);
    fake_panel.refreshed = true;
    return record(PANEL_REFRESH);
}

epd_status_t epd_fast_refresh_start(uint8_t x, uint8_t y, uint8_t w, uint8_t h) {
    assert_true(fake_panel.powered);
    fake_panel.refreshed = true;
    fake_panel.fast_window[0] = x;
    fake_panel.fast_window[1] = y;
    fake_panel.fast_window[2] = w;
    fake_panel.fast_window[3] = h;
    return record(PANEL_FAST_REFRESH);
}

epd_status_t epd_refresh_wait(void) {
    assert_true(fake_panel.refreshed);
    return record(PANEL_REFRESH_WAIT);
}

epd_status_t epd_power_down(void) {
    fake_panel.powered = false;
    return record(PANEL_POWER_DOWN);
}
