/* fuzz_link's hand-made seeds (tools/gen/gen_fuzz_seeds.py) replayed through the fuzzer's own
 * harness: each reaches the part of the link it was made for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "fuzz_link.h"

static uint8_t input[16384];

static void replay(const char *name) {
    char path[512];
    FILE *file;
    size_t size;

    snprintf(path, sizeof path, "%s/%s", EPDLE_FUZZ_LINK_SEEDS, name);
    file = fopen(path, "rb");
    assert_non_null(file);
    size = fread(input, 1, sizeof input, file);
    fclose(file);
    assert_true(size > 2u && size < sizeof input);
    assert_int_equal(LLVMFuzzerTestOneInput(input, size), 0);
}

static void a_chunk_is_accepted(void **state) {
    (void)state;
    replay("chunk-accepted.bin");
    assert_true(fuzz_link_reached.chunk_accepted);
    assert_false(fuzz_link_reached.commit_accepted);
}

static void a_set_is_committed(void **state) {
    (void)state;
    replay("commit-accepted.bin");
    assert_true(fuzz_link_reached.chunk_accepted);
    assert_true(fuzz_link_reached.commit_accepted);
}

static void a_resend_is_answered_from_the_copy(void **state) {
    (void)state;
    replay("cached-resend.bin");
    assert_true(fuzz_link_reached.cached_resend);
    assert_true(fuzz_link_reached.commit_accepted);
}

static void a_frame_that_does_not_decode_is_refused_at_commit(void **state) {
    (void)state;
    replay("commit-refused.bin");
    assert_true(fuzz_link_reached.chunk_accepted);
    assert_true(fuzz_link_reached.commit_refused);
    assert_false(fuzz_link_reached.commit_accepted);
}

static void a_chunk_one_byte_short_is_reported_not_taken(void **state) {
    (void)state;
    replay("truncated-chunk.bin");
    assert_true(fuzz_link_reached.bad_packet);
    assert_false(fuzz_link_reached.chunk_accepted);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_chunk_is_accepted),
        cmocka_unit_test(a_set_is_committed),
        cmocka_unit_test(a_resend_is_answered_from_the_copy),
        cmocka_unit_test(a_frame_that_does_not_decode_is_refused_at_commit),
        cmocka_unit_test(a_chunk_one_byte_short_is_reported_not_taken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
