/*
 * hal_pic.c - hal.h on the PIC16F18326, written against XC8's register names.
 * On the host the generated stand-in for <xc.h> (tools/pic/gen_pic_regs.py) checks
 * every name against the vendor register map; SDCC (make pic) gets its own
 * generated <xc.h>. What differs between compilers is in pic_compiler.h.
 *
 * Pins (hardware/pins.csv):
 *   RA0 ICSPDAT (unused, driven low)   RC0 EPD_SCL
 *   RA1 UART_RX via RXPPS (IOC falling    RC1 UART_TX via RC1PPS
 *       in SLEEP), and ICSPCLK
 *   RA2 EPD_PWR                         RC2 EPD_SDA
 *   RA3 MCLR (ICSP VPP)                 RC3 EPD_RST
 *   RA4 EPD_BUSY (IOC rising, refresh)  RC4 EPD_CS
 *   RA5 BUTTON (pull-up, IOC falling)   RC5 EPD_DC
 */
#include "hal.h"

#include "pic_compiler.h"
#include "pic_spi.h"

#define _XTAL_FREQ 16000000UL
HAL_STATIC_ASSERT(xtal_is_the_hal_clock, _XTAL_FREQ == HAL_FOSC_HZ);

/* EUSART at 115200 Bd: BRG16 = BRGH = 1, Fosc / (4 * (n + 1)) = 114286 Bd (-0.8 %). */
#define BAUD_DIVISOR 34u
/* HFINTOSC at 16 MHz (OSCFRQ.HFFRQ = 0101), taken as it is (OSCCON1: NOSC = 110, NDIV = 1:1):
 * RSTOSC = HFINT1 starts the chip at 1 MHz, legal at any VDD the brown-out reset lets
 * through, and the clock is raised once, here. */
#define OSCFRQ_16MHZ 0x05u
#define OSCCON1_HFINTOSC_DIV1 0x60u
/* PPS codes of this chip: input RA1 = port A (00), pin 1; output 0b10100 = TX/CK. */
#define PPS_INPUT_RA1 0x01u
#define PPS_OUTPUT_TX 0x14u

/* Bounds of the hardware waits, in polls of about 1 us. */
#define TX_READY_POLLS 100u  /* one byte at 115200 Bd is 87 us */
#define WAKE_CHAR_POLLS 100u /* the rest of the wake-up character */
#define TX_DRAIN_POLLS 200u  /* a byte in TX1REG plus one in the shift register */

/* WDTCON: WDTPS = 00101, 1:1024 of the 31 kHz LFINTOSC = HAL_SLEEP_PERIOD_MS
 * (32 ms nominal); SWDTEN off until the SLEEP. Awake: WDTPS = 10000, 1:2^21 =
 * HAL_WATCHDOG_AWAKE_MS (64 s nominal), SWDTEN on. */
#define WDT_PERIOD_32MS (0x05u << _WDTCON_WDTPS0_POSN)
#define WDT_AWAKE (((uint8_t)(0x10u << _WDTCON_WDTPS0_POSN)) | _WDTCON_SWDTEN_MASK)
/* WDTPS = 01010, 1:32768 = HAL_SLEEP_LONG_MS (1 s nominal); SWDTEN set for the SLEEP. */
#define WDT_PERIOD_1S (0x0Au << _WDTCON_WDTPS0_POSN)

/* VDD against the FVR (DS40001839, "Fixed Voltage Reference", "Analog-to-Digital
 * Converter"): FVR buffer 1 at 1x (ADFVR = 01, 1.024 V); the ADC's positive channel
 * CHS = 111111 (FVR buffer 1), right justified (ADRESH:ADRESL, 10 bits), TAD = Fosc/16
 * = 1 us, references VDD and VSS. Once FVRRDY is set the FVR still needs TFVRS (25 us) to
 * settle (also the ADC's acquisition time after the channel is chosen); a conversion takes
 * about 12 TAD. */
