/*
 * sim_battery.c - the supply path, integrated over virtual time.
 *
 *   cell E --R_cell--+-- VDD (C1 + C2 + reservoir) -- the chip
 *                    |
 *                   U2 (TPS22860, R_on, turn-on ramp)
 *                    |
 *                    +-- panel rail (C3 + the module's input capacitance) -- the module
 *
 * Two nodes with capacitance, integrated by backward Euler with a step that
 * starts small at every change of load or switch and grows while little
 * moves: switching U2 on shares VDD's charge with the rail's, the cell refills
 * both through its resistance, and the brown-out reset sees VDD as it goes.
 * Against the PIC16F18326's supply rules (F device; DS40001839, D002 and RST06).
 * What the model leaves out: docs/sim-fidelity.md, "The supply path".
 */
#include "sim_battery.h"

#include "sim_board.h"
#include "sim_clock.h"
#include "sim_violation.h"

#include <math.h>

/* A fresh CR2032: the nominal 3.0 V the power model counts energy at, and the middle of
 * the 10-20 ohm the makers give for a fresh cell (more when cold or run down). */
#define FRESH_OPEN_CIRCUIT_V 3.0
#define FRESH_INTERNAL_OHM 15.0

/* hardware/bom.md: C1 100 nF at U1, C2 10 uF bulk at VDD, C3 1 uF at U2's VOUT. */
#define C1_F 0.1e-6
#define C2_F 10e-6
#define C3_F 1e-6
/* The reservoir at U2's VIN (hardware/power.md, "Switching the panel on"), at its
 * capacitance in use: C4 and C5, 220 uF X5R parts that keep about 100 uF each at the
 * 2.7-3.0 V of DC bias they sit at (Murata's DC-bias curve of the series: about half);
 * 0 is the board before it. */
#define RESERVOIR_F 200e-6
/* The module's input capacitance: the most the design must take (hardware/power.md). */
#define MODULE_F 10e-6
/* TPS22860: on-resistance, about 1 ohm at a 3 V bias, and a turn-on ramp. A ramp shorter
 * than the cell's R x C (milliseconds here) is charge sharing whatever its length: the
 * capacitors, not the cell, fill the rail. */
#define SWITCH_ON_OHM 1.0
#define SWITCH_RISE_NS 100000ull
/* Below this the chip's and the module's loads fall with their voltage (no current
 * source drives a node negative). */
#define LOAD_KNEE_V 1.0

/* D002: VDD min 2.3 V up to Fosc = 16 MHz, 2.5 V above. */
#define VDD_MIN_UP_TO_16MHZ_V 2.3
#define VDD_MIN_ABOVE_16MHZ_V 2.5
/* RST06: VBOR min / typ / max with BORV = HIGH and LOW (F device); RST07: hysteresis. */
#define VBOR_HIGH_MIN_V 2.55
#define VBOR_HIGH_TYP_V 2.70
#define VBOR_HIGH_MAX_V 2.85
#define VBOR_LOW_MIN_V 2.30
#define VBOR_LOW_TYP_V 2.45
#define VBOR_LOW_MAX_V 2.60
#define VBOR_HYSTERESIS_V 0.04
/* RST01: below VPOR (1.6 V typ) the power-on reset holds the chip, BOR or not. */
#define VPOR_V 1.6

/* Integration step: from 100 ns after a change, doubling while a step moves VDD or the
 * rail by less than 2 mV, at most 1 ms; settled once both sit within 0.1 mV of where
 * the loads take them. */
#define STEP_MIN_NS 100ull
#define STEP_MAX_NS 1000000ull
#define STEP_GROW_BELOW_V 0.002
#define SETTLED_V 0.0001

