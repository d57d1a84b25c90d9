/* buckets_stats against a plain count of each guess's codes, over a matrix wider than one
 * block of guesses, with repeated and out-of-order candidates and guesses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "buckets.h"

#define ROWS 40u
#define WIDTH 600u /* more than one block of guesses */

static uint8_t matrix[ROWS][WIDTH];
static double clc[ROWS + 2];

static uint32_t next_random(uint32_t *state) {
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fffu;
}

static void fill(uint32_t seed, uint32_t codes) {
    for (uint32_t r = 0; r < ROWS; r++) {
        for (uint32_t g = 0; g < WIDTH; g++) {
            matrix[r][g] = (uint8_t)(next_random(&seed) % codes);
        }
    }
    for (uint32_t c = 0; c < ROWS + 2; c++) {
        clc[c] = c == 0 ? 0.0 : (double)c * log2((double)c);
    }
}

/* The expected figures, counted the plain way (summed in the order the codes first occur,
 * as the kernel promises). */
static void expect_stats(const uint16_t *answers, uint32_t n, uint16_t guess, double *sum,
                         uint8_t *parts) {
    uint32_t sizes[256] = {0};
    uint8_t order[256]; /* the codes as they first occur */
    uint32_t buckets = 0;
    for (uint32_t r = 0; r < n; r++) {
        const uint8_t code = matrix[answers[r]][guess];
        if (sizes[code]++ == 0) {
            order[buckets++] = code;
        }
    }
    *sum = 0.0;
    for (uint32_t i = 0; i < buckets; i++) {
        *sum += clc[sizes[order[i]]];
    }
    *parts = (uint8_t)(buckets - 1u);
}

/* The answers as groups ending at ends[0..groups), every figure checked. */
static void check(const uint16_t *answers, const uint32_t *ends, uint32_t groups,
                  const uint16_t *guesses, uint32_t count) {
    static double sums[3 * WIDTH];
    static uint8_t parts[3 * WIDTH];
    assert_true(groups <= 3 && count <= WIDTH);
    assert_int_equal(buckets_stats(&matrix[0][0], WIDTH, answers, ends, groups, guesses, count, clc,
                                   sums, parts),
                     0);
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        for (uint32_t i = 0; i < count; i++) {
            double sum;
            uint8_t expected_parts;
            expect_stats(answers + start, ends[g] - start, guesses[i], &sum, &expected_parts);
            assert_true(sums[g * count + i] == sum);
            assert_int_equal(parts[g * count + i], expected_parts);
        }
    }
}

static void test_every_guess_over_random_candidates(void **state) {
    (void)state;
    uint32_t seed = 7;
    for (uint32_t codes = 2; codes <= 243; codes += 60) {
        fill(codes, codes);
        uint16_t guesses[WIDTH];
        for (uint32_t g = 0; g < WIDTH; g++) {
            guesses[g] = (uint16_t)g;
        }
        for (uint32_t n = 1; n <= ROWS; n += 13) {
            uint16_t answers[ROWS];
            for (uint32_t r = 0; r < n; r++) {
                answers[r] = (uint16_t)(next_random(&seed) % ROWS); /* repeats allowed */
            }
            const uint32_t ends[] = {n};
            check(answers, ends, 1, guesses, WIDTH);
        }
    }
}

static void test_some_guesses_in_any_order(void **state) {
    (void)state;
    fill(3, 243);
    uint16_t answers[] = {39, 0, 17, 5, 22, 8, 31};
    uint16_t guesses[] = {599, 0, 300, 257, 256, 255, 1, 599};
    const uint32_t ends[] = {7};
    check(answers, ends, 1, guesses, 8);
}

