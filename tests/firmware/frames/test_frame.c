/*
 * test_frame.c - the streaming frame decoder against the shared vectors: the
 * same accept/refuse verdicts (and error kinds) as the Python decoder, the
 * same planes for valid frames, and exact byte counts per window->
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "frame.h"
#include "vector_files.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t position;
    size_t overreads; /* reads past the end: the decoder must never do this */
} memory_reader_t;

/* The decoder's reader takes no argument: the frame being read is this one. */
static memory_reader_t *reader;

static uint8_t read_memory(void) {
    if (reader->position >= reader->size) {
        reader->overreads++;
        return 0xA5u;
    }
    return reader->data[reader->position++];
}

/* What the panel ends up with: windows written into white planes, in order. */
static frame_status_t decode_to_planes(const uint8_t *data, size_t size, uint8_t *planes,
                                       size_t *bytes_read) {
    memory_reader_t memory = {data, size, 0u, 0u};
    const frame_window_t *window = &frame_window;
    uint8_t plane;
    uint8_t row;
    uint8_t column;

    memset(planes, 0xFF, 2u * EPD_PLANE_BYTES);
    reader = &memory;
    frame_open(read_memory, (uint16_t)size);
    while (frame_windows_left() != 0u) {
        if (frame_next_window() != FRAME_OK) {
            break;
        }
        assert_int_equal(window->x % 8u, 0);
        assert_int_equal(window->w % 8u, 0);
        assert_true(window->x + window->w <= EPD_WIDTH);
        assert_true(window->y + window->h <= EPD_HEIGHT);
        for (plane = 0u; plane < 2u; plane++) {
            for (row = 0u; row < window->h; row++) {
                for (column = 0u; column < window->w / 8u; column++) {
                    planes[plane * EPD_PLANE_BYTES + (window->y + row) * EPD_ROW_BYTES +
                           window->x / 8u + column] = frame_next_byte();
                }
            }
        }
        frame_end_window();
    }
    assert_int_equal(memory.overreads, 0);
    *bytes_read = memory.position;
    return frame_close();
}

static frame_status_t check_bytes(const uint8_t *data, size_t size) {
    memory_reader_t memory = {data, size, 0u, 0u};
    frame_status_t status;

    reader = &memory;
    status = frame_check(read_memory, (uint16_t)size);
    assert_int_equal(memory.overreads, 0);
    return status;
}

static void test_vectors_match_python_verdicts(void **state) {
    vector_entry_t entries[VECTOR_MAX];
    size_t count = vector_manifest(entries, VECTOR_MAX);
    size_t i;
    size_t valid = 0;

    (void)state;
    assert_true(count >= 20u);
    for (i = 0; i < count; i++) {
        size_t size;
        uint8_t *frame = vector_read(entries[i].name, "frame", &size);

        print_message("vector %s: expect %d\n", entries[i].name, entries[i].status);
        assert_int_equal(check_bytes(frame, size), entries[i].status);
        if (entries[i].status == FRAME_OK) {
            size_t planes_size;
            size_t bytes_read;
            uint8_t *expected = vector_read(entries[i].name, "planes", &planes_size);
            uint8_t *planes = malloc(2u * EPD_PLANE_BYTES);

            assert_int_equal(planes_size, 2u * EPD_PLANE_BYTES);
            assert_int_equal(decode_to_planes(frame, size, planes, &bytes_read), FRAME_OK);
            assert_int_equal(bytes_read, size);
            assert_memory_equal(planes, expected, 2u * EPD_PLANE_BYTES);
            valid++;
            free(planes);
            free(expected);
        }
        free(frame);
    }
    assert_true(valid >= 5u);
}

/*
 * A fast update's pass: each window's black pulled in columns [from, to) of every row, the
 * rest skipped with frame_skip(), its red plane skipped whole. The pulled bytes are the
 * frame's, and the frame ends as it does when every byte is pulled.
 */