/* The build passes the configuration pragmas of ports/pic16f18326/main.c. */
/* The clock at reset (RSTOSC); the firmware raises it later (sim_battery_clock_set). */
#if defined(SIM_CONFIG_RSTOSC_HFINT32)
#define CONFIG_FOSC_HZ 32000000u
#elif defined(SIM_CONFIG_RSTOSC_HFINT1)
#define CONFIG_FOSC_HZ 1000000u
#else
#error "RSTOSC of ports/pic16f18326/main.c unknown to the simulated board"
#endif
#if defined(SIM_CONFIG_BOREN_ON)
#define CONFIG_BOR_MODE SIM_BOR_ALWAYS
#elif defined(SIM_CONFIG_BOREN_SLEEP)
#define CONFIG_BOR_MODE SIM_BOR_AWAKE
#elif defined(SIM_CONFIG_BOREN_SBOREN)
#define CONFIG_BOR_MODE SIM_BOR_SOFTWARE
#else
#define CONFIG_BOR_MODE SIM_BOR_OFF
#endif
#if defined(SIM_CONFIG_BORV_HIGH)
#define CONFIG_VBOR VBOR_HIGH_MIN_V, VBOR_HIGH_TYP_V, VBOR_HIGH_MAX_V
#else
#define CONFIG_VBOR VBOR_LOW_MIN_V, VBOR_LOW_TYP_V, VBOR_LOW_MAX_V
#endif

static sim_supply_rules_t rules;
static sim_supply_t supply;
static sim_bor_trip_t trip_choice;
static struct {
    double vdd, rail;
    uint64_t last_ns;
    uint64_t step_ns;
    bool settled;
    bool switch_on;
    uint64_t ramp_start_ns;
} net;
static sim_supply_report_t report;
static double vdd_min_running_v;
static bool below_spec_reported; /* once per sag below the clock's minimum */
static uint32_t fosc_hz;         /* the CPU's clock now */
static bool design_clock;        /* sim_battery_rules() fixed it: the firmware's is ignored */
/* This chip's FVR buffer at 1x: 1.024 V nominal, +-4 % from part to part (DS40001839 FVR01). */
#define FVR_NOMINAL_V 1.024
static double fvr_v = FVR_NOMINAL_V;

static double trip_v(void) {
    return trip_choice == SIM_BOR_TRIP_MIN   ? rules.vbor_min_v
           : trip_choice == SIM_BOR_TRIP_MAX ? rules.vbor_max_v
                                             : rules.vbor_typ_v;
}

static void report_reset(void) {
    report.min_vdd_switch_on = INFINITY;
    report.min_vdd_refresh = INFINITY;
    report.min_vdd_bor_armed = INFINITY;
    report.min_vdd_running = INFINITY;
    report.margin_switch_on_v = INFINITY;
    report.margin_refresh_v = INFINITY;
    report.floor_switch_on_v = INFINITY;
    report.floor_refresh_v = INFINITY;
    report.charge_c = 0.0;
    report.brownouts = 0;
    report.cpu_out_of_spec_ns = 0;
}

void sim_battery_reset(void) {
    static const sim_supply_rules_t configured = {CONFIG_FOSC_HZ, CONFIG_BOR_MODE, CONFIG_VBOR};

    rules = configured;
    supply.cell_v = FRESH_OPEN_CIRCUIT_V;
    supply.cell_ohm = FRESH_INTERNAL_OHM;
    supply.reservoir_uf = RESERVOIR_F * 1e6;
    supply.panel_uf = MODULE_F * 1e6;
    trip_choice = SIM_BOR_TRIP_TYP;
    net.last_ns = sim_now();
    net.switch_on = false;
    sim_battery_power_restored();
    report_reset();
    vdd_min_running_v = INFINITY;
    below_spec_reported = false;
    fosc_hz = CONFIG_FOSC_HZ;
    design_clock = false;
    fvr_v = FVR_NOMINAL_V;
}

void sim_battery_clock_reset(void) {
    fosc_hz = rules.fosc_hz;
}

void sim_battery_clock_set(uint32_t hz) {
    if (!design_clock) {
        fosc_hz = hz;
    }
}

void sim_fvr_set(double volts) {
    fvr_v = volts;
}

double sim_fvr_v(void) {
    return fvr_v;
}

