/* buckets_stats against a plain count of each guess's codes, over a matrix wider than one
 * block of guesses, with repeated and out-of-order candidates and guesses; the weighted
 * figures, the search node and the look's finishing costs against plain computations. */
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

/* numpy's pairwise sum of a dense row (its algorithm written out plainly). */
static double dense_pairwise(const double *values, uint32_t n) {
    if (n < 8u) {
        double sum = 0.0;
        for (uint32_t i = 0; i < n; i++) {
            sum += values[i];
        }
        return sum;
    }
    if (n <= 128u) {
        double lanes[8];
        memcpy(lanes, values, sizeof lanes);
        uint32_t i = 8;
        for (; i < n - n % 8u; i += 8u) {
            for (uint32_t j = 0; j < 8u; j++) {
                lanes[j] += values[i + j];
            }
        }
        double sum = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                     ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
        for (; i < n; i++) {
            sum += values[i];
        }
        return sum;
    }
    uint32_t half = n / 2u;
    half -= half % 8u;
    return dense_pairwise(values, half) + dense_pairwise(values + half, n - half);
}

static double curve[ROWS + 2];
static double row_weights[ROWS];

static void fill_weights(uint32_t seed) {
    for (uint32_t r = 0; r < ROWS; r++) {
        row_weights[r] = (double)(1u + next_random(&seed) % 1000u) / 997.0;
    }
    for (uint32_t c = 0; c < ROWS + 2; c++) {
        curve[c] = c <= 4u ? (c == 0 ? 0.0 : 2.0 * c - 1.0) : c * (1.75 + 0.2 * log2(c / 4.0));
    }
}

/* One guess's buckets over the rows: sizes and masses by code. */
static void bucket(const uint16_t *answers, const double *weights, uint32_t n, uint16_t guess,
                   uint32_t *sizes, double *masses) {
    memset(sizes, 0, 256 * sizeof *sizes);
    memset(masses, 0, 256 * sizeof *masses);
    for (uint32_t r = 0; r < n; r++) {
        const uint8_t code = matrix[answers[r]][guess];
        sizes[code]++;
        masses[code] += weights[r];
    }
}

static void test_weighted_figures_of_every_guess(void **state) {
    (void)state;
    fill(11, 243);
    fill_weights(5);
    const uint16_t answers[] = {3, 1, 4, 15, 9, 26, 5, 35, 8, 39, 7, 12};
    const uint32_t n = sizeof answers / sizeof answers[0];
    double weights[sizeof answers / sizeof answers[0]];
    for (uint32_t r = 0; r < n; r++) {
        weights[r] = row_weights[r];
    }
    static uint16_t guesses[WIDTH];
    static double mlm[WIDTH], expected[WIDTH];
    for (uint32_t g = 0; g < WIDTH; g++) {
        guesses[g] = (uint16_t)g;
    }
    assert_int_equal(
        buckets_weighted(&matrix[0][0], WIDTH, answers, weights, n, guesses, WIDTH, mlm, expected),
        0);
    for (uint32_t g = 0; g < WIDTH; g++) {
        uint32_t sizes[256];
        double masses[256];
        bucket(answers, weights, n, (uint16_t)g, sizes, masses);
        double want_mlm = 0.0, want_expected = 0.0;
        for (uint32_t c = 0; c < 256; c++) {
            if (sizes[c]) {
                want_mlm += masses[c] * log2(masses[c]);
                want_expected += masses[c] * sizes[c];
            }
        }
        assert_true(fabs(mlm[g] - want_mlm) <= 1e-12);
        assert_true(fabs(expected[g] - want_expected) <= 1e-12);
    }
    assert_int_equal(
        buckets_weighted(&matrix[0][0], WIDTH, answers, weights, 0, guesses, WIDTH, mlm, expected),
        -1);
}

/* The search node: each estimate summed as numpy sums a dense row of 243 bins (by rank
 * below 8 rows), the beam in (estimate, not own, column) order, the guesses telling
 * every row apart. */
