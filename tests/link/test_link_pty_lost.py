"""A device whose terminal closes in the middle of a push (a USB adapter pulled): the
push is "device lost" (the Device's error; `epdle push`'s one line, exit 1), and the
board's flash holds the old set or the new one, whole. The board runs behind a
PtyServer in this process; the host opens the terminal with pyserial, as a real port."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from link_campaign import board_set
from link_sim_support import encoded, suggestion_planes

from epdle.cli import main
from epdle.link import Device, DeviceLost
from epdle.sim import Board
from epdle.sim.pty_server import PtyServer

OLD = encoded(suggestion_planes(["crane", "slate"]))
NEW = encoded(suggestion_planes(["cigar", "rebut", "sissy", "humph"]))


class Served:
    def __init__(self) -> None:
        self.board = Board()
        self.server = PtyServer(self.board)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.server.serve, args=(self.stop,), daemon=True)
        self.thread.start()
        self.closed = False

    def pull(self) -> None:
        """The adapter pulled: the board stops answering and its terminal goes away."""
        if not self.closed:
            self.closed = True
            self.stop.set()
            self.thread.join(10)
            self.server.close()


@contextmanager
def served() -> Iterator[Served]:
    board = Served()
    try:
        yield board
    finally:
        board.pull()
        board.board.close()


def test_a_terminal_closed_mid_push_is_device_lost_and_keeps_the_old_set() -> None:
    with served() as served_board:
        with Device.open(served_board.server.path) as device:
            device.push(OLD)

            def pull_halfway(done: int, total: int) -> None:
                if done >= total // 2:
                    served_board.pull()

            with pytest.raises(DeviceLost):
                device.push(NEW, progress=pull_halfway)
        assert board_set(served_board.board) == OLD  # the upload never committed


def test_push_says_device_lost_in_one_line(tmp_path: Path, capsys) -> None:
    files = []
    for index, frame in enumerate(NEW):
        files.append(tmp_path / f"{index}.frame")
        files[-1].write_bytes(frame)
    with served() as served_board:
        with Device.open(served_board.server.path) as device:
            device.push(OLD)
        writes = served_board.board.nvm_op_count

        def pull_once_writing() -> None:
            # The board writes the new set's first rows: the upload is under way.
            while served_board.board.nvm_op_count == writes and not done.is_set():
                done.wait(0.001)
            served_board.pull()

        done = threading.Event()
        puller = threading.Thread(target=pull_once_writing, daemon=True)
        puller.start()
        try:
            code = main(["push", *map(str, files), "--port", served_board.server.path])
        finally:
            done.set()
            puller.join(10)
        errors = capsys.readouterr().err.strip().splitlines()
        assert code == 1
        assert len(errors) == 1
        assert errors[0].startswith("epdle push: error: device lost (")
        assert board_set(served_board.board) in (OLD, NEW)


def test_a_second_program_on_the_port_is_refused_and_the_first_goes_on(capsys) -> None:
    with served() as served_board, Device.open(served_board.server.path) as first:
        first.push(OLD)
        code = main(["info", "--port", served_board.server.path])
        errors = capsys.readouterr().err.strip().splitlines()
        assert code == 1
        assert len(errors) == 1
        assert "in use by another program" in errors[0]
        first.push(NEW)  # its session was not disturbed
        assert board_set(served_board.board) == NEW
