/*
 * A PIC16F18326 for gpsim 0.31, loaded with `module library`: the enhanced mid-range
 * core that gpsim has, with this chip's memory sizes, all seven PCLATH bits, its SFR
 * map, and the peripherals the epdle firmware touches modelled after the datasheet
 * (DS40001839): ports A and C with interrupt-on-change, PIR0/PIE0, PIR1/PIE1, the
 * EUSART in asynchronous mode with auto-wake (WUE) and RCIDL, the NVM controller
 * (NVMCON1/2 unlock, row erase, 32 write latches, the EEPROM), OSCCON1/OSCFRQ and the
 * configuration words, VREGCON's low-power sleep, PPS for RX and TX.
 * What the model does and does not do: firmware/toolchain/README.md.
 */
#ifndef EPDLE_P16F18326_H
#define EPDLE_P16F18326_H

#include <gpsim/14bit-processors.h>
#include <gpsim/14bit-registers.h>
#include <gpsim/intcon.h>
#include <gpsim/pic-ioports.h>
#include <gpsim/pir.h>

#include <cstdint>
#include <vector>

class P16F18326;
class Bench;

/* A register whose writes the processor wants to see (NVM, EUSART, OSC, PPS, ...). */
class Sfr18326 : public sfr_register {
  public:
    Sfr18326(P16F18326 *cpu, const char *name, unsigned int id);
    void put(unsigned int new_value) override;
    unsigned int get() override;
    unsigned int id;

  private:
    P16F18326 *chip;
};

/* IOCAF/IOCCF report to this, not to INTCON: on this chip IOCIF is PIR0 bit 4. */
class IocRelay : public INTCON_14_PIR {
  public:
    explicit IocRelay(P16F18326 *cpu);
    void set_rbif(bool) override;
    void aocxf_val(IOCxF *, unsigned int) override;

  private:
    P16F18326 *chip;
};

/* The interrupt sources INTCON asks about: (PIR0 & PIE0) | (PIR1 & PIE1). */
class PirSet18326 : public PIR_SET {
  public:
    explicit PirSet18326(P16F18326 *cpu) : chip(cpu) {}
    int interrupt_status() override;

  private:
    P16F18326 *chip;
};

/* LATA/LATC: the bench watches the latches (the panel's SPI, its power switch). */
class WatchedLatch : public PicLatchRegister {
  public:
    WatchedLatch(P16F18326 *cpu, const char *name, PortRegister *port, unsigned int mask,
                 int port_index);
    void put(unsigned int new_value) override;
    void setbit(unsigned int bit, char state) override;

  private:
    P16F18326 *chip;
    int port_index;
};

/* TRISA, told to the bench: a pin turned into an input reads what drives it from outside
 * (the bench's RX line), not what the chip drove last. */
class WatchedTris : public PicTrisRegister {
  public:
    WatchedTris(P16F18326 *cpu, const char *name, PicPortRegister *port, unsigned int mask);
    void put(unsigned int new_value) override;

  private:
    P16F18326 *chip;
};

/* Every change on a port pin, for the EUSART's RX through RXPPS. */
class PinWatch : public SignalSink {
  public:
    PinWatch(P16F18326 *cpu, int port_index, int bit) : chip(cpu), port(port_index), bit(bit) {}
    void setSinkState(char state) override;
    void release() override {}

  private:
    P16F18326 *chip;
    int port;
    int bit;
};

/* The EUSART's bit clock and the NVM's stall end: cycle breaks land here. */
class ChipTimer : public TriggerObject {
  public:
    ChipTimer(P16F18326 *cpu, int kind) : chip(cpu), kind(kind) {}
    void callback() override;
    void callback_print() override {}

  private:
    P16F18326 *chip;
    int kind;
};

/* The program counter, recording the highest address the CPU executed. */
class TrackingPC : public Program_Counter {
  public:
    explicit TrackingPC(Module *cpu);
    void increment() override;
    void skip() override;
    void jump(unsigned int) override;
    void interrupt(unsigned int) override;
    void computed_goto(unsigned int) override;
    void new_address(unsigned int) override;
    void note();
    unsigned int highest = 0;
};

class P16F18326 : public _14bit_e_processor {
  public:
    enum Reg {
        R_PIR0,
        R_PIR1,
        R_PIE0,
        R_PIE1,
        R_NVMADRL,
        R_NVMADRH,
        R_NVMDATL,
        R_NVMDATH,
        R_NVMCON1,
        R_NVMCON2,
        R_RC1REG,
        R_TX1REG,
        R_SP1BRGL,
        R_SP1BRGH,
        R_RC1STA,
        R_TX1STA,
        R_BAUD1CON,
        R_OSCCON1,
        R_OSCCON2,
        R_OSCCON3,
        R_OSCSTAT1,
        R_OSCEN,
        R_OSCFRQ,
        R_VREGCON,
        R_RXPPS,
        R_RC1PPS,
        R_PCON0,
        R_BORCON,
        R_FVRCON,
        R_ADRESL,
        R_ADRESH,
        R_ADCON0,
        R_ADCON1,
        R_COUNT
    };
    enum { T_RX, T_TX, T_NVM };