static void check_node(const uint16_t *answers, uint32_t n, uint32_t wanted) {
    static uint16_t guesses[WIDTH];
    for (uint32_t g = 0; g < WIDTH; g++) {
        guesses[g] = (uint16_t)g;
    }
    uint16_t own[ROWS];
    double weights[ROWS];
    for (uint32_t r = 0; r < n; r++) {
        own[r] = (uint16_t)(answers[r] * 13u % WIDTH); /* each row's own guess */
        weights[r] = row_weights[r];
    }
    static double want[WIDTH];
    static uint8_t is_own[WIDTH], useful[WIDTH];
    static double own_weight[WIDTH];
    memset(is_own, 0, sizeof is_own);
    memset(own_weight, 0, sizeof own_weight);
    for (uint32_t r = 0; r < n; r++) {
        is_own[own[r]] = 1;
        own_weight[own[r]] = weights[r];
    }
    int32_t apart_own = -1, apart_any = -1;
    uint32_t most = 0;
    for (uint32_t g = 0; g < WIDTH; g++) {
        uint32_t sizes[256];
        double masses[256];
        bucket(answers, weights, n, (uint16_t)g, sizes, masses);
        double terms[243] = {0.0};
        uint32_t count = 0;
        for (uint32_t c = 0; c < 243; c++) {
            if (sizes[c]) {
                terms[n >= 8u ? c : count] = masses[c] * (curve[sizes[c]] / sizes[c]);
                count++;
            }
        }
        want[g] = dense_pairwise(terms, n >= 8u ? 243u : n) - own_weight[g];
        useful[g] = count >= 2u;
        most = count > most ? count : most;
        if (count == n) {
            if (is_own[g] && (apart_own < 0 || own_weight[g] > own_weight[apart_own])) {
                apart_own = (int32_t)g;
            }
            apart_any = apart_any < 0 ? (int32_t)g : apart_any;
        }
    }
    static uint16_t beam[WIDTH], beam_largest[WIDTH];
    static double beam_estimate[WIDTH];
    static uint8_t beam_own[WIDTH];
    uint32_t found = 0;
    int32_t apart[2];
    uint16_t most_parts = 0;
    assert_int_equal(buckets_search_node(&matrix[0][0], WIDTH, answers, weights, own, n, guesses,
                                         WIDTH, curve, 243, wanted, beam, beam_estimate,
                                         beam_largest, beam_own, &found, apart, &most_parts),
                     0);
    assert_int_equal(apart[0], apart_own);
    assert_int_equal(apart[1], apart_any);
    assert_int_equal(most_parts, most);
    /* The beam: the least `wanted` useful guesses by (estimate, not own, column). */
    uint32_t taken = 0;
    static uint8_t used[WIDTH];
    memset(used, 0, sizeof used);
    while (taken < wanted) {
        int32_t best = -1;
        for (uint32_t g = 0; g < WIDTH; g++) {
            if (!useful[g] || used[g]) {
                continue;
            }
            if (best < 0 || want[g] < want[best] ||
                (want[g] == want[best] && is_own[g] && !is_own[best])) {
                best = (int32_t)g;
            }
        }
        if (best < 0) {
            break;
        }
        used[best] = 1;
        assert_true(taken < found);
        assert_int_equal(beam[taken], best);
        assert_true(beam_estimate[taken] == want[best]); /* to the last bit */
        assert_int_equal(beam_own[taken], is_own[best]);
        taken++;
    }
    assert_int_equal(found, taken);
}

static void test_search_node_sums_as_numpy(void **state) {
    (void)state;
    fill(3, 243);
    fill_weights(9);
    const uint16_t many[] = {0, 2, 5, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37, 38};
    check_node(many, sizeof many / sizeof many[0], 40);
    const uint16_t few[] = {1, 6, 10, 33, 34};
    check_node(few, sizeof few / sizeof few[0], 10);
    fill(4, 3); /* few codes: many equal estimates, the ties' order checked */
    check_node(many, sizeof many / sizeof many[0], 60);
}

static void test_finish_takes_the_best_next_guess(void **state) {
    (void)state;
    fill(21, 243);
    fill_weights(2);
    const uint16_t answers[] = {2, 4, 6, 8, 10, 1, 3, 5};
    const uint32_t ends[] = {5, 6, 8};
    const uint16_t guesses[] = {0, 7, 12, 100, 333, 599};
    const uint16_t own[] = {1, 6, 6, 6, 6, 3, 6, 6}; /* rows 0 and 5 are guesses 7 and 100 */
    double weights[8];
    for (uint32_t r = 0; r < 8; r++) {
        weights[r] = row_weights[r];
    }
    double finish[3];
    assert_int_equal(
        buckets_finish(&matrix[0][0], WIDTH, answers, weights, own, ends, 3, guesses, 6, finish),
        0);
    for (uint32_t g = 0; g < 3; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        double mass = 0.0, whole = 0.0;
        for (uint32_t r = start; r < ends[g]; r++) {
            mass += weights[r];
        }
        for (uint32_t r = start; r < ends[g]; r++) {
            whole -= weights[r] / mass * log2(weights[r] / mass);
        }
        double least = INFINITY;
        for (uint32_t k = 0; k < 6; k++) {
            uint32_t sizes[256];
            double masses[256];
            bucket(answers + start, weights + start, ends[g] - start, guesses[k], sizes, masses);
            double bits = 0.0, chance = 0.0;
            for (uint32_t c = 0; c < 256; c++) {
                if (sizes[c]) {
                    bits -= masses[c] / mass * log2(masses[c] / mass);
                }
            }
            for (uint32_t r = start; r < ends[g]; r++) {
                chance += own[r] == k ? weights[r] / mass : 0.0;
            }
            const double missed = fmax(1.0 - chance, 1e-12);
            const double each =
                1.0 + missed * (1.0 + 0.45 * pow(fmax(0.0, whole - bits) / missed, 0.7));
            least = fmin(least, each);
        }
        assert_true(fabs(finish[g] - least) <= 1e-12);
    }
    const uint32_t empty[] = {0, 8};
    assert_int_equal(
        buckets_finish(&matrix[0][0], WIDTH, answers, weights, own, empty, 2, guesses, 6, finish),
        -1);
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
        cmocka_unit_test(test_weighted_figures_of_every_guess),
        cmocka_unit_test(test_search_node_sums_as_numpy),
        cmocka_unit_test(test_finish_takes_the_best_next_guess),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
