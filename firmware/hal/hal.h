/*
 * hal.h - the one hardware interface of the epdle firmware.
 *
 * One implementation per target, each port with its own main.c:
 *   ports/pic16f18326/  the chip: XC8 register code (SDCC builds it too)
 *   ports/sim/          the simulated board (firmware/sim/) for host builds
 * (The gpsim test rig's PIC16F1788 HAL is a test: tests/firmware/pic/.)
 *
 * Rules for everything above this layer (drivers/, app/):
 *   - C99 that XC8 and SDCC accept, fixed-width integer types only;
 *   - no malloc, no recursion, no frame buffer (stream everything);
 *   - every wait on hardware is bounded by a caller-visible count.
 */
#ifndef EPDLE_HAL_H
#define EPDLE_HAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Compile-time check of a constant expression (C99 has no _Static_assert):
 * a false condition makes an array of negative size and fails the build on
 * every compiler, the 8-bit ones included. Use it on every constant that
 * could overflow the chip's 16-bit int or outgrow a table.
 */
#define HAL_STATIC_ASSERT(name, cond) typedef char hal_static_assert_##name[(cond) ? 1 : -1]

/*
 * A pointer known to point into RAM: SDCC pic14 reads and writes through it
 * with FSR0 in place, where a plain (generic) pointer costs a runtime call a
 * byte. Other compilers need no hint.
 */
#if defined(__SDCC_pic14) || defined(SDCC_pic14)
#define HAL_RAM __data
#else
#define HAL_RAM
#endif

/*
 * CPU work the simulated board charges as time. On the chip the work simply
 * takes its cycles and HAL_WORK() compiles to nothing; the simulated board's
 * build (HAL_COUNTS_WORK) charges each unit what it costs on the instruction
 * set, measured in gpsim (docs/pic-cycles.md, table in ports/sim/hal_sim.c).
 * Pin, SPI and flash accesses are charged by the HAL calls themselves.
 */
typedef enum {
    HAL_WORK_DECODED_BYTE, /* frame.c: one pixel byte handed out */
    HAL_WORK_CODED_BYTE,   /* frame.c: one frame byte taken in and decoded */
    HAL_WORK_STORED_BYTE,  /* store.c: one byte unpacked from flash words */
    HAL_WORK_CRC_BYTE,     /* crc16.c: one byte through the CRC */
    HAL_WORK_SKIP,         /* frame.c: one frame_skip() (its codes are CODED_BYTEs) */
    HAL_WORK_KINDS
} hal_work_t;

#ifdef HAL_COUNTS_WORK
void hal_work(hal_work_t work);
#define HAL_WORK(work) hal_work(work)
#else
#define HAL_WORK(work) ((void)0)
#endif

/* ---- pins ------------------------------------------------------------ */

/* Board nets (names match hardware/pins.csv and the sim's VCD signals). */
typedef enum {
    HAL_PIN_EPD_SCL = 0, /* RC0, out: SPI clock */
    HAL_PIN_EPD_SDA,     /* RC2, out: SPI data (MOSI) */
    HAL_PIN_EPD_CS,      /* RC4, out: chip select, active low */
    HAL_PIN_EPD_DC,      /* RC5, out: 0 = command, 1 = data */
    HAL_PIN_EPD_RST,     /* RC3, out: reset, active low */
    HAL_PIN_EPD_BUSY,    /* RA4, in:  0 = busy, 1 = idle */
    HAL_PIN_EPD_PWR,     /* RA2, out: panel load-switch enable, 1 = powered */
    HAL_PIN_BUTTON,      /* RA5, in:  to ground, weak pull-up, IOC falling */
    HAL_PIN_COUNT
} hal_pin_t;

/* Output pins only; writes to inputs are ignored. */
void hal_pin_write(hal_pin_t pin, uint8_t level);
uint8_t hal_pin_read(hal_pin_t pin);

/*
 * One byte as a whole chip-select frame: EPD_CS low, the byte clocked out on
 * EPD_SDA / EPD_SCL, most significant bit first, SPI mode 0 (SDA set while
 * SCL is low, then SCL pulses high), EPD_CS high again. D/C is the caller's.
 * Returns with SCL low. A whole framed byte per call because on this core a
 * function call (and a pin write through hal_pin_write) costs more than the
 * bit it would send.
 */
void hal_spi_write(uint8_t byte);
/* `count` such frames of the same byte (a page fill), in one call. */
void hal_spi_repeat(uint8_t byte, uint16_t count);

/* ---- time ------------------------------------------------------------ */