#define FVR_1X_ON (_FVRCON_FVREN_MASK | _FVRCON_ADFVR0_MASK)
#define ADC_CHANNEL_FVR (0x3Fu << _ADCON0_CHS0_POSN)
#define ADC_RIGHT_FOSC_16 (_ADCON1_ADFM_MASK | _ADCON1_ADCS2_MASK | _ADCON1_ADCS0_MASK)
#define FVR_SETTLE_US 25u
#define FVR_READY_POLLS 100u /* of at least 1 us */
#define ADC_POLLS 255u       /* of about 6 cycles, 380 us: a conversion is about 12 us */
/* The brown-out reset's circuit after a wake (BORRDY), in polls of at least 1 us: the
 * hardware holds the wake-up until it is ready (BOREN = SLEEP), this bounds the look. */
#define BOR_READY_POLLS 100u
/* An EEPROM erase and write, about 4 ms (T_DEW typ): polls of 100 us, 10 ms at most. */
#define EEPROM_WRITE_POLLS 100u
#define EEPROM_POLL_US 100u
/* NVMADR of EEPROM byte 0 with NVMREGS = 1. */
#define EEPROM_NVM_HIGH 0xF0u

/* Power of two (indexes wrap by masking), and large enough for most of a packet: the
 * CPU may be busy for milliseconds (a packet's CRC, a flash row) while bytes arrive. */
#define RX_RING_SIZE 64u

/* Polls and ring indexes are 8-bit counters. */
HAL_STATIC_ASSERT(polls_fit_u8, TX_READY_POLLS <= 0xFFu && WAKE_CHAR_POLLS <= 0xFFu &&
                                    TX_DRAIN_POLLS <= 0xFFu && ADC_POLLS <= 0xFFu &&
                                    FVR_READY_POLLS <= 0xFFu && BOR_READY_POLLS <= 0xFFu &&
                                    EEPROM_WRITE_POLLS <= 0xFFu);
HAL_STATIC_ASSERT(ring_power_of_two,
                  (RX_RING_SIZE & (RX_RING_SIZE - 1u)) == 0u && RX_RING_SIZE <= 0x80u);

static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint8_t rx_head;
static volatile uint8_t rx_tail;
static volatile uint8_t uart_errors;
static volatile bool button_edge;

/* BORRDY after a start or a wake-up (the hardware already waited for it), bounded. */
static void bor_ready_wait(void) {
    uint8_t polls;

    for (polls = 0u; !BORCONbits.BORRDY && polls < BOR_READY_POLLS; polls++) {
        __delay_us(1);
    }
}

void hal_init(void) {
    INTCONbits.GIE = 0;
    rx_head = 0u;
    rx_tail = 0u;
    uart_errors = 0u;
    button_edge = false;

    /* The divider first (HFINTOSC at its reset frequency, 4 MHz: never above 16 MHz), then
     * the frequency. */
    OSCCON1 = OSCCON1_HFINTOSC_DIV1;
    OSCFRQ = OSCFRQ_16MHZ;
    /* Low-power regulator in SLEEP: the standby current is the whole budget. That sleep
     * is meant to be woken by BOR, the WDT and interrupt-on-change only (DS40001839,
     * "Peripheral Usage in Sleep"), not by the EUSART: a start bit wakes the CPU
     * through IOC on RX, armed for each SLEEP (uart_wake_arm()). */
    VREGCONbits.VREGPM = 1;

    /* Every panel pin low and the panel unpowered; BUSY is driven low too while
     * the panel is off (an unpowered panel does not drive it; no pin floats). */
    LATA = 0x00u;
    LATC = 0x00u;
    ANSELA = 0x00u;
    ANSELC = 0x00u;
    TRISA = _TRISA_TRISA1_MASK | _TRISA_TRISA5_MASK;
    TRISC = 0x00u;
    /* Pull-ups on the button and on RX (no host attached must not wake us). */
    WPUA = _WPUA_WPUA1_MASK | _WPUA_WPUA5_MASK;
    WPUC = 0x00u;

    IOCAP = 0x00u;
    IOCAN = _IOCAN_IOCAN5_MASK;
    IOCAF = 0x00u;
    PIE0 = _PIE0_IOCIE_MASK;

    RXPPS = PPS_INPUT_RA1;
    RC1PPS = PPS_OUTPUT_TX;
    SP1BRGH = 0x00u;
    SP1BRGL = BAUD_DIVISOR;
    BAUD1CON = _BAUD1CON_BRG16_MASK;
    TX1STA = _TX1STA_TXEN_MASK | _TX1STA_BRGH_MASK;
    RC1STA = _RC1STA_SPEN_MASK | _RC1STA_CREN_MASK;
    PIE1 = _PIE1_RCIE_MASK;

    /* Peripheral interrupts on; GIE waits for hal_irq_enable(). */
    INTCON = _INTCON_PEIE_MASK;

    /* The watchdog while awake (the main loop clears it). The brown-out reset runs whenever
     * the CPU does (BOREN = SLEEP): the hardware holds every start and wake-up until it is
     * ready; the look here is bounded. */
    WDTCON = WDT_AWAKE;
    bor_ready_wait();
}

