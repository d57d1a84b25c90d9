#include "buckets.h"

#include <math.h>
#include <stdlib.h>

/* Guesses counted in one pass over the candidates' rows: their counts stay in the CPU's
 * first-level cache while each row is read once per block. */
#define BLOCK 64u
#define CODES 256u
/* Rows fetched ahead of the one counted: the rows lie far apart in the matrix. */
#define AHEAD 4u

/* One block's counts: each guess's bucket sizes by code, and its codes in the order they
 * first occur (so that only those are summed, and reset). Each code is written to the
 * next place in `seen` and kept only if new: once all 256 have come, that place is the
 * one past them. */
struct counts {
    uint16_t sizes[BLOCK][CODES];
    uint8_t seen[BLOCK][CODES + 1];
    uint16_t distinct[BLOCK];
};

/* One group's figures, every guess a block at a time. */
static void group_stats(const uint8_t *matrix, uint32_t width, const uint16_t *answers, uint32_t n,
                        const uint16_t *guesses, uint32_t count, const double *count_log_count,
                        double *sums, uint8_t *parts, struct counts *counts) {
    for (uint32_t first = 0; first < count; first += BLOCK) {
        const uint32_t block = count - first < BLOCK ? count - first : BLOCK;
        const uint16_t *columns = guesses + first;
        for (uint32_t r = 0; r < n; r++) {
            if (r + AHEAD < n) {
                __builtin_prefetch(matrix + (size_t)answers[r + AHEAD] * width + columns[0]);
            }
            const uint8_t *row = matrix + (size_t)answers[r] * width;
            for (uint32_t k = 0; k < block; k++) {
                const uint8_t code = row[columns[k]];
                /* Without a branch: a new code's turn to be kept is rarely predictable. */
                counts->seen[k][counts->distinct[k]] = code;
                counts->distinct[k] += counts->sizes[k][code]++ == 0;
            }
        }
        for (uint32_t k = 0; k < block; k++) {
            double sum = 0.0;
            for (uint32_t i = 0; i < counts->distinct[k]; i++) {
                const uint8_t code = counts->seen[k][i];
                sum += count_log_count[counts->sizes[k][code]];
                counts->sizes[k][code] = 0;
            }
            sums[first + k] = sum;
            parts[first + k] = (uint8_t)(counts->distinct[k] - 1u);
            counts->distinct[k] = 0;
        }
    }
}

int buckets_stats(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                  const uint32_t *ends, uint32_t groups, const uint16_t *guesses, uint32_t count,
                  const double *count_log_count, double *sums, uint8_t *parts) {
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        if (ends[g] <= start || ends[g] - start > BUCKETS_MAX_ANSWERS) {
            return -1;
        }
    }
    struct counts *counts = calloc(1, sizeof *counts); /* all zero between groups too */
    if (counts == NULL) {
        return -1;
    }
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        group_stats(matrix, width, answers + start, ends[g] - start, guesses, count,
                    count_log_count, sums + (size_t)g * count, parts + (size_t)g * count, counts);
    }
    free(counts);
    return 0;
}

void buckets_gather(const uint8_t *matrix, uint32_t width, const uint16_t *answers, uint32_t n,
                    const uint16_t *guesses, uint32_t count, uint8_t *out) {
    for (uint32_t r = 0; r < n; r++) {
        const uint8_t *row = matrix + (size_t)answers[r] * width;
        uint8_t *into = out + (size_t)r * count;
        for (uint32_t k = 0; k < count; k++) {
            into[k] = row[guesses[k]];
        }
    }
}

/* One block's weighted counts: each guess's bucket masses and sizes by code. */
struct masses {
    double mass[BLOCK][CODES];
    uint16_t sizes[BLOCK][CODES];
    uint8_t seen[BLOCK][CODES + 1];
    uint16_t distinct[BLOCK];
};

/* Adds rows from..to of the weighted candidates into one block's counts: for each of the
 * block's guesses, each code's mass and size, and the codes in the order first seen. The
 * caller reads them and sets them back to zero. */
static void count_block(struct masses *counts, const uint8_t *matrix, uint32_t width,
                        const uint16_t *answers, const double *weights, uint32_t from, uint32_t to,
                        const uint16_t *columns, uint32_t block) {
    for (uint32_t r = from; r < to; r++) {
        if (r + AHEAD < to) {
            __builtin_prefetch(matrix + (size_t)answers[r + AHEAD] * width + columns[0]);
        }
        const uint8_t *row = matrix + (size_t)answers[r] * width;
        const double weight = weights[r];
        for (uint32_t k = 0; k < block; k++) {
            const uint8_t code = row[columns[k]];
            counts->seen[k][counts->distinct[k]] = code;
            counts->distinct[k] += counts->sizes[k][code]++ == 0;
            counts->mass[k][code] += weight;
        }
    }
}

