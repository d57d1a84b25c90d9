/*
 * gpsim_main.c - the firmware's own code on the PIC instruction set: a main()
 * for the PIC16F1788 image that gpsim runs (make pic-test, driven by
 * tests/firmware/pic/gpsim_test.py, which generates gpsim_vectors.h and the frame set
 * in the store's flash, and checks t_result[] against the host's code).
 *
 * The runner sets breakpoints on t_start(), t_stop() and t_done() and reads
 * the cycle counter at each: every measured call sits between one t_start()
 * and one t_stop(). Results go to t_result[] in the order the runner expects.
 *
 * Written against the firmware's public headers only; the few calls into
 * the frame decoder and the store are gathered in the t_frame_* helpers.
 * T_GROUP_* (gpsim_vectors.h) leave groups out, for a firmware that does
 * not link whole yet (tests/firmware/pic/gpsim_test.py --only).
 */
#include <stdbool.h>
#include <stdint.h>

#include "builtin_frames.h"
#include "cobs.h"
#include "crc16.h"
#include "display.h"
#include "epd.h"
#include "frame.h"
#include "hal.h"
#include "pic_compiler.h"
#include "store.h"

#include "gpsim_vectors.h"

/* Those of p16f1788/main.c (watchdog off, stack overflow resets). */
PIC_CONFIG_WORDS

extern volatile uint16_t hal_gpsim_spi_bytes;
extern volatile uint16_t hal_gpsim_spi_sum;

uint16_t t_result[T_RESULTS];
uint8_t t_count;

/* Breakpoint markers: empty, never inlined by SDCC. */
void t_start(void) {}
void t_stop(void) {}
void t_done(void) {}

static void put(uint16_t value) {
    t_result[t_count] = value;
    t_count++;
}

/* ---- frame decoder and store: the calls that depend on their API ---------- */

#if T_GROUP_BUILTIN || T_GROUP_GOLDEN
static uint16_t builtin_next;

/* Readers take no argument: SDCC 4.2 pic14 drops the arguments of calls made
 * through a function pointer (firmware/toolchain/sdcc_pic14_fnptr.c). */
static uint8_t read_builtin(void) {
    uint8_t byte = builtin_frame_bytes[builtin_next];

    builtin_next++;
    return byte;
}

/* Source `stored` ? stored frame `index` : built-in frame `index`: reader and length. */
static uint16_t t_frame_open_source(bool stored, uint8_t index, frame_reader_t *read) {
#if T_GROUP_GOLDEN
    if (stored) {
        if (!store_frame_open(index)) {
            return 0xFFFFu;
        }
        *read = store_read_byte;
        return store_frame_left();
    }
#else
    (void)stored;
#endif
    builtin_next = builtin_frame_offsets[index];
    *read = read_builtin;
    return (uint16_t)(builtin_frame_offsets[index + 1u] - builtin_frame_offsets[index]);
}

/* frame_check's status (measured), then the CRC of every window's geometry and bytes. */
static void t_frame(bool stored, uint8_t index) {
    frame_reader_t read;
    uint16_t length;
    uint16_t bytes;
    uint16_t crc = CRC16_INIT;
    frame_status_t status;

    length = t_frame_open_source(stored, index, &read);
    t_start();
    status = frame_check(read, length);
    t_stop();
    put((uint16_t)status);
    if (status != FRAME_OK) {
        put(0u);
        return;
    }
    length = t_frame_open_source(stored, index, &read);
    (void)frame_open(read, length);
    while (frame_windows_left() != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        crc = crc16_update(crc, frame_window.x);
        crc = crc16_update(crc, frame_window.y);
        crc = crc16_update(crc, frame_window.w);
        crc = crc16_update(crc, frame_window.h);
        for (bytes = (uint16_t)(frame_plane_bytes() << 1); bytes != 0u; bytes--) {
            crc = crc16_update(crc, frame_next_byte());
        }
        (void)frame_end_window();
    }
    put((uint16_t)frame_close() == FRAME_OK ? crc : 0u);
}
#endif

/* ---- the tests ------------------------------------------------------------------ */

static uint8_t cobs_out[T_COBS_MAX + 2u];
static uint8_t cobs_in[T_COBS_MAX];

void main(void) {
    uint8_t i;
    uint8_t j;
    uint8_t length;
    cobs_result_t result = COBS_MORE;

    hal_init();
    t_count = 0u;

#if T_GROUP_CRC
    /* CRC-16 of each vector (measured). */
    for (i = 0u; i < T_CRC_COUNT; i++) {
        t_start();
        put(crc16_block(CRC16_INIT, &t_crc_data[t_crc_offsets[i]],
                        (uint8_t)(t_crc_offsets[i + 1u] - t_crc_offsets[i])));
        t_stop();
    }

#endif
#if T_GROUP_COBS
    /* COBS: encode (length, CRC of the encoding), then decode it back (status, CRC). */
    for (i = 0u; i < T_COBS_COUNT; i++) {
        length = (uint8_t)(t_cobs_offsets[i + 1u] - t_cobs_offsets[i]);
        for (j = 0u; j < length; j++) {
            cobs_in[j] = t_cobs_data[t_cobs_offsets[i] + j];
        }
        length = cobs_encode(cobs_in, length, cobs_out);
        put(length);
        put(crc16_block(CRC16_INIT, cobs_out, length));
        cobs_decoder_reset();
        for (j = 0u; j < length; j++) {
            result = cobs_decode_byte(cobs_out[j]);
        }
        put((uint16_t)result);
        put(result == COBS_PACKET ? crc16_block(CRC16_INIT, cobs_packet, cobs_length) : 0u);
    }

#endif
#if T_GROUP_SPI
    /* SPI: T_SPI_BYTES bytes through the HAL (measured). */
    t_start();
    for (i = 0u; i < T_SPI_BYTES; i++) {
        hal_spi_write(i);
    }
    t_stop();
    /* The same bytes as the panel driver's epd_data() sends a plane's (measured). */
    t_start();
    for (i = 0u; i < T_SPI_BYTES; i++) {
        epd_data(i);
    }
    t_stop();
    /* A white page, both planes (measured): what a show of a frame without windows sends. */
    (void)epd_power_up();
    t_start();
    (void)epd_white_window(0u, 0u, (uint8_t)EPD_WIDTH, (uint8_t)EPD_HEIGHT);
    t_stop();
    (void)epd_power_down();
#endif
#if T_GROUP_BUILTIN
    /* Frames: the built-in ones from program memory, the stored set through the store. */
    for (i = 0u; i < BUILTIN_FRAME_COUNT; i++) {
        t_frame(false, i);
    }
#endif
#if T_GROUP_GOLDEN
    store_init();
    put(store_frame_count());
    /* Opening a stored frame: its header and a CRC pass over its bytes (measured). */
    t_start();
    put((uint16_t)store_frame_open(T_SHOW_INDEX));
    t_stop();
    for (i = 0u; i < T_STORED_FRAMES; i++) {
        t_frame(true, i);
    }

#endif
#if T_GROUP_SHOW
    /* One whole show: store -> decoder -> epd -> SPI pins (measured). */
    store_init();
    display_init();
    hal_gpsim_spi_bytes = 0u;
    hal_gpsim_spi_sum = 0u;
    t_start();
    put((uint16_t)display_show(T_SHOW_INDEX));
    t_stop();
    put(hal_gpsim_spi_bytes);
    put(hal_gpsim_spi_sum);
#endif

    t_done();
    for (;;) {
    }
}
