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

/* The same over candidates of unequal weight: for each guess of guesses[0..count), over the
 * rows answers[0..n) weighing weights[0..n) each (summing to 1 for a distribution), with
 * m a bucket's weight and c its size, summed over its buckets in the order they first
 * occur: mass_log_mass[i] = sum of m * log2(m) (the feedback's entropy is its negative),
 * expected[i] = sum of m * c (the words expected left, the guess itself included).
 * Returns 0, or -1 (nothing written) for no rows, more than BUCKETS_MAX_ANSWERS, or no
 * memory left for the counts. */
int buckets_weighted(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                     const double *weights, uint32_t n, const uint16_t *guesses, uint32_t count,
                     double *mass_log_mass, double *expected);

/* One node of the weighted search (epdle.solver.search.TreeSearch with weights): over the
 * rows answers[0..n) weighing weights[0..n) (own[r]: row r's own guess column), for each
 * guess of guesses[0..count) (sorted) its estimate, the sum over its buckets of
 * m * (curve[c] / c) as numpy sums a row of codes_total bins (pairwise; by rank, plainly,
 * below 8 rows), less its weight if it is a row's own guess. Writes the `wanted` least
 * of the guesses with two feedbacks or more, by (estimate, not own, column), into beam,
 * with their estimates, largest buckets and whether own ([0..*found)); apart[0] the own
 * guess of most weight that tells every row apart (the first of equal ones; -1: none),
 * apart[1] the first guess that does (-1: none); *most_parts the most feedbacks a guess
 * gets. Returns 0, or -1 for no rows, too many, codes_total above 256, or no memory. */
int buckets_search_node(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                        const double *weights, const uint16_t *own, uint32_t n,
                        const uint16_t *guesses, uint32_t count, const double *curve,
                        uint32_t codes_total, uint32_t wanted, uint16_t *beam,
                        double *beam_estimate, uint16_t *beam_largest, uint8_t *beam_own,
                        uint32_t *found, int32_t *apart, uint16_t *most_parts);

/* The look one guess ahead under unequal weights: for each group of rows (a first guess's
 * feedback bucket), answers[ends[g - 1]..ends[g]) weighing weights[..] (own[r]: the
 * position in guesses of row r's own word, count or more if none), the least over the
 * guesses[0..count) of the estimate's cost to finish the group after that guess: with
 * m the group's weight, U the entropy of its rows' weights, b that of the guess's
 * feedback over them, p the chance the guess is the answer (its row's weight over m),
 * 1 + max(1 - p, 1e-12) * (1 + 0.45 * (max(0, U - b) / max(1 - p, 1e-12)) ** 0.7), into
 * finish[g]. Returns 0, or -1 for an empty or too large group, or no memory. */
int buckets_finish(const uint8_t *matrix, uint32_t width, const uint16_t *answers,
                   const double *weights, const uint16_t *own, const uint32_t *ends,
                   uint32_t groups, const uint16_t *guesses, uint32_t count, double *finish);

#endif