/*
 * The CPU's clock: HFINTOSC at 16 MHz (4 instruction cycles a microsecond). DS40001839,
 * D002: the chip runs at up to 16 MHz from VDD = 2.3 V, at up to 32 MHz only from 2.5 V;
 * the brown-out reset (BORV = LOW) may trip anywhere from 2.30 to 2.60 V, so with it armed
 * whenever the CPU runs (ports/pic16f18326/main.c: BOREN = SLEEP) 16 MHz is never run
 * below its floor, where 32 MHz could run down to 2.30 V (0.2 V under its own).
 */
#define HAL_FOSC_HZ 16000000ul

/* Busy-wait delays at Fosc = HAL_FOSC_HZ. Bounded by their argument. */
void hal_delay_us(uint16_t us);
void hal_delay_ms(uint16_t ms);

/* ---- interrupts and sleep -------------------------------------------- */

void hal_init(void); /* clocks, pins (all panel pins low, panel off), IOC, UART */
void hal_irq_enable(void);
void hal_irq_disable(void);

/*
 * True once per falling edge seen on the button since the last call
 * (latched by the interrupt, so an edge during a long refresh is kept).
 */
bool hal_button_edge_take(void);

/*
 * Enter SLEEP until the button's falling edge or a UART start bit wakes the
 * CPU. Returns after the wake-up (the interrupt has already run). As on the
 * chip, the character whose start bit woke the CPU is not received: senders
 * put a wake preamble in front of real data. Returns without sleeping if a
 * byte is being received (its start bit seen, checked once the last bytes
 * sent have left): it is received awake.
 */
void hal_sleep(void);

/* What ended a hal_sleep_period(). */
typedef enum {
    HAL_WAKE_OTHER = 0, /* the button, BUSY's rise, or a flag already pending */
    HAL_WAKE_WATCHDOG,  /* the period ran out */
    HAL_WAKE_UART       /* a start bit: that character is lost, as in hal_sleep() */
} hal_wake_t;

/*
 * Interrupt-on-change on HAL_PIN_EPD_BUSY's rising edge, so that the end of a
 * panel refresh wakes hal_sleep_period(). Arm it before the first look at the
 * pin: a rise after that look leaves its flag set, and the SLEEP after it
 * returns at once. Disarming also clears a flag it left.
 */
void hal_busy_wake(bool on);

/*
 * One SLEEP of at most HAL_SLEEP_PERIOD_MS (nominal, LFINTOSC): the watchdog
 * bounds it and wakes the CPU instead of resetting it. The button's falling
 * edge, BUSY's rise (hal_busy_wake) or a UART start bit end it sooner, and a
 * flag already pending makes it return at once; a byte being received, at
 * once with HAL_WAKE_UART. Call it with interrupts off
 * (the caller looked at what it waits for just before); it returns with the
 * interrupt state as it found it, and the interrupt routine runs (latching
 * the button edge or byte that woke the CPU) once the caller turns them on.
 * Waiting policy (how many periods, staying awake while the host talks) is
 * the caller's.
 */
#define HAL_SLEEP_PERIOD_MS 32u
hal_wake_t hal_sleep_period(void);

/*
 * The standby SLEEP of hal_sleep() (the brown-out reset disarmed for it, as it was
 * after; the low-power regulator) for an unpowered adapter left on J1: the UART's lines
 * off (RA1's pull-up off, RA1 and RC1 driven low, the receiver off: nothing flows into
 * what is on J1, no pin floats, nothing is received or sent), the CPU asleep in
 * watchdog periods of HAL_SLEEP_LONG_MS (nominal, LFINTOSC), RX looked at with its
 * pull-up for HAL_RX_LOOK_US at each. Returns with the lines on (as hal_init() leaves
 * them) once RX reads high, or the button's falling edge (or a flag already pending)
 * woke the CPU. Call it with interrupts off; it leaves them off.
 */
#define HAL_SLEEP_LONG_MS 1024u
#define HAL_RX_LOOK_US 10u
void hal_sleep_lines_off(void);

/* ---- supply and watchdog ---------------------------------------------- */

/*
 * VDD measured: the ADC converts the fixed voltage reference's buffer (FVR, 1x: 1.024 V
 * nominal, +-4 % from part to part, DS40001839 FVR01) against VDD as its reference, 10
 * bits: reading = floor(1024 x FVR / VDD) (the ADC's transfer: 1 LSB = VDD / 1024), so it
 * falls as VDD rises, about 6.5 mV a step near 2.6 V. hal_vdd_reading() turns the FVR on,
 * waits for its ready bit (FVRRDY) and then its settling time, converts, and turns both
 * off again: every wait bounded; HAL_VDD_FAILED (the lowest VDD) if one did not end.
 * (Which reading proves which VDD: drivers/supply.h, supply_floor_reading().)
 */