static void skip_around(const uint8_t *frame, size_t size, const uint8_t *expected, uint8_t from,
                        uint8_t to) {
    memory_reader_t memory = {frame, size, 0u, 0u};
    const frame_window_t *window = &frame_window;
    uint8_t row_bytes;
    uint8_t row;
    uint8_t column;
    uint8_t first;
    uint8_t last;

    reader = &memory;
    assert_int_equal(frame_open(read_memory, (uint16_t)size), FRAME_OK);
    while (frame_windows_left() != 0u) {
        assert_int_equal(frame_next_window(), FRAME_OK);
        row_bytes = (uint8_t)(window->w / 8u);
        first = from < row_bytes ? from : row_bytes;
        last = to < row_bytes ? to : row_bytes;
        if (last < first) {
            last = first;
        }
        for (row = 0u; row < window->h; row++) {
            frame_skip(first);
            for (column = first; column < last; column++) {
                assert_int_equal(
                    frame_next_byte(),
                    expected[(window->y + row) * EPD_ROW_BYTES + window->x / 8u + column]);
            }
            frame_skip((uint8_t)(row_bytes - last));
        }
        for (row = 0u; row < window->h; row++) {
            frame_skip(row_bytes);
        }
        assert_int_equal(frame_end_window(), FRAME_OK);
    }
    assert_int_equal(frame_close(), FRAME_OK);
    assert_int_equal(memory.position, size);
    assert_int_equal(memory.overreads, 0);
}

static void test_skipped_bytes_leave_the_rest_as_decoded(void **state) {
    vector_entry_t entries[VECTOR_MAX];
    size_t count = vector_manifest(entries, VECTOR_MAX);
    size_t i;
    size_t valid = 0;

    (void)state;
    for (i = 0; i < count; i++) {
        size_t size;
        size_t planes_size;
        uint8_t *frame;
        uint8_t *expected;

        if (entries[i].status != FRAME_OK) {
            continue;
        }
        frame = vector_read(entries[i].name, "frame", &size);
        expected = vector_read(entries[i].name, "planes", &planes_size);
        print_message("vector %s: skipped around\n", entries[i].name);
        skip_around(frame, size, expected, 0u, EPD_ROW_BYTES); /* every column pulled */
        skip_around(frame, size, expected, 0u, 0u);            /* every byte skipped */
        skip_around(frame, size, expected, 3u, 9u);
        skip_around(frame, size, expected, 7u, EPD_ROW_BYTES);
        valid++;
        free(frame);
        free(expected);
    }
    assert_true(valid >= 5u);
}

/* Every prefix of a valid frame is refused as truncated, never read past its end. */
static void test_every_prefix_is_truncated(void **state) {
    size_t size;
    uint8_t *frame = vector_read("text", "frame", &size);
    size_t cut;

    (void)state;
    for (cut = 0; cut < size; cut++) {
        frame_status_t status = check_bytes(frame, cut);

        /* Cutting inside the zero padding of the last byte cannot happen: it is whole. */
        assert_int_equal(status, FRAME_ERR_TRUNCATED);
    }
    free(frame);
}

/* Flipping any single bit of a valid frame gives a verdict, never an overrun. */
static void test_single_bit_flips_are_bounded(void **state) {
    size_t size;
    uint8_t *frame = vector_read("checkerboard", "frame", &size);
    uint8_t *planes = malloc(2u * EPD_PLANE_BYTES);
    size_t bit;
    size_t refused = 0;

    (void)state;
    for (bit = 0; bit < size * 8u; bit++) {
        size_t bytes_read;
        frame_status_t checked;
        frame_status_t decoded;

        frame[bit / 8u] ^= (uint8_t)(0x80u >> (bit % 8u));
        checked = check_bytes(frame, size);
        decoded = decode_to_planes(frame, size, planes, &bytes_read);
        assert_int_equal(checked, decoded);
        if (checked != FRAME_OK) {
            refused++;
        } else {
            assert_int_equal(bytes_read, size);
        }
        frame[bit / 8u] ^= (uint8_t)(0x80u >> (bit % 8u));
    }
    assert_true(refused > 0u);
    free(planes);
    free(frame);
}