void sim_battery_rules(const sim_supply_rules_t *design) {
    rules = *design;
    fosc_hz = design->fosc_hz;
    design_clock = true;
}

void sim_battery_power_restored(void) {
    net.vdd = supply.cell_v;
    net.rail = 0.0;
    net.last_ns = sim_now();
    net.step_ns = STEP_MIN_NS;
    net.settled = false;
}

/* ---- host API ------------------------------------------------------------------ */

void sim_battery_set(double open_circuit, double resistance) {
    supply.cell_v = open_circuit;
    supply.cell_ohm = resistance;
    net.settled = false;
    net.step_ns = STEP_MIN_NS;
}

void sim_supply_get(sim_supply_t *out) {
    *out = supply;
}

void sim_supply_set(const sim_supply_t *in) {
    supply = *in;
    if (sim_now() == 0u) {
        sim_battery_power_restored(); /* a board not yet run starts on this cell */
    }
    net.settled = false;
    net.step_ns = STEP_MIN_NS;
}

void sim_bor_trip_select(sim_bor_trip_t which) {
    trip_choice = which;
}

double sim_bor_trip_v(void) {
    return trip_v();
}

double sim_bor_trip_max_v(void) {
    return rules.bor_mode == SIM_BOR_OFF ? 0.0 : rules.vbor_max_v;
}

double sim_battery_vdd_min_running(void) {
    return vdd_min_running_v;
}

void sim_supply_report_start(void) {
    report_reset();
}

void sim_supply_report(sim_supply_report_t *out) {
    *out = report;
}

void sim_supply_brownout_counted(void) {
    report.brownouts++;
}

double sim_battery_vdd(void) {
    return net.vdd;
}

bool sim_battery_bor_released(void) {
    return net.vdd >= (rules.bor_mode == SIM_BOR_OFF ? VPOR_V : trip_v() + VBOR_HYSTERESIS_V);
}

/* ---- the cells' curves ------------------------------------------------------------------ */

/*
 * A cell's open-circuit voltage and internal resistance against the share of its rated
 * capacity drawn, at 20 C, as piecewise-linear curves through points read from its makers'
 * data (hardware/power.md, "The cell by numbers", cites each): Li/MnO2 coin cells sit near
 * 2.9-3.0 V for most of their capacity while their resistance climbs, steeply in the last
 * fifth; an alkaline cell's voltage falls all along; a Li/FeS2 cell holds about 1.7 V open
 * circuit to near its end. Series cells: the pack's figures (twice one cell's).
 */
#define CURVE_POINTS 8u

typedef struct {
    double used[CURVE_POINTS]; /* share of the rated capacity drawn, 0 .. 1, rising */
    double open_circuit_v[CURVE_POINTS];
    double internal_ohm[CURVE_POINTS];
    sim_cell_rating_t rating;
} cell_curve_t;

