/*
 * pic_compiler.h - what differs between the PIC C compilers the chip HALs
 * (ports/pic16f18326/, the gpsim rig's tests/firmware/pic/p16f1788/) are
 * built with. Everything else in them is plain C99 against the register
 * names of <xc.h>.
 *
 *   XC8          <xc.h> is Microchip's; builtins and #pragma config are native.
 *   SDCC pic14   <xc.h> is generated from gputils' .inc by
 *                tools/pic/gen_pic_regs.py --sdcc (tools/pic/build.sh), with the
 *                configuration words of main.c's #pragma config lines.
 *   host (gcc)   <xc.h> is the register-checking stand-in of the host tests.
 *
 * PIC_ISR(name)       defines the interrupt routine
 * PIC_CONFIG_WORDS    places the configuration words (XC8: the pragmas do)
 * PIC_DELAY_8US_IN_LOOP()  8 us with the loop that repeats it (hal_delay_us)
 * NOP() SLEEP() CLRWDT() __delay_us(n) __delay_ms(n)   XC8's builtins; the
 *                     delays take a constant and are never shorter than asked
 *                     at _XTAL_FREQ = 16 MHz (4 instruction cycles a us).
 */
#ifndef EPDLE_PIC_COMPILER_H
#define EPDLE_PIC_COMPILER_H

#include <xc.h>

#if defined(__SDCC_pic14) || defined(SDCC_pic14)

#define PIC_ISR(name) void name(void) __interrupt(0)
/* PIC_CONFIG_WORDS comes with the generated <xc.h>. */

#define NOP() __asm__("nop")
#define SLEEP() __asm__("sleep")
#define CLRWDT() __asm__("clrwdt")

/*
 * Delays as straight assembly, so that their length does not depend on the
 * compiler's register allocation, and inline (no call: the hardware stack is
 * 16 levels). One turn is DECFSZ WREG + GOTO, 3 cycles (WREG sits at 0x09 in
 * every bank of the enhanced core); n turns and the MOVLW take 3 * n cycles.
 * At 16 MHz (4 cycles a us): 1 turn and the loop around it >= 1 us; 255 turns =
 * 765 cycles, 6 of them (4,590) >= 1 ms (5 would be 3,825). Longer delays loop over
 * those blocks: the loop's own instructions only lengthen them.
 */
#define PIC_DELAY_TURNS_1() __asm__("movlw 1\n decfsz 0x09, f\n goto $-1")
/* Eight microseconds (32 cycles) with the caller's loop: 2 turns (6 cycles) and the
 * 26 cycles of hal_delay_us's 16-bit count and compare (SDCC 4.2.0). */
#define PIC_DELAY_8US_IN_LOOP() __asm__("movlw 2\n decfsz 0x09, f\n goto $-1")
#define PIC_DELAY_TURNS_255() __asm__("movlw 255\n decfsz 0x09, f\n goto $-1")
#define PIC_DELAY_MS_BLOCKS 6u

#define __delay_us(us)                                                                             \
    do {                                                                                           \
        uint8_t pic_us_;                                                                           \
        for (pic_us_ = (uint8_t)(us); pic_us_ != 0u; pic_us_--) {                                  \
            PIC_DELAY_TURNS_1();                                                                   \
        }                                                                                          \
    } while (0)
#define __delay_ms(ms)                                                                             \
    do {                                                                                           \
        uint8_t pic_ms_;                                                                           \
        uint8_t pic_blocks_;                                                                       \
        for (pic_ms_ = (uint8_t)(ms); pic_ms_ != 0u; pic_ms_--) {                                  \
            for (pic_blocks_ = PIC_DELAY_MS_BLOCKS; pic_blocks_ != 0u; pic_blocks_--) {            \
                PIC_DELAY_TURNS_255();                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#else /* XC8, and the host stand-in (which defines the builtins as hooks) */

#define PIC_ISR(name) void __interrupt() name(void)
#define PIC_CONFIG_WORDS
/* XC8's delay is exact: the loop's own cycles only lengthen it. */
#define PIC_DELAY_8US_IN_LOOP() __delay_us(8)

#endif

#endif /* EPDLE_PIC_COMPILER_H */
