/*
 * pic_spi.h - the bit-banged SPI byte of the panel's bus, as register writes:
 * EPD_SCL on RC0, EPD_SDA on RC2, EPD_CS on RC4 (hardware/pins.csv). One
 * macro for the chip's HAL and the gpsim HAL of the 16F1788 (whose LATC is
 * the same), so the cycles measured in gpsim are the chip's code; and the
 * pin writes of the panel's LATC pins (EPD_DC on RC5, EPD_RST on RC3 too).
 */
#ifndef EPDLE_PIC_SPI_H
#define EPDLE_PIC_SPI_H

/*
 * One bit: SDA cleared, set again if the bit is 1 (a glitch while SCL is low,
 * which mode 0 ignores), then an SCL pulse: five instructions (BCF, BTFSC,
 * BSF, BSF, BCF) where hal_pin_write() would cost a call and a switch a pin.
 */
#define SPI_BIT(byte, mask)                                                                        \
    do {                                                                                           \
        LATCbits.LATC2 = 0;                                                                        \
        if (((byte) & (mask)) != 0u) {                                                             \
            LATCbits.LATC2 = 1;                                                                    \
        }                                                                                          \
        LATCbits.LATC0 = 1;                                                                        \
        LATCbits.LATC0 = 0;                                                                        \
    } while (0)

#if defined(__SDCC_pic14) || defined(SDCC_pic14)
/*
 * SDCC puts a BANKSEL before every access to the byte and to LATC (about 10
 * cycles a bit). The same five instructions a bit as straight assembly: the
 * byte in WREG, which the enhanced core maps at 0x09 in every bank, so the
 * bit tests need no bank switch, and LATC (0x10E) reached as 0x0E in bank 2.
 * 45 cycles a frame. Leaves BSR at 2; SDCC re-selects banks after inline asm.
 */
#define SPI_BIT_W(bit)                                                                             \
    "bcf 0x0E, 2\n btfsc 0x09, " #bit "\n bsf 0x0E, 2\n bsf 0x0E, 0\n bcf 0x0E, 0\n"
#define SPI_FRAME(byte)                                                                            \
    do {                                                                                           \
        WREG = (byte);                                                                             \
        __asm__("movlb 2\n bcf 0x0E, 4\n" SPI_BIT_W(7) SPI_BIT_W(6) SPI_BIT_W(5) SPI_BIT_W(4)      \
                    SPI_BIT_W(3) SPI_BIT_W(2) SPI_BIT_W(1) SPI_BIT_W(0) "bsf 0x0E, 4");            \
    } while (0)
#else
#define SPI_FRAME(byte)                                                                            \
    do {                                                                                           \
        LATCbits.LATC4 = 0; /* EPD_CS */                                                           \
        SPI_BIT(byte, 0x80u);                                                                      \
        SPI_BIT(byte, 0x40u);                                                                      \
        SPI_BIT(byte, 0x20u);                                                                      \
        SPI_BIT(byte, 0x10u);                                                                      \
        SPI_BIT(byte, 0x08u);                                                                      \
        SPI_BIT(byte, 0x04u);                                                                      \
        SPI_BIT(byte, 0x02u);                                                                      \
        SPI_BIT(byte, 0x01u);                                                                      \
        LATCbits.LATC4 = 1;                                                                        \
    } while (0)
#endif

/*
 * The panel bus's other LATC pins as the cases of hal_pin_write()'s switch on
 * the pin, `bit` 0 or 1: the same five in both HALs. EPD_PWR stays each HAL's
 * own case (the 16F1788 test board has no BUSY handover).
 */
#define PIC_PANEL_LATC_CASES(bit)                                                                  \
    case HAL_PIN_EPD_SCL:                                                                          \
        LATCbits.LATC0 = (bit);                                                                    \
        break;                                                                                     \
    case HAL_PIN_EPD_SDA:                                                                          \
        LATCbits.LATC2 = (bit);                                                                    \
        break;                                                                                     \
    case HAL_PIN_EPD_CS:                                                                           \
        LATCbits.LATC4 = (bit);                                                                    \
        break;                                                                                     \
    case HAL_PIN_EPD_DC:                                                                           \
        LATCbits.LATC5 = (bit);                                                                    \
        break;                                                                                     \
    case HAL_PIN_EPD_RST:                                                                          \
        LATCbits.LATC3 = (bit);                                                                    \
        break;

#endif /* EPDLE_PIC_SPI_H */
