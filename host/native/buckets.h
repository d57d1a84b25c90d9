/* The feedback buckets of guesses over candidate answers, read from the pattern matrix.
 *
 * The matrix is the solver's cached (answers x guesses) table of feedback codes, one byte
 * each, row by row (the data of its .npy file). For each guess this counts how many of the
 * candidates get each code, and gives what a ranking needs of those bucket sizes: the sum
 * of c * log2(c) over its buckets (from a table the caller computes, so both the Python
 * code and this one read the same values), summed in the order the codes first occur over
 * the candidates as given, and the number of buckets. The entropy of the
 * guess's feedback is log2(n) - sum / n. */
#ifndef EPDLE_BUCKETS_H
#define EPDLE_BUCKETS_H

#include <stdint.h>

/* Candidates one call can count: a bucket's size is a uint16_t. */
#define BUCKETS_MAX_ANSWERS 65535u

/* For each group of rows, answers[ends[g - 1]..ends[g]) (from 0 for the first group), and
 * each guess of guesses[0..count): sums[g * count + i] = the sum of count_log_count[c] over
 * the guess's bucket sizes c; parts[g * count + i] = its number of buckets less one.
 * `answers` are row indexes of the matrix (each below its number of rows, which the caller
 * checks), `guesses` column indexes below `width`; count_log_count holds one more value
 * than the largest group's size. Returns 0, or -1 (nothing written) for an empty group, a
 * group above BUCKETS_MAX_ANSWERS rows or ends out of order, or when no memory is left
 * for the counts. */
int buckets_stats(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                  const uint32_t *ends, uint32_t groups, const uint16_t *guesses, uint32_t count,
                  const double *count_log_count, double *sums, uint8_t *parts);

/* Copies the codes of guesses[0..count) over the rows answers[0..n) into out (n * count
 * bytes, row by row): a smaller matrix whose rows are read whole by buckets_stats, where
 * the guesses lie scattered over the wide rows. */
void buckets_gather(const uint8_t *matrix, uint32_t width, const uint16_t *answers, uint32_t n,
                    const uint16_t *guesses, uint32_t count, uint8_t *out);

#endif