int buckets_weighted(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                     const double *weights, uint32_t n, const uint16_t *guesses, uint32_t count,
                     double *mass_log_mass, double *expected) {
    if (n == 0 || n > BUCKETS_MAX_ANSWERS) {
        return -1;
    }
    struct masses *counts = calloc(1, sizeof *counts);
    if (counts == NULL) {
        return -1;
    }
    for (uint32_t first = 0; first < count; first += BLOCK) {
        const uint32_t block = count - first < BLOCK ? count - first : BLOCK;
        const uint16_t *columns = guesses + first;
        count_block(counts, matrix, width, answers, weights, 0, n, columns, block);
        for (uint32_t k = 0; k < block; k++) {
            double entropy = 0.0, left = 0.0;
            for (uint32_t i = 0; i < counts->distinct[k]; i++) {
                const uint8_t code = counts->seen[k][i];
                const double mass = counts->mass[k][code];
                if (mass > 0.0) {
                    entropy += mass * log2(mass);
                }
                left += mass * counts->sizes[k][code];
                counts->sizes[k][code] = 0;
                counts->mass[k][code] = 0.0;
            }
            mass_log_mass[first + k] = entropy;
            expected[first + k] = left;
            counts->distinct[k] = 0;
        }
    }
    free(counts);
    return 0;
}

/* numpy's pairwise sum of a row of `total` values, of which only those at the sorted
 * positions at[0..count) are not zero (zeros leave a sum as it is): the same additions
 * in the same order, so the same double. */
static double pairwise(const uint16_t *at, const double *values, uint32_t count, uint32_t lo,
                       uint32_t total) {
    /* The entries in [lo, lo + total). */
    uint32_t first = 0;
    while (first < count && at[first] < lo) {
        first++;
    }
    uint32_t end = first;
    while (end < count && at[end] < lo + total) {
        end++;
    }
    if (total < 8u) {
        double sum = 0.0;
        for (uint32_t i = first; i < end; i++) {
            sum += values[i];
        }
        return sum;
    }
    if (total <= 128u) {
        double lanes[8] = {0.0};
        const uint32_t whole = total - total % 8u;
        uint32_t i = first;
        for (; i < end && at[i] < lo + whole; i++) {
            lanes[(at[i] - lo) % 8u] += values[i];
        }
        double sum = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                     ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
        for (; i < end; i++) {
            sum += values[i];
        }
        return sum;
    }
    uint32_t half = total / 2u;
    half -= half % 8u;
    return pairwise(at + first, values + first, end - first, lo, half) +
           pairwise(at + first, values + first, end - first, lo + half, total - half);
}

