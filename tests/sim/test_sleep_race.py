"""A byte that arrives as the device decides to sleep is not slept on.

Two sweeps: one in simulated time (a command sent at every moment around the
sleep), one over the HAL calls (a byte landing between any two of them, which
time alone cannot reach: calls that take no time sit at one instant).

The interrupt moves received bytes into a RAM ring. A byte queued during the
link's last idle poll sits in that ring; if the CPU went to SLEEP then, the
host's next start bit would wake it and be lost, and its packet with it.
The host here sends a 0x00 (an idle delimiter, harmless wherever it lands)
and a command at every moment around the device's decision to sleep: each
command must be answered.
"""

from __future__ import annotations

from epdle.link.protocol import Command, Packet, PacketReader, Reply
from epdle.sim import Board

BOOT_MS = 10_000
ANSWER_MS = 50


def _asleep_after_command(board: Board) -> float:
    """Wake the device with a command; the simulated time at which it sleeps again."""
    board.uart_send(b"\0" * 4)
    board.run_ms(5)
    board.uart_send(Packet(Command.INFO, 1).encode())
    assert board.run_until(lambda b: not b.asleep, 50)
    assert board.run_until(lambda b: b.asleep, 5_000)
    return board.time_ms


def test_a_command_arriving_as_the_device_falls_asleep_is_answered() -> None:
    # When does it fall asleep after a command? Same firmware, same inputs: same time.
    with Board() as board:
        assert board.run_until(lambda b: b.asleep, BOOT_MS)
        start = board.time_ms
        quiet_ms = _asleep_after_command(board) - start
    lost = []
    for step in range(40):
        lead_ms = 0.4 - step * 0.01  # from 0.4 ms before the sleep to just after it
        with Board() as board:
            assert board.run_until(lambda b: b.asleep, BOOT_MS)
            start = board.time_ms
            board.uart_send(b"\0" * 4)
            board.run_ms(5)
            board.uart_send(Packet(Command.INFO, 1).encode())
            board.run_ms(quiet_ms - 5 - lead_ms)
            board.uart_receive()
            board.uart_send(b"\0" + Packet(Command.INFO, 2).encode())
            board.run_ms(ANSWER_MS)
            replies = PacketReader().feed(board.uart_receive())
            if not any(p.type == Reply.INFO and p.seq == 2 for p in replies):
                lost.append(round(lead_ms, 2))
    assert lost == [], f"commands lost when sent {lost} ms before the device slept"


# How many HAL calls before the device's SLEEP the sweep below covers: the link's last
# idle polls, the sleep decision with interrupts off, and SLEEP itself.
HAL_CALLS_SWEPT = 400


def _woken_by_a_command(board: Board) -> None:
    board.uart_send(b"\0" * 4)
    board.run_ms(5)
    board.uart_send(Packet(Command.INFO, 1).encode())


def test_a_byte_landing_between_any_two_hal_calls_before_sleep_is_not_slept_on() -> None:
    """The interrupt taken between any two HAL calls (not only where time passes): a
    packet's first byte completes as the firmware enters each of the HAL calls before
    it sleeps, the rest follows; the packet must be answered every time."""
    with Board() as board:
        assert board.run_until(lambda b: b.asleep, BOOT_MS)
        _woken_by_a_command(board)
        assert board.run_until(lambda b: not b.asleep, 50)
        assert board.run_until(lambda b: b.asleep, 5_000)
        sleep_call = board.hal_calls  # the SLEEP's own HAL call: nothing runs after it
    wire = Packet(Command.INFO, 2).encode()
    lost = []
    for call in range(sleep_call - HAL_CALLS_SWEPT, sleep_call + 1):
        with Board() as board:
            assert board.run_until(lambda b: b.asleep, BOOT_MS)
            _woken_by_a_command(board)
            board.uart_byte_at_hal_call(call, wire[0])
            assert board.run_until_byte_landed(5_000)
            board.uart_receive()
            board.uart_send(wire[1:])
            board.run_ms(ANSWER_MS)
            replies = PacketReader().feed(board.uart_receive())
            if not any(p.type == Reply.INFO and p.seq == 2 for p in replies):
                lost.append(sleep_call - call)
    assert lost == [], f"packets lost when their first byte came {lost} HAL calls before SLEEP"
