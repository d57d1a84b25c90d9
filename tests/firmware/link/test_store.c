/* The flash frame store on the simulated board: round trips, placement, power cuts, damage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "epd.h"
#include "link_board.h"
#include "link_packets.h"
#include "store.h"
#include "store_layout.h"
#include "store_write.h"

#define MAX_TEST_FRAMES 8u
#define MAX_TEST_FRAME 1100u

typedef struct {
    uint8_t count;
    uint16_t lengths[MAX_TEST_FRAMES];
    uint8_t bytes[MAX_TEST_FRAMES][MAX_TEST_FRAME];
} test_set_t;

static test_set_t set_a;
static test_set_t set_b;
static uint8_t stream[MAX_TEST_FRAMES * (MAX_TEST_FRAME + 4u)];

static void make_set(test_set_t *set, uint8_t count, uint16_t base_length, uint8_t seed) {
    uint8_t i;

    set->count = count;
    for (i = 0; i < count; i++) {
        /* Valid frames (a commit checks that they decode), of uneven sizes. */
        set->lengths[i] = (uint16_t)(base_length + 38u * i);
        link_make_frame(set->bytes[i], set->lengths[i], (uint8_t)(seed + i));
    }
}

/* Stream bytes into the store one at a time, as the link hands them over. */
static store_status_t write_bytes(const uint8_t *data, uint16_t length) {
    store_status_t status = STORE_OK;
    uint16_t i;

    for (i = 0; i < length && status == STORE_OK; i++) {
        status = store_write_byte(data[i]);
    }
    return status;
}

static store_status_t upload(const test_set_t *set) {
    const uint8_t *frames[MAX_TEST_FRAMES];
    uint16_t length;
    uint16_t at = 0;
    uint8_t i;
    store_status_t status;

    for (i = 0; i < set->count; i++) {
        frames[i] = set->bytes[i];
    }
    length = link_set_stream(frames, set->lengths, set->count, stream);
    status = store_write_begin(set->count, link_set_words(set->lengths, set->count));
    while (status == STORE_OK && at < length) {
        uint16_t left = (uint16_t)(length - at);
        uint8_t part = (uint8_t)(left > LINK_CHUNK_MAX ? LINK_CHUNK_MAX : left);
        status = write_bytes(&stream[at], part);
        at = (uint16_t)(at + part);
    }
    return status == STORE_OK ? store_write_commit() : status;
}

/* The current set is exactly `set`, frame by frame. */
static bool store_holds(const test_set_t *set) {
    uint8_t i;

    if (store_frame_count() != set->count) {
        return false;
    }
    for (i = 0; i < set->count; i++) {
        uint16_t j;
        if (!store_frame_open(i) || store_frame_left() != set->lengths[i]) {
            return false;
        }
        for (j = 0; j < set->lengths[i]; j++) {
            if (store_read_byte() != set->bytes[i][j]) {
                return false;
            }
        }
        if (store_read_byte() != 0xFFu) {
            return false;
        }
    }
    return true;
}

static int fresh(void **state) {
    (void)state;
    board_fresh();
    store_init();
    make_set(&set_a, 3, 600, 1);
    make_set(&set_b, 4, 900, 2);
    return 0;
}

static void empty_flash_has_no_set_and_all_room(void **state) {
    (void)state;
    assert_int_equal(store_frame_count(), 0);
    assert_false(store_frame_open(0));
    assert_int_equal(store_read_byte(), 0xFF);
    assert_int_equal(store_free_words(), STORE_DATA_WORDS);
}

static void a_committed_set_reads_back_and_survives_reset(void **state) {
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    assert_true(store_holds(&set_a));
    store_init();
    assert_true(store_holds(&set_a));
}

static void packing_takes_seven_bytes_per_four_words(void **state) {
    (void)state;
    assert_int_equal(store_frame_words(3), 4);  /* 7 bytes with the header */
    assert_int_equal(store_frame_words(10), 8); /* 14 bytes */
    assert_int_equal(store_frame_words(11), 9); /* 15 bytes: one bit over */
    assert_int_equal(store_frame_words(1), 3);  /* 5 bytes = 40 bits */
}

/* Every length the store takes: whole bits rounded up to 14-bit words. */
static void frame_words_are_the_bits_in_whole_words(void **state) {
    unsigned long length;
    unsigned long bits;
    (void)state;
    for (length = 1u; length <= STORE_FRAME_MAX_BYTES; length++) {
        bits = (length + STORE_FRAME_HEADER_BYTES) * 8u;
        assert_int_equal(store_frame_words((uint16_t)length),
                         (bits + STORE_BITS_PER_WORD - 1u) / STORE_BITS_PER_WORD);
    }
}

