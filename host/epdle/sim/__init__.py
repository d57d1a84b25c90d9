"""The simulated board: the firmware's C, compiled for the host, on a model of the board.

`Board` (board.py) loads libepdle_sim.so (library.py) through ctypes, boots the firmware
at t = 0 and drives its virtual clock: the firmware runs only inside `run_ms` and
friends, so a 15 s panel refresh costs milliseconds of wall time. power.py turns its
power counters into the report; pty_server.py puts a board behind a real serial port.
"""

from epdle.sim.board import (
    EEPROM_BYTES,
    FLASH_ROW_WORDS,
    FLASH_ROWS,
    FLASH_WORDS,
    NETS,
    Board,
    EpdTransaction,
    board_behind,
)
from epdle.sim.library import LIBRARY_ENV, LIBRARY_NAME, SimError, library_path
from epdle.sim.power import PowerReport

__all__ = [
    "EEPROM_BYTES",
    "FLASH_ROWS",
    "FLASH_ROW_WORDS",
    "FLASH_WORDS",
    "LIBRARY_ENV",
    "LIBRARY_NAME",
    "NETS",
    "Board",
    "EpdTransaction",
    "PowerReport",
    "SimError",
    "board_behind",
    "library_path",
]
