/*
 * sdcc_pic14_fnptr.c - minimal reproducer of an SDCC 4.2.0 pic14 code
 * generation bug (make pic-test builds and runs it in gpsim on the 16F1788).
 *
 * pic14 passes the first (most significant) byte of a call's arguments in W.
 * For a call through a function pointer SDCC emits CALL to a local thunk
 * that loads PCLATH and then PCL from the pointer, both through W: the
 * callee starts with the pointer's low byte in W instead of its argument.
 * A `void *` argument loses its tag byte (the generic pointer's address
 * space), a uint8_t argument its whole value.
 *
 * Expected: via_pointer == direct == 0x5A. SDCC 4.2.0: via_pointer is the
 * low byte of identity()'s address.
 */
#include <stdint.h>

typedef uint8_t (*byte_fn_t)(uint8_t value);

uint8_t identity(uint8_t value) {
    return value;
}

byte_fn_t byte_fn;
volatile uint8_t direct;
volatile uint8_t via_pointer;

void done(void) {}

void main(void) {
    byte_fn = identity;
    direct = identity(0x5Au);
    via_pointer = byte_fn(0x5Au);
    done();
    for (;;) {
    }
}