/* The LATC bit of a panel output, worked out in code: a table would be read through
 * a generic pointer (a call a byte under SDCC pic14). A pin write is rare: SPI frames
 * write LATC themselves (pic_spi.h). */
void hal_pin_write(hal_pin_t pin, uint8_t level) {
    uint8_t mask = _LATC_LATC0_MASK; /* EPD_SCL */

    if (pin == HAL_PIN_EPD_PWR) {
        if (level != 0u) {
            TRISAbits.TRISA4 = 1; /* let the panel drive BUSY */
            LATAbits.LATA2 = 1;
        } else {
            LATAbits.LATA2 = 0;
            LATAbits.LATA4 = 0;
            TRISAbits.TRISA4 = 0;
        }
        return;
    }
    if (pin > HAL_PIN_EPD_RST) {
        return;
    }
    if (pin == HAL_PIN_EPD_SDA) {
        mask = _LATC_LATC2_MASK;
    } else if (pin == HAL_PIN_EPD_CS) {
        mask = _LATC_LATC4_MASK;
    } else if (pin == HAL_PIN_EPD_DC) {
        mask = _LATC_LATC5_MASK;
    } else if (pin == HAL_PIN_EPD_RST) {
        mask = _LATC_LATC3_MASK;
    }
    if (level != 0u) {
        LATC |= mask;
    } else {
        LATC &= (uint8_t)~mask;
    }
}

void hal_spi_write(uint8_t byte) {
    SPI_FRAME(byte);
}

/* The frame written out in the loop: a call a byte would cost about as much as the frame. */
void hal_spi_repeat(uint8_t byte, uint16_t count) {
    for (; count != 0u; count--) {
        SPI_FRAME(byte);
    }
}

uint8_t hal_pin_read(hal_pin_t pin) {
    switch (pin) {
    case HAL_PIN_EPD_BUSY:
        return PORTAbits.RA4;
    case HAL_PIN_BUTTON:
        return PORTAbits.RA5;
    case HAL_PIN_EPD_SCL:
        return LATCbits.LATC0;
    case HAL_PIN_EPD_SDA:
        return LATCbits.LATC2;
    case HAL_PIN_EPD_CS:
        return LATCbits.LATC4;
    case HAL_PIN_EPD_DC:
        return LATCbits.LATC5;
    case HAL_PIN_EPD_RST:
        return LATCbits.LATC3;
    case HAL_PIN_EPD_PWR:
        return LATAbits.LATA2;
    default:
        return 0u;
    }
}

/*
 * Eight microseconds a pass, then one at a time: a 1 us delay with a 16-bit count around
 * it took 3 us a microsecond under SDCC (the link's 1.5 s awake window lasted 5.5 s on the
 * PIC16F18326 model). Never shorter than asked.
 */
void hal_delay_us(uint16_t us) {
    for (; us >= 8u; us -= 8u) {
        PIC_DELAY_8US_IN_LOOP();
    }
    while (us != 0u) {
        __delay_us(1);
        us--;
    }
}

/* The loop overhead makes it somewhat longer than asked, never shorter. */

void hal_delay_ms(uint16_t ms) {
    while (ms != 0u) {
        __delay_ms(1);
        ms--;
    }
}