static void test_groups_are_counted_apart(void **state) {
    (void)state;
    fill(5, 40);
    uint16_t answers[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    uint16_t guesses[WIDTH];
    for (uint32_t g = 0; g < WIDTH; g++) {
        guesses[g] = (uint16_t)(WIDTH - 1 - g);
    }
    const uint32_t ends[] = {1, 6, 11}; /* one row, then five and five */
    check(answers, ends, 3, guesses, WIDTH);
}

static void test_one_bucket_and_all_apart(void **state) {
    (void)state;
    memset(matrix, 9, sizeof matrix);
    for (uint32_t r = 0; r < ROWS; r++) {
        matrix[r][1] = (uint8_t)r;
    }
    for (uint32_t c = 0; c < ROWS + 2; c++) {
        clc[c] = c == 0 ? 0.0 : (double)c * log2((double)c);
    }
    uint16_t answers[ROWS];
    for (uint32_t r = 0; r < ROWS; r++) {
        answers[r] = (uint16_t)r;
    }
    uint16_t guesses[] = {0, 1};
    const uint32_t ends[] = {ROWS};
    double sums[2];
    uint8_t parts[2];
    assert_int_equal(
        buckets_stats(&matrix[0][0], WIDTH, answers, ends, 1, guesses, 2, clc, sums, parts), 0);
    assert_true(sums[0] == clc[ROWS]); /* every candidate in one bucket */
    assert_int_equal(parts[0], 0);
    assert_true(sums[1] == 0.0); /* each alone */
    assert_int_equal(parts[1], ROWS - 1);
}

static void test_refuses_empty_and_oversized_groups(void **state) {
    (void)state;
    uint16_t answers[] = {0, 1};
    uint16_t guesses[] = {0};
    double sums[2] = {-1.0, -1.0};
    uint8_t parts[2] = {77, 77};
    const uint32_t empty_first[] = {0, 2};
    const uint32_t empty_last[] = {2, 2};
    const uint32_t too_many[] = {BUCKETS_MAX_ANSWERS + 1u};
    assert_int_equal(
        buckets_stats(&matrix[0][0], WIDTH, answers, empty_first, 2, guesses, 1, clc, sums, parts),
        -1);
    assert_int_equal(
        buckets_stats(&matrix[0][0], WIDTH, answers, empty_last, 2, guesses, 1, clc, sums, parts),
        -1);
    assert_int_equal(
        buckets_stats(&matrix[0][0], WIDTH, answers, too_many, 1, guesses, 1, clc, sums, parts),
        -1);
    for (uint32_t g = 0; g < 2; g++) { /* nothing written */
        assert_true(sums[g] == -1.0);
        assert_int_equal(parts[g], 77);
    }
}

static void test_every_code_of_a_byte(void **state) {
    (void)state;
    /* 300 rows: guess 0 sees all 256 codes (some twice), guess 1 only two. */
    static uint8_t wide[300][2];
    static double table[301];
    uint16_t answers[300];
    for (uint32_t r = 0; r < 300; r++) {
        wide[r][0] = (uint8_t)(r % 256);
        wide[r][1] = (uint8_t)(r % 2);
        answers[r] = (uint16_t)r;
    }
    for (uint32_t c = 0; c <= 300; c++) {
        table[c] = c == 0 ? 0.0 : (double)c * log2((double)c);
    }
    uint16_t guesses[] = {0, 1};
    const uint32_t ends[] = {300};
    double sums[2];
    uint8_t parts[2];
    assert_int_equal(
        buckets_stats(&wide[0][0], 2, answers, ends, 1, guesses, 2, table, sums, parts), 0);
    assert_int_equal(parts[0], 255);
    assert_true(sums[0] == 44 * table[2]); /* codes 0-43 twice, the rest once */
    assert_int_equal(parts[1], 1);
    assert_true(sums[1] == 2 * table[150]);
}

static void test_gather_copies_the_codes_row_by_row(void **state) {
    (void)state;
    fill(11, 243);
    uint16_t answers[] = {5, 39, 5, 0};
    uint16_t guesses[] = {599, 3, 256};
    uint8_t out[4 * 3];
    buckets_gather(&matrix[0][0], WIDTH, answers, 4, guesses, 3, out);
    for (uint32_t r = 0; r < 4; r++) {
        for (uint32_t k = 0; k < 3; k++) {
            assert_int_equal(out[r * 3 + k], matrix[answers[r]][guesses[k]]);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_guess_over_random_candidates),
        cmocka_unit_test(test_some_guesses_in_any_order),
        cmocka_unit_test(test_one_bucket_and_all_apart),
        cmocka_unit_test(test_refuses_empty_and_oversized_groups),
        cmocka_unit_test(test_groups_are_counted_apart),
        cmocka_unit_test(test_every_code_of_a_byte),
        cmocka_unit_test(test_gather_copies_the_codes_row_by_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
