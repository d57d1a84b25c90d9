"""An unpowered USB-serial adapter left on J1, with the whole firmware (the real link,
as `epdle sim` runs it): the board stops feeding it, and a host is heard again once the
adapter has power."""

from __future__ import annotations

from epdle.link import Device
from epdle.sim import Board, board_behind

# Issue 42's goal for standby with an unpowered adapter on J1 (hardware/power.md).
STANDBY_GOAL_UA = 5.0
# Standby without it: the MCU's IPD with the low-power regulator (hardware/power.md).
STANDBY_ALONE_UA = 1.0
# The firmware looks at RX once a watchdog period (HAL_SLEEP_LONG_MS, about 1 s).
LOOK_PERIOD_MS = 1_024.0
WINDOW_MS = 30_000.0


def mean_current_ua(board: Board, ms: float) -> float:
    """The mean current drawn over the next `ms` of simulated time."""
    before = board.charge_drawn_c
    board.run_ms(ms)
    return (board.charge_drawn_c - before) / (ms * 1e-3) * 1e6


def lines_off(board: Board) -> bool:
    return board.asleep and board.net_level("UART_TX") == 0


def test_unpowered_adapter_is_not_fed_and_a_host_is_heard_once_it_has_power() -> None:
    with Device.open("sim://", timeout=0.5, retries=4) as device:
        board = board_behind(device.serial)
        assert board is not None
        assert device.info().frames >= 1  # the link works before
        assert board.run_until(lambda b: b.asleep, 10_000)
        assert mean_current_ua(board, WINDOW_MS) < STANDBY_ALONE_UA

        board.set_adapter("unpowered")
        # Noticed once (the falling RX wakes the CPU as a start bit would), then the
        # lines stay off: RC1 low, and RA1 pulled up only for each look.
        noticed = board.run_until(lines_off, LOOK_PERIOD_MS)
        standby = mean_current_ua(board, WINDOW_MS)
        assert standby <= STANDBY_GOAL_UA, f"{standby:.2f} uA with an unpowered adapter"
        assert noticed and lines_off(board) and board.net_level("UART_RX") == 0

        # Powered again: RX rises, and at the next look the UART is back.
        board.set_adapter("powered")
        assert board.run_until(lambda b: b.net_level("UART_TX") == 1, 2 * LOOK_PERIOD_MS)
        assert board.net_level("UART_RX") == 1
        assert device.info().frames >= 1
        assert board.violations() == []