static const cell_curve_t cell_curves[SIM_CELL_KINDS] = {
    /* CR2032: Panasonic CR2032 225 mAh to 2.0 V (standard drain 0.2 mA), Energizer CR2032
     * 235 mAh and 10-30 ohm; makers rate about 3 mA continuous, 15 mA in pulses. */
    {{0.0, 0.1, 0.5, 0.65, 0.8, 0.9, 0.97, 1.0},
     {3.20, 3.05, 2.95, 2.92, 2.85, 2.75, 2.55, 2.00},
     {15.0, 15.0, 22.0, 30.0, 45.0, 70.0, 130.0, 300.0},
     {225.0, 0.01, 3.0, 15.0}},
    /* CR2450: the same chemistry on 1.5 times the electrode area of a CR2032 (24.5 mm
     * against 20 mm): its resistance two thirds of the CR2032's; Panasonic and Energizer
     * CR2450 620 mAh to 2.0 V; 3 mA continuous, 15 mA pulses. */
    {{0.0, 0.1, 0.5, 0.65, 0.8, 0.9, 0.97, 1.0},
     {3.20, 3.05, 2.95, 2.92, 2.85, 2.75, 2.55, 2.00},
     {10.0, 10.0, 14.7, 20.0, 30.0, 46.7, 86.7, 200.0},
     {620.0, 0.01, 3.0, 15.0}},
    /* Two AAA alkaline (Energizer E92): about 1,200 mAh at 25 mA to 0.8 V a cell, 1.6 V
     * open circuit fresh falling through 1.3 V near half its capacity; 0.15-0.3 ohm a cell
     * rising towards the end; 2-3 % a year on the shelf (Energizer's alkaline handbook).
     * No continuous or pulse limit is taken from a data sheet (0: not rated here). */
    {{0.0, 0.1, 0.3, 0.5, 0.7, 0.85, 0.95, 1.0},
     {3.20, 3.00, 2.80, 2.64, 2.48, 2.30, 2.10, 1.80},
     {0.30, 0.30, 0.40, 0.50, 0.70, 1.00, 1.60, 3.00},
     {1200.0, 0.03, 0.0, 0.0}},
    /* Two AAA lithium (Energizer L92, Li/FeS2): 1,200 mAh at 25 mA to 0.8 V a cell, 1.8 V
     * open circuit fresh and about 1.7 V to near the end at small loads; a fraction of an
     * ohm; 20-year shelf life (under 1 % a year); -40 to 60 C. */
    {{0.0, 0.05, 0.5, 0.85, 0.95, 0.98, 0.99, 1.0},
     {3.60, 3.56, 3.48, 3.40, 3.20, 2.90, 2.60, 2.00},
     {0.30, 0.30, 0.35, 0.45, 0.60, 1.00, 2.00, 4.00},
     {1200.0, 0.007, 1500.0, 2000.0}},
};

static double along(const double *xs, const double *ys, double x) {
    uint8_t i;

    if (x <= xs[0]) {
        return ys[0];
    }
    for (i = 1u; i < CURVE_POINTS; i++) {
        if (x <= xs[i]) {
            return ys[i - 1u] + (ys[i] - ys[i - 1u]) * (x - xs[i - 1u]) / (xs[i] - xs[i - 1u]);
        }
    }
    return ys[CURVE_POINTS - 1u];
}

int sim_cell_set(sim_cell_t cell, double used) {
    const cell_curve_t *curve;

    if ((unsigned)cell >= SIM_CELL_KINDS || !(used >= 0.0 && used <= 1.0)) {
        return -1;
    }
    curve = &cell_curves[cell];
    sim_battery_set(along(curve->used, curve->open_circuit_v, used),
                    along(curve->used, curve->internal_ohm, used));
    return 0;
}

int sim_cell_rating(sim_cell_t cell, sim_cell_rating_t *out) {
    if ((unsigned)cell >= SIM_CELL_KINDS) {
        return -1;
    }
    *out = cell_curves[cell].rating;
    return 0;
}

/* ---- the network ------------------------------------------------------------------ */

static double vdd_farads(void) {
    return C1_F + C2_F + supply.reservoir_uf * 1e-6;
}

static double rail_farads(void) {
    return C3_F + supply.panel_uf * 1e-6;
}

/* A load's current at its node's voltage: as given above the knee, falling to 0 below it. */
static double load_at(double amps, double volts) {
    return volts >= LOAD_KNEE_V ? amps : volts > 0.0 ? amps * volts / LOAD_KNEE_V : 0.0;
}

/* How far U2's output may rise at time t: its ramp, then fully on. */
static double switch_limit(uint64_t t_ns, double vdd) {
    uint64_t since = t_ns - net.ramp_start_ns;

    if (since >= SWITCH_RISE_NS) {
        return vdd;
    }
    return vdd * (double)since / (double)SWITCH_RISE_NS;
}