static void test_bytes_after_the_window_are_white(void **state) {
    size_t size;
    uint8_t *frame = vector_read("tiny", "frame", &size);
    memory_reader_t memory = {NULL, 0u, 0u, 0u};
    const frame_window_t *window = &frame_window;
    uint16_t i;

    (void)state;
    memory.data = frame;
    memory.size = size;
    reader = &memory;
    assert_int_equal(frame_open(read_memory, (uint16_t)size), FRAME_OK);
    assert_int_equal(frame_windows_left(), 1);
    assert_int_equal(frame_next_window(), FRAME_OK);
    assert_int_equal(window->x, 16);
    assert_int_equal(window->y, 10);
    assert_int_equal(window->w, 8);
    assert_int_equal(window->h, 4);
    assert_int_equal(frame_next_byte(), 0x0F);
    assert_int_equal(frame_next_byte(), 0x81);
    assert_int_equal(frame_next_byte(), 0x00);
    assert_int_equal(frame_next_byte(), 0xF0);
    for (i = 0; i < 4u; i++) {
        assert_int_equal(frame_next_byte(), 0xFF);
    }
    /* Pulled past the window: white, and no frame byte consumed. */
    assert_int_equal(frame_next_byte(), 0xFF);
    assert_int_equal(frame_end_window(), FRAME_OK);
    assert_int_equal(frame_close(), FRAME_OK);
    assert_int_equal(memory.position, size);
    free(frame);
}

static void test_window_ended_early_is_an_error(void **state) {
    size_t size;
    uint8_t *frame = vector_read("tiny", "frame", &size);
    memory_reader_t memory = {NULL, 0u, 0u, 0u};

    (void)state;
    memory.data = frame;
    memory.size = size;
    reader = &memory;
    frame_open(read_memory, (uint16_t)size);
    assert_int_equal(frame_next_window(), FRAME_OK);
    (void)frame_next_byte();
    assert_int_equal(frame_end_window(), FRAME_ERR_TRUNCATED);
    assert_int_equal(frame_windows_left(), 0);
    assert_int_equal(frame_close(), FRAME_ERR_TRUNCATED);
    free(frame);
}

/* A version 2 frame's fast window is read in pixels; a version 1 frame has none. */
static void test_fast_window_is_read_in_pixels(void **state) {
    size_t size;
    uint8_t *fast = vector_read("fast_window", "frame", &size);
    uint8_t *tiny;
    size_t tiny_size;
    memory_reader_t memory = {NULL, 0u, 0u, 0u};

    (void)state;
    memory.data = fast;
    memory.size = size;
    reader = &memory;
    assert_int_equal(frame_check(read_memory, (uint16_t)size), FRAME_OK);
    assert_int_equal(frame_fast.x, 8);
    assert_int_equal(frame_fast.y, 8);
    assert_int_equal(frame_fast.w, 24);
    assert_int_equal(frame_fast.h, 10);
    tiny = vector_read("tiny", "frame", &tiny_size);
    memory.data = tiny;
    memory.size = tiny_size;
    memory.position = 0u;
    assert_int_equal(frame_check(read_memory, (uint16_t)tiny_size), FRAME_OK);
    assert_int_equal(frame_fast.h, 0);
    free(fast);
    free(tiny);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_match_python_verdicts),
        cmocka_unit_test(test_every_prefix_is_truncated),
        cmocka_unit_test(test_skipped_bytes_leave_the_rest_as_decoded),
        cmocka_unit_test(test_single_bit_flips_are_bounded),
        cmocka_unit_test(test_bytes_after_the_window_are_white),
        cmocka_unit_test(test_window_ended_early_is_an_error),
        cmocka_unit_test(test_fast_window_is_read_in_pixels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