int buckets_search_node(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                        const double *weights, const uint16_t *own, uint32_t n,
                        const uint16_t *guesses, uint32_t count, const double *curve,
                        uint32_t codes_total, uint32_t wanted, uint16_t *beam,
                        double *beam_estimate, uint16_t *beam_largest, uint8_t *beam_own,
                        uint32_t *found, int32_t *apart, uint16_t *most_parts) {
    if (n == 0 || n > BUCKETS_MAX_ANSWERS || codes_total > CODES) {
        return -1;
    }
    struct masses *counts = calloc(1, sizeof *counts);
    double *own_weight = calloc(count, sizeof *own_weight);
    uint8_t *is_own = calloc(count, 1);
    if (counts == NULL || own_weight == NULL || is_own == NULL) {
        free(counts);
        free(own_weight);
        free(is_own);
        return -1;
    }
    /* Each candidate's own column among the guesses (sorted), and its weight there. */
    for (uint32_t r = 0; r < n; r++) {
        uint32_t low = 0, high = count;
        while (low < high) {
            const uint32_t middle = (low + high) / 2u;
            if (guesses[middle] < own[r]) {
                low = middle + 1u;
            } else {
                high = middle;
            }
        }
        if (low < count && guesses[low] == own[r]) {
            is_own[low] = 1;
            own_weight[low] = weights[r];
        }
    }
    uint32_t kept = 0;
    int32_t apart_own = -1, apart_any = -1;
    uint16_t most = 0;
    uint16_t at[CODES];
    double terms[CODES];
    for (uint32_t first = 0; first < count; first += BLOCK) {
        const uint32_t block = count - first < BLOCK ? count - first : BLOCK;
        const uint16_t *columns = guesses + first;
        count_block(counts, matrix, width, answers, weights, 0, n, columns, block);
        for (uint32_t k = 0; k < block; k++) {
            const uint32_t g = first + k;
            const uint16_t distinct = counts->distinct[k];
            uint16_t largest = 0;
            /* The codes in order (few: insertion), each bucket's term. */
            for (uint32_t i = 0; i < distinct; i++) {
                const uint8_t code = counts->seen[k][i];
                uint32_t j = i;
                while (j > 0 && at[j - 1] > code) {
                    at[j] = at[j - 1];
                    j--;
                }
                at[j] = code;
            }
            for (uint32_t i = 0; i < distinct; i++) {
                const uint16_t size = counts->sizes[k][at[i]];
                terms[i] = counts->mass[k][at[i]] * (curve[size] / size);
                largest = size > largest ? size : largest;
                counts->sizes[k][at[i]] = 0;
                counts->mass[k][at[i]] = 0.0;
            }
            counts->distinct[k] = 0;
            most = distinct > most ? distinct : most;
            if (distinct == n) {
                if (is_own[g] && (apart_own < 0 || own_weight[g] > own_weight[apart_own])) {
                    apart_own = (int32_t)g;
                }
                if (apart_any < 0) {
                    apart_any = (int32_t)g;
                }
            }
            if (distinct < 2u || wanted == 0) {
                continue; /* one feedback tells nothing: never in the beam */
            }
            /* Below 8 candidates the buckets are numbered by rank: a plain sum. */
            double estimate = 0.0;
            if (n >= 8u) {
                estimate = pairwise(at, terms, distinct, 0, codes_total);
            } else {
                for (uint32_t i = 0; i < distinct; i++) {
                    estimate += terms[i];
                }
            }
            estimate -= own_weight[g];
            /* Kept: the `wanted` least (estimate, not own, column) so far, in order. */
            if (kept == wanted) {
                const uint32_t last = wanted - 1u;
                if (estimate > beam_estimate[last] ||
                    (estimate == beam_estimate[last] && !is_own[g] >= !beam_own[last])) {
                    continue;
                }
                kept--;
            }
            uint32_t j = kept;
            while (j > 0 && (estimate < beam_estimate[j - 1] ||
                             (estimate == beam_estimate[j - 1] && is_own[g] && !beam_own[j - 1]))) {
                beam[j] = beam[j - 1];
                beam_estimate[j] = beam_estimate[j - 1];
                beam_largest[j] = beam_largest[j - 1];
                beam_own[j] = beam_own[j - 1];
                j--;
            }
            beam[j] = (uint16_t)g;
            beam_estimate[j] = estimate;
            beam_largest[j] = largest;
            beam_own[j] = is_own[g];
            kept++;
        }
    }
    *found = kept;
    apart[0] = apart_own;
    apart[1] = apart_any;
    *most_parts = most;
    free(counts);
    free(own_weight);
    free(is_own);
    return 0;
}

int buckets_finish(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                   const double *weights, const uint16_t *own, const uint32_t *ends,
                   uint32_t groups, const uint16_t *guesses, uint32_t count, double *finish) {
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        if (ends[g] <= start || ends[g] - start > BUCKETS_MAX_ANSWERS) {
            return -1;
        }
    }
    struct masses *counts = calloc(1, sizeof *counts);
    double *own_weight = calloc(count, sizeof *own_weight);
    if (counts == NULL || own_weight == NULL) {
        free(counts);
        free(own_weight);
        return -1;
    }
    for (uint32_t g = 0; g < groups; g++) {
        const uint32_t start = g == 0 ? 0 : ends[g - 1];
        double mass = 0.0;
        for (uint32_t r = start; r < ends[g]; r++) {
            mass += weights[r];
        }
        double whole = 0.0;
        for (uint32_t r = start; r < ends[g]; r++) {
            const double within = weights[r] / mass;
            whole -= within * log2(within);
            if (own[r] < count) {
                own_weight[own[r]] = weights[r];
            }
        }
        double least = INFINITY;
        for (uint32_t first = 0; first < count; first += BLOCK) {
            const uint32_t block = count - first < BLOCK ? count - first : BLOCK;
            const uint16_t *columns = guesses + first;
            count_block(counts, matrix, width, answers, weights, start, ends[g], columns, block);
            for (uint32_t k = 0; k < block; k++) {
                double bits = 0.0;
                for (uint32_t i = 0; i < counts->distinct[k]; i++) {
                    const uint8_t code = counts->seen[k][i];
                    const double share = counts->mass[k][code] / mass;
                    bits -= share * log2(share);
                    counts->sizes[k][code] = 0;
                    counts->mass[k][code] = 0.0;
                }
                counts->distinct[k] = 0;
                const double chance = own_weight[first + k] / mass;
                const double missed = 1.0 - chance > 1e-12 ? 1.0 - chance : 1e-12;
                const double left = whole - bits > 0.0 ? (whole - bits) / missed : 0.0;
                const double each = 1.0 + missed * (1.0 + 0.45 * pow(left, 0.7));
                least = each < least ? each : least;
            }
        }
        for (uint32_t r = start; r < ends[g]; r++) {
            if (own[r] < count) {
                own_weight[own[r]] = 0.0;
            }
        }
        finish[g] = least;
    }
    free(counts);
    free(own_weight);
    return 0;
}