void hal_irq_enable(void) {
    INTCONbits.GIE = 1;
}

void hal_irq_disable(void) {
    INTCONbits.GIE = 0;
}

bool hal_button_edge_take(void) {
    uint8_t interrupts_were_on = INTCONbits.GIE;
    bool edge;

    INTCONbits.GIE = 0;
    edge = button_edge;
    button_edge = false;
    INTCONbits.GIE = interrupts_were_on;
    return edge;
}

static void uart_receive(void) {
    uint8_t next;
    uint8_t byte;

    if (RC1STAbits.OERR) {
        /* Overrun stops the receiver until CREN is cycled. */
        RC1STAbits.CREN = 0;
        RC1STAbits.CREN = 1;
        uart_errors++;
        return;
    }
    if (RC1STAbits.FERR) {
        (void)RC1REG;
        uart_errors++;
        return;
    }
    byte = RC1REG;
    next = (uint8_t)((rx_head + 1u) & (RX_RING_SIZE - 1u));
    if (next == rx_tail) {
        uart_errors++;
        return;
    }
    rx_ring[rx_head] = byte;
    rx_head = next;
}

PIC_ISR(isr) {
    uint8_t flags;

    if (PIR0bits.IOCIF) {
        flags = IOCAF;
        if ((flags & _IOCAF_IOCAF5_MASK) != 0u) {
            button_edge = true;
        }
        /* Clear only the flags read: an edge latched since stays for the next
         * pass (a flag left set would also make SLEEP return at once). */
        IOCAF &= (uint8_t)~flags;
    }
    if (PIR1bits.RCIF) {
        uart_receive();
    }
}

/* The EUSART stops in SLEEP: let the last event bytes leave first. */
static void uart_drain_transmitter(void) {
    uint8_t polls;

    for (polls = 0u; !TX1STAbits.TRMT && polls < TX_DRAIN_POLLS; polls++) {
        __delay_us(1);
    }
}

/*
 * Before a SLEEP, interrupts off: the last event bytes sent, then a start bit
 * made to wake the CPU: interrupt-on-change on RX's falling edge (what the
 * low-power sleep is meant to wake on), and the EUSART's auto-wake (WUE), which
 * the datasheet allows only with the receiver idle. IOC is armed first, so a
 * start bit after the look at RCIDL leaves its flag set and SLEEP returns at
 * once. False, with nothing left armed, if a byte is coming in (RCIDL = 0):
 * the caller stays awake to receive it.
 */
static bool uart_wake_arm(void) {
    uart_drain_transmitter();
    IOCANbits.IOCAN1 = 1;
    if (!BAUD1CONbits.RCIDL) {
        IOCANbits.IOCAN1 = 0;
        return false;
    }
    BAUD1CONbits.WUE = 1;
    return true;
}

/*
 * After the SLEEP, interrupts still off: a start bit woke us if RX's edge was
 * latched. Then the rest of that character is waited out (the EUSART clears
 * WUE on its next rise, where auto-wake works) and dropped (hal.h: not data).
 * IOC on RX and WUE are disarmed, RX's flag cleared before the interrupt
 * routine can see it. True if the UART woke the CPU.
 */
static bool uart_woke_cpu(void) {
    uint8_t polls;
    bool woke = IOCAFbits.IOCAF1;

    IOCANbits.IOCAN1 = 0;
    IOCAF &= (uint8_t)~_IOCAF_IOCAF1_MASK;
    if (woke) {
        for (polls = 0u; BAUD1CONbits.WUE && polls < WAKE_CHAR_POLLS; polls++) {
            __delay_us(1);
        }
        (void)RC1REG;
    }
    BAUD1CONbits.WUE = 0;
    return woke;
}

/* The standby SLEEP: the awake watchdog off for it (it would draw microamps), on after;
 * the brown-out reset is off in SLEEP and back before the CPU runs (BOREN = SLEEP). */
void hal_sleep(void) {
    if (uart_wake_arm()) {
        WDTCON = 0x00u;
        SLEEP();
        NOP();
        bor_ready_wait();
        WDTCON = WDT_AWAKE;
        CLRWDT();
        (void)uart_woke_cpu();
    }
    INTCONbits.GIE = 1;
}