/* One backward-Euler step of dt seconds ending at t_ns; returns the larger change. */
static double step(const sim_supply_load_t *load, uint64_t t_ns, double dt) {
    double cd = vdd_farads() / dt;
    double cr = rail_farads() / dt;
    double g_cell = supply.cell_ohm > 0.0 ? 1.0 / supply.cell_ohm : 1e6;
    double g_sw = 1.0 / SWITCH_ON_OHM;
    double i_mcu = load_at(load->mcu_a, net.vdd);
    double i_panel = load_at(load->panel_a, net.rail);
    double vdd;
    double rail;

    if (!load->switch_on) {
        /* Off: the rail keeps its charge but for what the module draws from it. */
        rail = net.rail - i_panel / cr;
        rail = rail > 0.0 ? rail : 0.0;
        vdd = (cd * net.vdd + g_cell * supply.cell_v - i_mcu) / (cd + g_cell);
    } else {
        double limit = switch_limit(t_ns, net.vdd);

        if (limit < net.vdd) {
            /* Ramping: U2 passes what lifts the rail towards its ramp, never backwards. */
            double i_sw;

            rail = (cr * net.rail - i_panel + g_sw * limit) / (cr + g_sw);
            i_sw = g_sw * (limit - rail);
            if (i_sw < 0.0) {
                i_sw = 0.0;
                rail = net.rail - i_panel / cr;
            }
            vdd = (cd * net.vdd + g_cell * supply.cell_v - i_mcu - i_sw) / (cd + g_cell);
        } else {
            /* Fully on: both nodes together, through R_on. */
            double a11 = cd + g_cell + g_sw;
            double a22 = cr + g_sw;
            double b1 = cd * net.vdd + g_cell * supply.cell_v - i_mcu;
            double b2 = cr * net.rail - i_panel;
            double det = a11 * a22 - g_sw * g_sw;

            vdd = (b1 * a22 + g_sw * b2) / det;
            rail = (a11 * b2 + g_sw * b1) / det;
        }
    }
    {
        double moved = fabs(vdd - net.vdd) > fabs(rail - net.rail) ? fabs(vdd - net.vdd)
                                                                   : fabs(rail - net.rail);
        report.charge_c += g_cell * (supply.cell_v - vdd) * dt;
        net.vdd = vdd;
        net.rail = rail;
        return moved;
    }
}

/* Where the loads take the nodes once the ramp is over, and whether they are there. */
static bool at_rest(const sim_supply_load_t *load, uint64_t t_ns) {
    double i_mcu = load_at(load->mcu_a, net.vdd);
    double i_panel = load_at(load->panel_a, net.rail);
    double vdd_rest;

    if (load->switch_on && t_ns - net.ramp_start_ns < SWITCH_RISE_NS) {
        return false;
    }
    vdd_rest = supply.cell_v - supply.cell_ohm * (i_mcu + (load->switch_on ? i_panel : 0.0));
    if (fabs(net.vdd - vdd_rest) > SETTLED_V) {
        return false;
    }
    if (load->switch_on) {
        return fabs(net.rail - (vdd_rest - SWITCH_ON_OHM * i_panel)) <= SETTLED_V;
    }
    return i_panel == 0.0 || net.rail == 0.0;
}

static bool bor_armed(const sim_supply_load_t *load) {
    switch (rules.bor_mode) {
    case SIM_BOR_ALWAYS:
        return load->powered;
    case SIM_BOR_AWAKE:
        return load->powered && load->running;
    case SIM_BOR_SOFTWARE:
        return load->powered && load->sboren;
    default:
        return false;
    }
}

/* The least margin over the floor in use in a phase, and that floor (sim.h). */
static void note_margin(double floor, double *margin, double *at_floor) {
    if (net.vdd - floor < *margin) {
        *margin = net.vdd - floor;
        *at_floor = floor;
    }
}

/* The lowest VDD at which the CPU may run at its clock now (D002). */
static double clock_vdd_min(void) {
    return fosc_hz > 16000000u ? VDD_MIN_ABOVE_16MHZ_V : VDD_MIN_UP_TO_16MHZ_V;
}