static void a_new_set_goes_beside_the_current_one(void **state) {
    uint16_t a_first;
    uint16_t b_first;
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    a_first = board_flash[STORE_REGION_FIRST_ROW * HAL_FLASH_ROW_WORDS + STORE_RECORD_FIRST_ROW_AT];
    assert_int_equal(upload(&set_b), STORE_OK);
    b_first = board_flash[(STORE_REGION_FIRST_ROW + 1u) * HAL_FLASH_ROW_WORDS +
                          STORE_RECORD_FIRST_ROW_AT];
    assert_int_equal(a_first, STORE_DATA_FIRST_ROW);
    assert_true(b_first * HAL_FLASH_ROW_WORDS >=
                a_first * HAL_FLASH_ROW_WORDS + link_set_words(set_a.lengths, set_a.count));
    assert_true(store_holds(&set_b));
    store_init();
    assert_true(store_holds(&set_b));
}

static void an_abandoned_upload_leaves_the_old_set(void **state) {
    const uint8_t partial[4] = {0x10, 0x00, 0x00, 0x00};
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    assert_int_equal(store_write_begin(2, 40), STORE_OK);
    assert_int_equal(write_bytes(partial, 4), STORE_OK);
    assert_int_equal(store_write_commit(), STORE_ERR_INCOMPLETE);
    store_write_abort();
    assert_int_equal(store_write_commit(), STORE_ERR_NOT_WRITING);
    assert_true(store_holds(&set_a));
    store_init();
    assert_true(store_holds(&set_a));
}

/*
 * The board's power cut: the supply goes as the n-th flash operation of the upload
 * starts (that row erased or programmed half way), the CPU stops there, and the
 * store finds its set after the reboot.
 */
static void a_power_cut_at_any_flash_operation_keeps_old_or_new(void **state) {
    uint32_t ops_before;
    uint32_t ops_of_upload;
    uint32_t cut;
    uint32_t first_new = 0;
    static uint16_t flash_with_a[HAL_FLASH_WORDS];
    (void)state;

    assert_int_equal(upload(&set_a), STORE_OK);
    memcpy(flash_with_a, board_flash, sizeof flash_with_a);
    ops_before = sim_nvm_op_count();
    assert_int_equal(upload(&set_b), STORE_OK);
    ops_of_upload = sim_nvm_op_count() - ops_before;
    assert_true(ops_of_upload > 10u);

    for (cut = 1; cut <= ops_of_upload; cut++) {
        board_fresh();
        memcpy(board_flash, flash_with_a, sizeof flash_with_a);
        store_init();
        sim_schedule_power_cut(cut);
        if (setjmp(board_cut) == 0) {
            board_catch_cuts(true);
            (void)upload(&set_b);
        }
        board_catch_cuts(false);
        assert_true(board_was_cut());
        board_reboot();
        store_init();
        if (store_holds(&set_a)) {
            /* Old until the record's own write: never old again after new. */
            assert_int_equal(first_new, 0);
        } else {
            assert_true(store_holds(&set_b));
            if (first_new == 0u) {
                first_new = cut;
            }
        }
    }
    /* Only the record's write (the upload's last flash operation) makes the new set
     * current: half of that row already holds the whole record. */
    assert_int_equal(first_new, ops_of_upload);
}

static void a_damaged_newest_set_yields_to_the_previous(void **state) {
    uint16_t b_first;
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    assert_int_equal(upload(&set_b), STORE_OK);
    b_first = board_flash[(STORE_REGION_FIRST_ROW + 1u) * HAL_FLASH_ROW_WORDS +
                          STORE_RECORD_FIRST_ROW_AT];
    board_flash[b_first * HAL_FLASH_ROW_WORDS + 40u] ^= 0x0100u;
    store_init();
    assert_true(store_holds(&set_a));
}

static void a_frame_damaged_after_reset_is_refused(void **state) {
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    board_flash[STORE_DATA_FIRST_ROW * HAL_FLASH_ROW_WORDS + 500u] ^= 0x0001u;
    /* Word 500 lies in frame 1 (frame 0 takes 346 words). */
    assert_true(store_frame_open(0));
    assert_false(store_frame_open(1));
    assert_int_equal(store_frame_left(), 0);
    assert_true(store_frame_open(2));
}

static void begin_refuses_what_cannot_fit(void **state) {
    (void)state;
    assert_int_equal(store_write_begin(STORE_MAX_FRAMES + 1u, 100), STORE_ERR_TOO_MANY_FRAMES);
    assert_int_equal(store_write_begin(2, STORE_DATA_WORDS + 1u), STORE_ERR_TOO_BIG);
    assert_int_equal(store_write_begin(2, STORE_DATA_WORDS), STORE_OK);
    store_write_abort();
    assert_int_equal(upload(&set_b), STORE_OK);
    assert_int_equal(store_write_begin(2, STORE_DATA_WORDS), STORE_ERR_TOO_BIG);
    assert_int_equal(store_write_begin(2, store_free_words()), STORE_OK);
    store_write_abort();
    assert_true(store_holds(&set_b));
}