#define HAL_ADC_STEPS 1024ul
#define HAL_FVR_NOMINAL_MV 1024u
#define HAL_VDD_FAILED 0x3FFu
uint16_t hal_vdd_reading(void);

/*
 * What caused the last reset, as PCON0 tells it (DS40001839, "Power Control (PCON0)
 * Register"), read once after reset: hal_reset_cause() reads the flags and sets them back
 * for the next reset (and clears the stack flags), so a second call says HAL_RESET_NONE.
 */
typedef enum {
    HAL_RESET_POWER_ON = 0, /* NOT_POR clear (the brown-out flag is then unknown) */
    HAL_RESET_BROWNOUT,     /* NOT_BOR clear */
    HAL_RESET_WATCHDOG,     /* NOT_RWDT clear: the awake watchdog ran out */
    HAL_RESET_STACK_OVERFLOW,
    HAL_RESET_STACK_UNDERFLOW,
    HAL_RESET_MCLR, /* NOT_RMCLR clear: the reset pin */
    HAL_RESET_INSTRUCTION,
    HAL_RESET_NONE /* no flag: already read since the reset */
} hal_reset_t;
hal_reset_t hal_reset_cause(void);

/* ---- EEPROM (256 bytes) ------------------------------------------------ */

#define HAL_EEPROM_BYTES 256u
uint8_t hal_eeprom_read(uint8_t addr);
/* Erase and write one byte (about 4 ms, bounded); false if it did not read back. */
bool hal_eeprom_write(uint8_t addr, uint8_t value);

/*
 * The watchdog while awake: from hal_init() on it resets the chip unless
 * cleared at least every HAL_WATCHDOG_AWAKE_MS (nominal, LFINTOSC), longer than
 * any bounded wait of the firmware (the longest: a refresh polled awake while
 * the host talks, 30 s). SLEEP stops it; hal_sleep_period() runs it as the
 * SLEEP's own bound meanwhile. The main loop clears it on every pass.
 */
#define HAL_WATCHDOG_AWAKE_MS 64000ul
void hal_watchdog_clear(void);

/* ---- UART (EUSART, 115200 8N1) --------------------------------------- */

/* Non-blocking: true and *byte set if a received byte was waiting. */
bool hal_uart_read(uint8_t *byte);
/*
 * True if a received byte waits to be read, or one is being received (its
 * start bit seen). With interrupts off, a false answer holds until SLEEP: a
 * start bit after it makes SLEEP wake at once (losing only that character,
 * as every wake-up does), and a byte can no longer complete unseen.
 */
bool hal_uart_pending(void);
/* Blocking until the transmitter takes the byte; bounded by one byte time. */
void hal_uart_write(uint8_t byte);
/* Bytes lost since the last call (overrun or framing errors). */
uint8_t hal_uart_errors_take(void);

/* RX's level (1 = high): RA1, an input with its weak pull-up while the lines are on. */
uint8_t hal_uart_rx_level(void);

/* ---- program flash (self-write through NVMCON) ------------------------ */

/*
 * Addresses are word addresses. A word holds 14 bits; erased value 0x3FFF.
 * Erase and write work on whole rows of HAL_FLASH_ROW_WORDS words, aligned.
 * The CPU stalls while a row is erased or written (about 2 ms each).
 */
#define HAL_FLASH_WORDS 16384u
#define HAL_FLASH_ROW_WORDS 32u
#define HAL_FLASH_ERASED 0x3FFFu
/* Erase and write are refused below this word, whatever the row asked: the
 * firmware's code and constants live there (the frame store starts here). */
#define HAL_FLASH_WRITABLE_FROM 0x2800u
/* A row every HAL erases and writes: row aligned, from HAL_FLASH_WRITABLE_FROM on. */
#define HAL_FLASH_ROW_WRITABLE(row_addr)                                                           \
    ((uint16_t)((row_addr)-HAL_FLASH_WRITABLE_FROM) <                                              \
         (uint16_t)(HAL_FLASH_WORDS - HAL_FLASH_WRITABLE_FROM) &&                                  \
     ((row_addr) & (HAL_FLASH_ROW_WORDS - 1u)) == 0u)

uint16_t hal_flash_read(uint16_t word_addr);
/* Erase the row that starts at row_addr (row aligned, writable); false if refused. */
bool hal_flash_erase_row(uint16_t row_addr);
/*
 * Program the row at row_addr (row aligned, writable, previously erased) with
 * HAL_FLASH_ROW_WORDS words taken from words[] (only the low 14 bits count).
 */
bool hal_flash_write_row(uint16_t row_addr, const uint16_t *words);

#endif /* EPDLE_HAL_H */
