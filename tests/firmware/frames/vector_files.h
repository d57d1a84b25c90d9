/*
 * vector_files.h - the shared frame vectors (tests/vectors/frames), read
 * from disk for the C tests.
 */
#ifndef EPDLE_TEST_VECTOR_FILES_H
#define EPDLE_TEST_VECTOR_FILES_H

#include <stddef.h>
#include <stdint.h>

#define VECTOR_NAME_MAX 64
#define VECTOR_MAX 64

typedef struct {
    char name[VECTOR_NAME_MAX];
    int status; /* frame_status_t expected */
} vector_entry_t;

/* Entries of manifest.txt; returns how many (fails the test on a bad manifest). */
size_t vector_manifest(vector_entry_t *entries, size_t max);

/* Whole file NAME.SUFFIX of the vector directory, malloc'd; *size set. */
uint8_t *vector_read(const char *name, const char *suffix, size_t *size);

#endif