uint8_t hal_uart_rx_level(void) {
    return PORTAbits.RA1;
}

/*
 * One SLEEP with the watchdog as its bound (DS40001839, "Watchdog Timer":
 * with WDTE = SWDTEN the SWDTEN bit of WDTCON runs it; a time-out during SLEEP
 * wakes the CPU instead of resetting it and clears STATUS.TO). It runs only
 * for the SLEEP itself: awake, a time-out would reset the chip. CLRWDT sets TO
 * again, so a TO still clear afterwards means the watchdog woke us (SLEEP
 * skipped as a NOP because a flag was pending leaves TO set, too).
 * GIE is off: a wake-up resumes here, and the interrupt routine runs later.
 */
static hal_wake_t sleep_one_watchdog_period(void) {
    bool uart_woke;

    CLRWDT();
    WDTCONbits.SWDTEN = 1;
    SLEEP();
    NOP();
    WDTCONbits.SWDTEN = 0;
    bor_ready_wait();
    uart_woke = uart_woke_cpu();
    if (STATUSbits.NOT_TO == 0) {
        return HAL_WAKE_WATCHDOG;
    }
    return uart_woke ? HAL_WAKE_UART : HAL_WAKE_OTHER;
}

void hal_busy_wake(bool on) {
    if (on) {
        IOCAPbits.IOCAP4 = 1;
    } else {
        IOCAPbits.IOCAP4 = 0;
        IOCAFbits.IOCAF4 = 0;
    }
}

hal_wake_t hal_sleep_period(void) {
    uint8_t gie = INTCONbits.GIE;
    uint8_t watchdog_before = WDTCON;
    hal_wake_t cause;

    INTCONbits.GIE = 0;
    cause = HAL_WAKE_UART; /* a byte coming in: stay awake as after a start bit */
    if (uart_wake_arm()) {
        WDTCON = WDT_PERIOD_32MS;
        cause = sleep_one_watchdog_period();
        WDTCON = watchdog_before;
        CLRWDT();
    }
    INTCONbits.GIE = gie;
    return cause;
}

/*
 * The lines off: the receiver off (CREN = 0: a held-low RX makes no framing errors), RC1
 * taken from the EUSART (RC1PPS = 0: its LATC bit), WPUA1 off and RA1 an output
 * (TRISA1 = 0). LATA1 and LATC1 stay 0 from hal_init() (nothing else writes them), so
 * both pins are driven low. Each watchdog period ends with a look at RX: RA1 an input
 * with its pull-up for HAL_RX_LOOK_US; high, the lines stay on as hal_init() set them.
 * RX is not armed to wake the CPU (RA1 driven, it cannot move).
 */
void hal_sleep_lines_off(void) {
    uart_drain_transmitter(); /* the last byte sent whole, as before any SLEEP */
    RC1STAbits.CREN = 0;
    RC1PPS = 0x00u;
    WDTCON = WDT_PERIOD_1S;
    do {
        WPUAbits.WPUA1 = 0;
        TRISAbits.TRISA1 = 0;
        if (sleep_one_watchdog_period() != HAL_WAKE_WATCHDOG) {
            break;
        }
        WPUAbits.WPUA1 = 1;
        TRISAbits.TRISA1 = 1;
        hal_delay_us(HAL_RX_LOOK_US);
    } while (!PORTAbits.RA1);
    WDTCON = WDT_AWAKE;
    CLRWDT();
    WPUAbits.WPUA1 = 1;
    TRISAbits.TRISA1 = 1;
    RC1PPS = PPS_OUTPUT_TX;
    RC1STAbits.CREN = 1;
}

