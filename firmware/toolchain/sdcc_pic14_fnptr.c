/*
 * sdcc_pic14_fnptr.c - minimal reproducer of an SDCC 4.2.0 pic14 code
 * generation bug (make pic-test builds it for the 16F1788 and runs it in
 * gpsim; firmware/toolchain/README.md).
 *
 * pic14 passes a call's arguments in W (the first, most significant byte)
 * and STK00, STK01, ... (the rest). For a call through a function pointer
 * SDCC 4.2.0 computes the arguments but never loads them into W and the STK
 * registers; it CALLs a local thunk that loads PCLATH and PCL from the
 * pointer through W, so the callee finds the pointer's low byte in W.
 * Worse, the argument bytes stay counted: the next call in the same
 * function gets them in front of its own, every real argument shifted.
 *
 * Expected: 0x5A, 0x5A, 0xA5, 0xA5. SDCC 4.2.0: first() through the pointer
 * returns the low byte of its own address, and second(0x11, 0xA5), called
 * directly right after, returns 0x11: it was passed (0x5A, 0x11, 0xA5).
 */
#include <stdint.h>

typedef uint8_t (*one_arg_t)(uint8_t value);
typedef uint8_t (*two_args_t)(uint8_t a, uint8_t b);

uint8_t first(uint8_t value) {
    return value;
}

uint8_t second(uint8_t a, uint8_t b) {
    (void)a;
    return b;
}

one_arg_t one_fn;
two_args_t two_fn;
volatile uint8_t direct_first;
volatile uint8_t via_pointer_first;
volatile uint8_t direct_second;
volatile uint8_t via_pointer_second;

void done(void) {}

void main(void) {
    one_fn = first;
    two_fn = second;
    direct_first = first(0x5Au);
    via_pointer_first = one_fn(0x5Au);
    direct_second = second(0x11u, 0xA5u);
    via_pointer_second = two_fn(0x11u, 0xA5u);
    done();
    for (;;) {
    }
}
