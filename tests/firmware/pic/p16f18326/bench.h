/*
 * The desk around the chip in gpsim: a host on the UART line (115200 8N1 into RA1, its
 * replies read from the EUSART), the button on RA5, MCLR on RA3, and the panel on port C
 * and RA2/RA4: its SPI decoded from the latch writes (SDA at each SCL rise while CS is
 * low, D/C at the eighth bit) and BUSY held low for the UC8151D's published times, from
 * EPDLE_BENCH_BUSY_DELAY_US (default 1000) after the command on. It logs as violations
 * a command while busy, a reset other than the UC8151D's (three pulses of 50 us or more,
 * 10 ms before the first command) and a panel input high while the panel is unpowered.
 * It runs a scenario (EPDLE_BENCH_SCENARIO: one step a line: wait MS, send HEX, reply MS,
 * press MS, mclr, rx 0|1 (the line's idle level: 0 an unpowered adapter), peek ADDR,
 * mark NAME, end) and logs every event with its cycle to
 * EPDLE_BENCH_LOG (firmware/toolchain/README.md).
 */
#ifndef EPDLE_BENCH_H
#define EPDLE_BENCH_H

#include <gpsim/trigger.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

class P16F18326;

class Bench : public TriggerObject {
  public:
    Bench(P16F18326 *cpu, const char *scenario, const char *log_path);
    ~Bench();

    void callback() override;
    void callback_print() override {}

    /* From the chip. */
    void latch_changed(int port);
    void tris_changed(int port, unsigned int before, unsigned int after);
    void tx_byte(unsigned int byte);
    void sleep_changed(bool asleep);
    void chip_reset(int type);
    void clock_changed(double hz);
    void config_word(unsigned int address, unsigned int word);
    void nvm_event(const char *what, unsigned int address, unsigned int con);
    void note(const char *what);

  private:
    struct Step {
        std::string op;
        std::string arg;
    };
    void next_step();
    void schedule_s(double seconds);
    void log(const char *kind, const std::string &text);
    void drive(int port, int bit, bool level);
    void busy_for(double seconds, const char *why);
    uint64_t cycles_in(double seconds);
    void check_reset_before(unsigned command);
    void check_inputs_unpowered(unsigned int high);
    void uart_next_bit();

    P16F18326 *chip;
    FILE *out;
    std::vector<Step> steps;
    size_t step_index = 0;
    bool started = false;

    /* What the bench is waiting for: a time, the line to finish, a reply, a release. */
    enum Wait { NONE, TIME, UART, REPLY, PRESS, BUSY_END, MCLR };
    Wait waiting = NONE;
    uint64_t deadline = 0;

    /* host UART; the line's level between bytes (the `rx` step: 0 an unpowered adapter) */
    bool rx_idle_high = true;
    std::vector<uint8_t> tx_queue;
    size_t tx_pos = 0;
    int bit_index = 0;
    bool uart_active = false;
    uint64_t uart_next = 0;
    size_t replies_seen = 0;
    size_t replies_at_step = 0;

    /* panel */
    unsigned int last_latc = 0;
    uint8_t shift = 0;
    int bits = 0;
    bool busy = false;
    bool busy_pin_pending = false;
    uint64_t busy_pin_at = 0;
    uint64_t busy_end = 0;
    unsigned busy_delay_us = 0;
    bool powered = false;
    int reset_pulses = 0;
    bool first_command_seen = false;
    uint64_t rst_fell_at = 0;
    uint64_t ready_at = 0;
    /* The registers a refresh's waveform and time follow (UC8151D): the command whose data
     * comes, how many of its bytes came, PANEL_SETTING's first byte, PLL_CONTROL and the
     * LUT registers 0x20-0x24. A power-up resets them. */
    unsigned command = 0;
    unsigned data_index = 0;
    uint8_t panel_setting = 0x0F;
    uint8_t pll = 0x3C;
    uint8_t lut[5][44] = {};
    void register_data(uint8_t value);
    double refresh_seconds();

    /* seconds at cycle time_cycle (the clock may change) */
    double time_base = 0.0;
    uint64_t time_cycle = 0;
    double now_s();
};

#endif