/* ADRES preset to the lowest VDD: a conversion that does not end reads as a weak cell. */
uint16_t hal_vdd_reading(void) {
    uint8_t polls;
    uint16_t reading = HAL_VDD_FAILED;

    FVRCON = FVR_1X_ON;
    ADCON1 = ADC_RIGHT_FOSC_16;
    ADCON0 = ADC_CHANNEL_FVR | _ADCON0_ADON_MASK;
    for (polls = 0u; !FVRCONbits.FVRRDY && polls < FVR_READY_POLLS; polls++) {
        __delay_us(1);
    }
    if (FVRCONbits.FVRRDY) {
        ADRESH = (uint8_t)(HAL_VDD_FAILED >> 8);
        ADRESL = (uint8_t)HAL_VDD_FAILED;
        hal_delay_us(FVR_SETTLE_US); /* TFVRS, also the ADC's acquisition */
        ADCON0 = ADC_CHANNEL_FVR | _ADCON0_ADON_MASK | _ADCON0_GO_MASK;
        for (polls = ADC_POLLS; ADCON0bits.GO && polls != 0u; polls--) {
        }
        if (!ADCON0bits.GO) {
            reading = (uint16_t)(((uint16_t)(ADRESH & 0x03u) << 8) | ADRESL);
        }
    }
    ADCON0 = 0x00u;
    FVRCON = 0x00u;
    return reading;
}

/* PCON0: the flags of the reset just past, then all set back (the stack flags cleared). */
hal_reset_t hal_reset_cause(void) {
    uint8_t flags = PCON0;
    hal_reset_t cause = HAL_RESET_NONE;

    if ((flags & _PCON0_NOT_POR_MASK) == 0u) {
        cause = HAL_RESET_POWER_ON;
    } else if ((flags & _PCON0_STKOVF_MASK) != 0u) {
        cause = HAL_RESET_STACK_OVERFLOW;
    } else if ((flags & _PCON0_STKUNF_MASK) != 0u) {
        cause = HAL_RESET_STACK_UNDERFLOW;
    } else if ((flags & _PCON0_NOT_RWDT_MASK) == 0u) {
        cause = HAL_RESET_WATCHDOG;
    } else if ((flags & _PCON0_NOT_RMCLR_MASK) == 0u) {
        cause = HAL_RESET_MCLR;
    } else if ((flags & _PCON0_NOT_RI_MASK) == 0u) {
        cause = HAL_RESET_INSTRUCTION;
    } else if ((flags & _PCON0_NOT_BOR_MASK) == 0u) {
        cause = HAL_RESET_BROWNOUT;
    }
    PCON0 = _PCON0_NOT_POR_MASK | _PCON0_NOT_BOR_MASK | _PCON0_NOT_RI_MASK | _PCON0_NOT_RMCLR_MASK |
            _PCON0_NOT_RWDT_MASK;
    return cause;
}

void hal_watchdog_clear(void) {
    CLRWDT();
}

/* *byte is written, so it is in RAM: the pointer is taken as a RAM one. */
bool hal_uart_read(uint8_t *byte) {
    if (rx_tail == rx_head) {
        return false;
    }
    *(HAL_RAM uint8_t *)byte = rx_ring[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1u) & (RX_RING_SIZE - 1u));
    return true;
}

bool hal_uart_pending(void) {
    /* RCIDL = 0: a start bit was seen and its byte is still coming in. */
    return rx_tail != rx_head || BAUD1CONbits.RCIDL == 0u;
}

void hal_uart_write(uint8_t byte) {
    uint8_t polls;

    for (polls = 0u; !PIR1bits.TXIF && polls < TX_READY_POLLS; polls++) {
        __delay_us(1);
    }
    if (PIR1bits.TXIF) {
        TX1REG = byte;
    }
}

uint8_t hal_uart_errors_take(void) {
    uint8_t interrupts_were_on = INTCONbits.GIE;
    uint8_t errors;

    INTCONbits.GIE = 0;
    errors = uart_errors;
    uart_errors = 0u;
    INTCONbits.GIE = interrupts_were_on;
    return errors;
}

/*
 * The NVM unlock sequence: 0x55, 0xAA to NVMCON2, then WR, with interrupts
 * off so nothing comes between. Flash operations stall the CPU until done.
 */
static void nvm_unlock_and_start(void) {
    uint8_t interrupts_were_on = INTCONbits.GIE;

    INTCONbits.GIE = 0;
    NVMCON2 = 0x55u;
    NVMCON2 = 0xAAu;
    NVMCON1bits.WR = 1;
    NOP();
    NOP();
    INTCONbits.GIE = interrupts_were_on;
}

