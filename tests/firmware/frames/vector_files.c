/*
 * vector_files.c - reading the shared frame vectors for the C tests.
 */
#include "vector_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

size_t vector_manifest(vector_entry_t *entries, size_t max) {
    FILE *manifest = fopen(FRAME_VECTOR_DIR "/manifest.txt", "r");
    size_t count = 0;

    assert_non_null(manifest);
    while (count < max &&
           fscanf(manifest, "%63s %d", entries[count].name, &entries[count].status) == 2) {
        count++;
    }
    assert_true(feof(manifest));
    fclose(manifest);
    return count;
}

uint8_t *vector_read(const char *name, const char *suffix, size_t *size) {
    char path[512];
    FILE *file;
    uint8_t *data;
    long length;

    snprintf(path, sizeof path, "%s/%s.%s", FRAME_VECTOR_DIR, name, suffix);
    file = fopen(path, "rb");
    assert_non_null(file);
    assert_int_equal(fseek(file, 0, SEEK_END), 0);
    length = ftell(file);
    assert_true(length >= 0);
    rewind(file);
    data = malloc((size_t)length + 1u);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)length, file), (size_t)length);
    fclose(file);
    *size = (size_t)length;
    return data;
}