    explicit P16F18326(const char *name = nullptr, const char *desc = nullptr);
    ~P16F18326();
    static Processor *construct(const char *name);

    PROCESSOR_TYPE isa() override {
        return _14BIT_E_PROCESSOR_;
    }
    unsigned int program_memory_size() const override {
        return 0x4000;
    }
    unsigned int register_memory_size() const override {
        return 0x1000;
    }
    unsigned int get_pclath_branching_jump() override {
        return (pclath->value.get() & 0x78) << 8;
    }
    unsigned int get_pclath_branching_modpcl() override {
        return (pclath->value.get() & 0x7f) << 8;
    }
    void create_sfr_map() override;
    void create_config_memory() override;
    bool set_config_word(unsigned int address, unsigned int cfg_word) override;
    void set_out_of_range_pm(unsigned int address, unsigned int value) override;
    PIR_SET *get_pir_set() {
        return &pir_set;
    }
    void option_new_bits_6_7(unsigned int) override {}
    void enter_sleep() override;
    void exit_sleep() override;
    bool exit_wdt_sleep() override;
    void wdt_configure();
    void reset(RESET_TYPE r) override;
    void create();

    /* Called by the registers and pins above. */
    void reg_put(unsigned int id, unsigned int value);
    unsigned int reg_get(unsigned int id);
    void latch_changed(int port_index);
    void tris_changed(int port_index, unsigned int before, unsigned int after);
    void pin_changed(int port_index, int bit, bool level);
    void timer(int kind);
    void iocif_update();
    void raise(unsigned int reg, unsigned int bit);
    int pending_interrupts();

    /* The bench's view. */
    PinModule *pin(int port_index, int bit);
    unsigned int latch(int port_index) {
        return port_index ? m_latc->value.get() : m_lata->value.get();
    }
    unsigned int tris(int port_index) {
        return port_index ? m_trisc->value.get() : m_trisa->value.get();
    }
    bool low_power_sleep() const {
        return sleeping_low_power;
    }
    uint16_t flash_word(unsigned int address);
    unsigned int highest_pc() const {
        return tracking_pc->highest;
    }
    Bench *bench = nullptr;
    uint64_t sleep_count = 0;

  private:
    void nvm_start();
    void load_flash();
    void nvm_finish();
    void rx_edge(bool level);
    void rx_sample();
    void tx_load();
    void tx_bit();
    void clock_update();
    void adc_convert(unsigned int channel);
    unsigned int bit_cycles();
    PinModule *rx_pin();
    bool tx_routed();

    PirSet18326 pir_set;
    IocRelay ioc_relay;
    TrackingPC *tracking_pc;
    Sfr18326 *regs[R_COUNT];

    PicPortIOCRegister *m_porta, *m_portc;
    PicTrisRegister *m_trisa, *m_trisc;
    WatchedLatch *m_lata, *m_latc;
    WPU *m_wpua, *m_wpuc;
    IOC *m_iocap, *m_iocan, *m_ioccp, *m_ioccn;
    IOCxF *m_iocaf, *m_ioccf;
    sfr_register ansela, anselc, odcona, odconc, slrcona, slrconc, inlvla, inlvlc;
    std::vector<PinWatch *> watches;

    unsigned int config_words[4] = {0x3fff, 0x3fff, 0x3fff, 0x3fff};
    double fosc = 32e6;
    bool sleeping_low_power = false;
    bool wdt_waking = false;

    /* NVM */
    std::vector<uint16_t> flash;
    uint16_t latches[32];
    uint8_t eeprom[256];
    int unlock_state = 0;
    unsigned int nvm_pending_op = 0;
    unsigned int nvm_pending_addr = 0;
    ChipTimer nvm_timer;

    /* EUSART receiver: a 2-byte FIFO with a framing-error bit each, the shift register */
    uint16_t rx_fifo[2];
    int rx_count = 0;
    bool rx_busy = false;
    int rx_bit_index = 0;
    unsigned int rx_shift = 0;
    bool rx_level = true;
    ChipTimer rx_timer;
    /* transmitter */
    int tx_bits_left = 0;
    unsigned int tx_shift = 0;
    bool tx_buffer_full = false;
    unsigned int tx_buffer = 0;
    ChipTimer tx_timer;
};

#endif