static void nvm_set_address(uint16_t word_addr) {
    NVMADRH = (uint8_t)(word_addr >> 8);
    NVMADRL = (uint8_t)(word_addr & 0xFFu);
}

uint16_t hal_flash_read(uint16_t word_addr) {
    if (word_addr >= HAL_FLASH_WORDS) {
        return HAL_FLASH_ERASED;
    }
    NVMCON1 = 0x00u;
    nvm_set_address(word_addr);
    NVMCON1bits.RD = 1;
    NOP();
    NOP();
    return (uint16_t)(((uint16_t)(NVMDATH & 0x3Fu) << 8) | NVMDATL);
}

bool hal_flash_erase_row(uint16_t row_addr) {
    bool ok;

    if (!HAL_FLASH_ROW_WRITABLE(row_addr)) {
        return false;
    }
    nvm_set_address(row_addr);
    NVMCON1 = _NVMCON1_FREE_MASK | _NVMCON1_WREN_MASK;
    nvm_unlock_and_start();
    ok = NVMCON1bits.WRERR == 0;
    NVMCON1 = 0x00u;
    return ok;
}

/* words[] is in RAM (the store's row buffer): the pointer is taken as a RAM one. */
bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words) {
    const HAL_RAM uint16_t *ram = (const HAL_RAM uint16_t *)words;
    uint8_t i;
    uint16_t word;
    bool ok;

    if (!HAL_FLASH_ROW_WRITABLE(row_addr) || words == 0) {
        return false;
    }
    /* Load the row's write latches one word at a time; the last load (LWLO = 0)
     * programs the whole row. */
    NVMCON1 = _NVMCON1_LWLO_MASK | _NVMCON1_WREN_MASK;
    nvm_set_address(row_addr);
    for (i = 0u; i < HAL_FLASH_ROW_WORDS; i++) {
        /* One read of the word through the pointer: SDCC 4.2.0 pic14 made the first of two
         * byte reads through a generic pointer without loading the pointer's tag into W, so
         * __gptrget1 returned 0 and every row was written with its low bytes cleared
         * (firmware/toolchain/README.md). */
        word = ram[i];
        NVMDATL = (uint8_t)(word & 0xFFu);
        NVMDATH = (uint8_t)((word >> 8) & 0x3Fu);
        if (i == HAL_FLASH_ROW_WORDS - 1u) {
            NVMCON1bits.LWLO = 0;
        }
        nvm_unlock_and_start();
        /* The row starts on a 32-word boundary: its words differ in NVMADRL's low 5 bits. */
        NVMADRL++;
    }
    ok = NVMCON1bits.WRERR == 0;
    NVMCON1 = 0x00u;
    return ok;
}

/* EEPROM through the NVM registers: NVMREGS = 1, NVMADR = 0xF000 + addr (DS40001839,
 * "Data EEPROM Memory"). A write erases and programs the byte itself; WR clears when done. */
uint8_t hal_eeprom_read(uint8_t addr) {
    NVMADRH = EEPROM_NVM_HIGH;
    NVMADRL = addr;
    NVMCON1 = _NVMCON1_NVMREGS_MASK;
    NVMCON1bits.RD = 1;
    return NVMDATL;
}

bool hal_eeprom_write(uint8_t addr, uint8_t value) {
    uint8_t polls;
    bool ok;

    NVMADRH = EEPROM_NVM_HIGH;
    NVMADRL = addr;
    NVMDATL = value;
    NVMCON1 = _NVMCON1_NVMREGS_MASK | _NVMCON1_WREN_MASK;
    nvm_unlock_and_start();
    for (polls = 0u; NVMCON1bits.WR && polls < EEPROM_WRITE_POLLS; polls++) {
        hal_delay_us(EEPROM_POLL_US);
    }
    ok = !NVMCON1bits.WR && NVMCON1bits.WRERR == 0;
    NVMCON1 = 0x00u;
    return ok && hal_eeprom_read(addr) == value;
}
