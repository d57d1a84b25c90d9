"""Behaviour behind the messages: the sim:// port as pyserial's own handlers, the
presenter's back-off while a device is away, long input cut, bench samples spread."""

from __future__ import annotations

import serial

from epdle.link import register_url_handler
from epdle.session.commands import InputError, parse_line
from epdle.session.presenter import RECONNECT_MAX_INTERVAL_S, DevicePresenter
from epdle.words import even_sample


def test_the_sim_port_opens_and_closes_as_pyserial_ports_do() -> None:
    register_url_handler()
    port = serial.serial_for_url("sim://", baudrate=115200, timeout=0.1)
    assert port.is_open and not port.closed
    port.write(b"\x00")
    port.close()
    assert not port.is_open and port.closed
    # The board is closed with the port: another may open at once.
    again = serial.serial_for_url("sim://", baudrate=115200)
    again.close()


def test_a_missing_device_is_reported_once_and_retried_less_and_less_often() -> None:
    presenter = DevicePresenter("/dev/epdle-none", reconnect_interval=0.01)
    waits = []
    for _ in range(12):
        presenter._last_attempt = float("-inf")  # as if the wait had passed
        assert presenter.poll_events() == []
        waits.append(presenter._wait)
    assert presenter.lost is not None and "no such device" in presenter.lost
    assert waits == sorted(waits) and waits[0] == 0.02
    assert waits[-1] == RECONNECT_MAX_INTERVAL_S  # doubled each try, up to the cap
    assert not presenter.take_reconnected()  # still away


def test_a_huge_line_is_cut_in_the_error() -> None:
    try:
        parse_line("x" * 100_000)
    except InputError as error:
        message = str(error)
    assert len(message) < 300 and "(100000 characters)" in message


def test_bench_limit_samples_evenly_and_reproducibly() -> None:
    words = [f"w{index:04d}" for index in range(2315)]
    sample = even_sample(words, 100, seed=0)
    assert sample == even_sample(words, 100, seed=0)
    assert sample != even_sample(words, 100, seed=1)
    assert len(set(sample)) == 100
    # One word from each of 100 equal stretches: the whole list is covered.
    positions = [words.index(word) for word in sample]
    stretch = 2315 / 100
    assert all(int(i * stretch) <= p < int((i + 1) * stretch) + 1 for i, p in enumerate(positions))
    assert even_sample(words, None, seed=0) == words


def test_play_says_a_lost_device_once() -> None:
    import io

    from rich.console import Console

    from epdle.session.controller import Controller
    from epdle.session.one_board import Game
    from epdle.session.play import show_device_events
    from epdle.solver import Solver

    presenter = DevicePresenter("/dev/epdle-none", reconnect_interval=0.0)
    controller = Controller(Game(Solver("entropy"), top=1), presenter)
    output = io.StringIO()
    console = Console(file=output, width=200, color_system=None)
    printed = [show_device_events(console, controller) for _ in range(5)]
    assert printed == [True, False, False, False, False]
    assert output.getvalue().count("device lost") == 1


def test_nothing_but_info_is_sent_to_a_port_where_no_device_answers() -> None:
    """A terminal that is no longer the device's (a shell reused the pty) gets no frames."""
    import os

    import pytest

    from epdle.link import LinkError
    from epdle.link.protocol import Command, PacketReader
    from epdle.panel import Planes

    master, slave = os.openpty()
    try:
        os.set_blocking(master, False)
        presenter = DevicePresenter(os.ttyname(slave), timeout=0.1, retries=1)
        with pytest.raises(LinkError):
            presenter.publish([Planes.blank()])
        written = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            written += chunk
        packets = PacketReader().feed(written)
        assert packets and {packet.type for packet in packets} == {Command.INFO}
        assert not presenter.connected
    finally:
        os.close(master)
        os.close(slave)
