"""A byte that arrives as the device decides to sleep is not slept on.

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
