/*
 * sim_violation.h - the board's list of rule violations (panel protocol,
 * power rules, NVM rules), each stamped with the virtual time.
 */
#ifndef EPDLE_SIM_VIOLATION_H
#define EPDLE_SIM_VIOLATION_H

void sim_violation_reset(void);
void sim_violation(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif /* EPDLE_SIM_VIOLATION_H */