static void a_stream_that_disagrees_with_begin_is_refused(void **state) {
    const uint8_t zero_length[4] = {0, 0, 0, 0};
    const uint8_t long_frame[4] = {0xFF, 0x0F, 0, 0};
    uint8_t filler[200];
    store_status_t status = STORE_OK;
    uint8_t i;
    (void)state;

    assert_int_equal(store_write_begin(1, 100), STORE_OK);
    assert_int_equal(write_bytes(zero_length, 4), STORE_ERR_BAD_STREAM);
    assert_false(store_write_active());

    /* Frame header promises 4095 bytes; BEGIN planned 100 words. */
    memset(filler, 0x5A, sizeof filler);
    assert_int_equal(store_write_begin(1, 100), STORE_OK);
    assert_int_equal(write_bytes(long_frame, 4), STORE_OK);
    for (i = 0; i < 5 && status == STORE_OK; i++) {
        status = write_bytes(filler, sizeof filler);
    }
    assert_int_equal(status, STORE_ERR_BAD_STREAM);
    store_init();
    assert_int_equal(store_frame_count(), 0);
}

static void a_frame_that_does_not_decode_is_not_committed(void **state) {
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    set_b.bytes[2][0] = 0x7A; /* not the frame format's version: its CRC is still right */
    assert_int_equal(upload(&set_b), STORE_ERR_FRAME_FORMAT);
    assert_int_equal(store_failed_frame(), 2);
    assert_true(store_holds(&set_a));
    store_init();
    assert_true(store_holds(&set_a));
}

static void a_header_claiming_near_64k_bytes_is_refused(void **state) {
    /* 65,532 + 4 header bytes would wrap store_frame_words() to a few words. */
    const uint8_t huge[4] = {0xFC, 0xFF, 0, 0};
    (void)state;
    assert_int_equal(store_write_begin(1, 10), STORE_OK);
    assert_int_equal(write_bytes(huge, 4), STORE_ERR_BAD_STREAM);
    assert_false(store_write_active());
    assert_true(store_frame_words(STORE_FRAME_MAX_BYTES) <= STORE_DATA_WORDS);
}

static void clear_makes_an_empty_set_current(void **state) {
    (void)state;
    assert_int_equal(upload(&set_a), STORE_OK);
    assert_int_equal(store_clear(), STORE_OK);
    assert_int_equal(store_frame_count(), 0);
    store_init();
    assert_int_equal(store_frame_count(), 0);
    assert_int_equal(store_free_words(), STORE_DATA_WORDS);
}

static void many_commits_rotate_the_journal(void **state) {
    uint8_t round;
    (void)state;

    for (round = 0; round < 9; round++) {
        test_set_t *set = (round % 2u == 0u) ? &set_a : &set_b;
        uint32_t erases_before = sim_flash_erase_count();
        set->bytes[0][2] = (uint8_t)(round % EPD_ROW_BYTES); /* the first window's x */
        assert_int_equal(upload(set), STORE_OK);
        store_init();
        assert_true(store_holds(set));
        /* Data rows plus one journal row, each erased once. */
        assert_int_equal(sim_flash_erase_count() - erases_before,
                         (link_set_words(set->lengths, set->count) + 31u) / 32u + 1u);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(empty_flash_has_no_set_and_all_room, fresh),
        cmocka_unit_test_setup(a_committed_set_reads_back_and_survives_reset, fresh),
        cmocka_unit_test_setup(packing_takes_seven_bytes_per_four_words, fresh),
        cmocka_unit_test_setup(frame_words_are_the_bits_in_whole_words, fresh),
        cmocka_unit_test_setup(a_new_set_goes_beside_the_current_one, fresh),
        cmocka_unit_test_setup(an_abandoned_upload_leaves_the_old_set, fresh),
        cmocka_unit_test_setup(a_power_cut_at_any_flash_operation_keeps_old_or_new, fresh),
        cmocka_unit_test_setup(a_damaged_newest_set_yields_to_the_previous, fresh),
        cmocka_unit_test_setup(a_frame_damaged_after_reset_is_refused, fresh),
        cmocka_unit_test_setup(begin_refuses_what_cannot_fit, fresh),
        cmocka_unit_test_setup(a_stream_that_disagrees_with_begin_is_refused, fresh),
        cmocka_unit_test_setup(a_frame_that_does_not_decode_is_not_committed, fresh),
        cmocka_unit_test_setup(a_header_claiming_near_64k_bytes_is_refused, fresh),
        cmocka_unit_test_setup(clear_makes_an_empty_set_current, fresh),
        cmocka_unit_test_setup(many_commits_rotate_the_journal, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
