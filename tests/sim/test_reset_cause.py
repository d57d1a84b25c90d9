"""The last reset's cause (PCON0) in INFO and `epdle info`, each cause the simulated board
can bring about; and the FVR's calibration the host gives the device (EEPROM)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest

from epdle.cli import main
from epdle.link import Device
from epdle.link.device import DeviceRejected
from epdle.link.protocol import ResetCause
from epdle.sim import Board, board_behind

HAL_WATCHDOG_AWAKE_MS = 64_000  # firmware/hal/hal.h


@pytest.fixture
def device() -> Iterator[Device]:
    with Device.open("sim://", timeout=0.5, retries=4) as opened:
        yield opened


def the_board(device: Device) -> Board:
    board = board_behind(device.serial)
    assert board is not None
    return board


def asleep(board: Board) -> bool:
    return board.run_until(lambda b: b.asleep and not b.panel_powered, 10_000)


def test_a_power_on_is_told() -> None:
    with Device.open("sim://", timeout=0.5, retries=4) as device:
        assert device.info().reset_cause == ResetCause.POWER_ON


def brown_out(board: Board) -> None:
    # The cell gives out asleep (2.7 V, 70 ohm: about 2.6 V with the CPU awake): the press's
    # wake trips the brown-out reset (here at the highest point of its range); a new cell.
    board.select_bor_trip("max")
    board.set_supply(cell_volts=2.7, cell_ohms=70.0)
    board.run_ms(1_000)
    board.press_button()
    assert board.run_until(lambda b: b.brownouts == 1, 5_000)
    board.set_supply(cell_volts=3.0, cell_ohms=15.0)


def watchdog(board: Board) -> None:
    board.press_button()
    board.run_ms(5)
    board.hang_firmware()
    assert board.run_until(lambda b: b.watchdog_resets == 1, HAL_WATCHDOG_AWAKE_MS + 2_000)


def reset_pin(board: Board) -> None:
    board.reset_pin()


def cell_out_and_in(board: Board) -> None:
    board.schedule_power_cut(0)
    board.run_ms(100)
    board.power_on()


CAUSES: list[tuple[Callable[[Board], None], ResetCause]] = [
    (brown_out, ResetCause.BROWNOUT),
    (watchdog, ResetCause.WATCHDOG),
    (reset_pin, ResetCause.MCLR),
    (cell_out_and_in, ResetCause.POWER_ON),
]


@pytest.mark.parametrize(("cause", "expected"), CAUSES)
def test_each_reset_the_board_can_cause_is_told_once_read(
    device: Device, cause: Callable[[Board], None], expected: ResetCause
) -> None:
    board = the_board(device)
    device.info()
    assert asleep(board)
    cause(board)
    assert asleep(board)
    info = device.info()
    assert info.reset_cause == expected
    # A brown-out says the cell is weak; the others say nothing of it.
    assert info.battery_low is (expected == ResetCause.BROWNOUT)
    # Read (and cleared) once at boot: asking again says the same, until the next reset.
    assert device.info().reset_cause == expected


def test_epdle_info_prints_the_reset_cause_and_json_carries_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened = Device.open("sim://", timeout=0.5, retries=4)
    board = the_board(opened)
    opened.info()
    assert asleep(board)
    board.reset_pin()
    assert asleep(board)
    monkeypatch.setattr("epdle.cli.link.open_device", lambda args: opened)
    assert main(["info", "--port", "sim://"]) == 0
    assert "last reset: reset pin (MCLR)" in capsys.readouterr().out
    again = Device.open("sim://", timeout=0.5, retries=4)
    monkeypatch.setattr("epdle.cli.link.open_device", lambda args: again)
    assert main(["info", "--port", "sim://", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reset_cause"] == "power-on"


def test_the_host_s_calibration_corrects_the_fvr_and_outlives_a_power_cut(
    device: Device,
) -> None:
    # This chip's FVR 4 % high, the edge of its tolerance: the device counts with 1.024 V
    # and reads VDD 4 % low, so it refuses a half-used cell (2.9 V, 30 ohm) it could refresh.
    board = the_board(device)
    board.set_fvr(1.024 * 1.04)
    board.set_supply(cell_volts=2.9, cell_ohms=30.0)
    assert asleep(board)
    refreshes = board.refresh_count
    board.press_button()
    assert asleep(board) and board.run_until(lambda b: b.time_ms > 2_000, 3_000)
    info = device.info()
    assert info.battery_low and board.refresh_count == refreshes and info.fvr_mv == 1024
    assert info.vdd_mv is not None and info.vdd_mv < 2_800
    # The host measures VDD at the board: no cell resistance, the meter reads 2.900 V.
    board.set_supply(cell_ohms=0.001)
    board.run_ms(100)
    assert device.calibrate(2_900) == pytest.approx(1065, abs=2)
    # A VDD that would put the FVR outside its tolerance is refused; nothing changes.
    with pytest.raises(DeviceRejected):
        device.calibrate(2_500)
    board.schedule_power_cut(0)
    board.run_ms(100)
    board.power_on()
    board.set_supply(cell_ohms=30.0)
    assert asleep(board)
    assert device.info().fvr_mv == pytest.approx(1065, abs=2)
    board.press_button()
    assert board.run_until(lambda b: b.refresh_count > refreshes, 30_000)
    assert asleep(board)
    info = device.info()
    assert not info.battery_low
    # The last measurement, under POWER_ON's load: 2.9 V less 9.5 mA x 30 ohm, right now.
    assert info.vdd_mv == pytest.approx(2_615, abs=15)
    assert board.violations() == []
