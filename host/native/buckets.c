#include "buckets.h"

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
