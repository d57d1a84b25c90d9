/*
 * sim_violation.c - violation texts ("t=12.345 ms: what went wrong").
 * The list is capped so a firmware that repeats one mistake per byte cannot
 * eat the host's memory; the last entry then says how many were dropped.
 */
#include "sim_violation.h"

#include "sim.h"
#include "sim_clock.h"

#include <stdarg.h>
#include <stdio.h>

#define MAX_VIOLATIONS 256u
#define MAX_TEXT 200u

static char texts[MAX_VIOLATIONS][MAX_TEXT];
static size_t recorded;
static size_t dropped;

void sim_violation_reset(void) {
    recorded = 0;
    dropped = 0;
}

void sim_violation(const char *format, ...) {
    va_list args;
    int prefix;

    if (recorded >= MAX_VIOLATIONS - 1u) {
        dropped++;
        snprintf(texts[MAX_VIOLATIONS - 1u], MAX_TEXT, "... and %zu more violations", dropped);
        recorded = MAX_VIOLATIONS;
        return;
    }
    prefix = snprintf(texts[recorded], MAX_TEXT, "t=%.3f ms: ", (double)sim_now() / 1e6);
    va_start(args, format);
    vsnprintf(texts[recorded] + prefix, MAX_TEXT - (size_t)prefix, format, args);
    va_end(args);
    recorded++;
}

size_t sim_violation_count(void) {
    return recorded;
}

const char *sim_violation_text(size_t index) {
    return index < recorded ? texts[index] : NULL;
}