static void check_rules(const sim_supply_load_t *load, uint64_t dt_ns) {
    double vdd_min = clock_vdd_min();
    bool armed = bor_armed(load);
    bool tripped = armed && net.vdd < trip_v();
    double floor = armed && rules.vbor_max_v > vdd_min ? rules.vbor_max_v : vdd_min;

    if (load->phase == SIM_PHASE_SWITCH_ON && net.vdd < report.min_vdd_switch_on) {
        report.min_vdd_switch_on = net.vdd;
    }
    if (load->phase == SIM_PHASE_REFRESH && net.vdd < report.min_vdd_refresh) {
        report.min_vdd_refresh = net.vdd;
    }
    if (load->powered && load->phase == SIM_PHASE_SWITCH_ON) {
        note_margin(floor, &report.margin_switch_on_v, &report.floor_switch_on_v);
    }
    if (load->powered && load->phase == SIM_PHASE_REFRESH) {
        note_margin(floor, &report.margin_refresh_v, &report.floor_refresh_v);
    }
    if (armed && net.vdd < report.min_vdd_bor_armed) {
        report.min_vdd_bor_armed = net.vdd;
    }
    if (!load->running) {
        return;
    }
    if (net.vdd < vdd_min_running_v) {
        vdd_min_running_v = net.vdd;
    }
    if (net.vdd < report.min_vdd_running) {
        report.min_vdd_running = net.vdd;
    }
    /* Anywhere from the trip point down the CPU is held in reset instead. */
    if (net.vdd < vdd_min && !tripped) {
        report.cpu_out_of_spec_ns += dt_ns;
        if (!below_spec_reported) {
            below_spec_reported = true;
            sim_violation("VDD %.3f V (cell %.2f V, %.1f ohm, %.1f mA) with the CPU running at"
                          " %u MHz: the datasheet asks %.1f V",
                          net.vdd, supply.cell_v, supply.cell_ohm,
                          (load->mcu_a + (load->switch_on ? load->panel_a : 0.0)) * 1e3,
                          (unsigned)(fosc_hz / 1000000u), vdd_min);
        }
    } else if (net.vdd >= vdd_min) {
        below_spec_reported = false;
    }
}

void sim_battery_advance(const sim_supply_load_t *load) {
    uint64_t now = sim_now();

    if (!load->supplied) {
        net.last_ns = now;
        net.switch_on = false;
        net.settled = true; /* nothing moves until the power comes back */
        return;
    }
    if (load->switch_on && !net.switch_on) {
        net.ramp_start_ns = net.last_ns;
    }
    net.switch_on = load->switch_on;
    while (net.last_ns < now) {
        uint64_t dt = now - net.last_ns;
        double moved;

        if (net.settled) {
            /* Nothing moves: the interval at rest, charged at the cell's current. */
            report.charge_c += (supply.cell_v - net.vdd) / supply.cell_ohm * (double)dt * 1e-9;
            net.last_ns = now;
            break;
        }
        if (dt > net.step_ns) {
            dt = net.step_ns;
        }
        if (load->switch_on && net.last_ns - net.ramp_start_ns < SWITCH_RISE_NS) {
            uint64_t ramp_step = SWITCH_RISE_NS / 50u;

            dt = dt < ramp_step ? dt : ramp_step;
        }
        net.last_ns += dt;
        moved = step(load, net.last_ns, (double)dt * 1e-9);
        check_rules(load, dt);
        if ((bor_armed(load) && net.vdd < trip_v()) || (load->powered && net.vdd < VPOR_V)) {
            sim_board_brownout();
        }
        if (moved < STEP_GROW_BELOW_V && net.step_ns < STEP_MAX_NS) {
            net.step_ns *= 2u;
        } else if (moved >= 4.0 * STEP_GROW_BELOW_V && net.step_ns > STEP_MIN_NS) {
            net.step_ns /= 2u;
        }
        net.settled = at_rest(load, net.last_ns);
    }
}

/* The next step of a transient: the chip's loads change only at events, which restart it. */
uint64_t sim_battery_next_step(void) {
    return net.settled ? SIM_NEVER : net.last_ns + net.step_ns;
}

void sim_battery_load_changed(void) {
    net.settled = false;
    net.step_ns = STEP_MIN_NS;
}
