"""`epdle sim selftest`: its output files, and its panels against the source images."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import epdle.sim
from epdle.cli import main
from epdle.cli.sim import MAX_BUTTON_TO_REFRESH_MS

IMAGES = sorted((Path(__file__).resolve().parents[2] / "images").glob("*.png"))


@pytest.fixture(scope="module")
def selftest(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    out = tmp_path_factory.mktemp("selftest")
    return main(["sim", "selftest", "--out", str(out)]), out


def test_selftest_writes_every_output(selftest: tuple[int, Path]) -> None:
    _, out = selftest
    assert (out / "trace.vcd").read_text().startswith("$version")
    for line in (out / "epd.jsonl").read_text().splitlines():
        assert set(json.loads(line)) == {"t_ms", "cmd", "len", "data", "crc32"}
    power = json.loads((out / "power.json").read_text())
    assert {"energy_per_update_mJ", "standby_uA"} <= set(power)
    assert power["standby_uA"] <= 1.0
    assert all(ms <= MAX_BUTTON_TO_REFRESH_MS for ms in power["button_to_refresh_command_ms"])
    assert len(power["button_to_refresh_command_ms"]) == 3


def test_selftest_panels_match_the_source_images(selftest: tuple[int, Path]) -> None:
    _, out = selftest
    panels = sorted(out.glob("panel-*.png"), key=lambda p: int(p.stem.split("-")[1]))
    assert len(panels) >= 3
    assert len(IMAGES) >= 1
    for panel in panels:
        # Refresh n shows frame n - 1: presses step through the frames from the first.
        number = int(panel.stem.split("-")[1])
        source = IMAGES[(number - 1) % len(IMAGES)]
        shown = np.asarray(Image.open(panel).convert("RGB"))
        expected = np.asarray(Image.open(source).convert("RGB"))
        assert shown.shape == expected.shape
        mismatched = int(np.any(shown != expected, axis=2).sum())
        assert mismatched == 0, f"{panel.name} differs from {source.name} in {mismatched} pixels"


def test_selftest_passes(selftest: tuple[int, Path]) -> None:
    code, _ = selftest
    assert code == 0


@pytest.mark.parametrize("latency_ms", [0, 1, 2, 3, 4, 5])
def test_selftest_passes_with_busy_falling_late(tmp_path: Path, latency_ms: int) -> None:
    args = ["sim", "selftest", "--out", str(tmp_path), "--presses", "2", "--sleep-ms", "100"]
    assert main([*args, "--busy-latency-ms", str(latency_ms)]) == 0
    power = json.loads((tmp_path / "power.json").read_text())
    assert power["busy_latency_ms"] == latency_ms
    # POWER_ON's BUSY falls latency_ms late, and the refresh command waits for it.
    transactions = [json.loads(line) for line in (tmp_path / "epd.jsonl").read_text().splitlines()]
    power_on = next(t["t_ms"] for t in transactions if t["cmd"] == 0x04)
    setting = next(t["t_ms"] for t in transactions if t["cmd"] == 0x00)
    assert setting - power_on >= latency_ms + 79.4


def test_selftest_refuses_a_latency_outside_0_to_5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "selftest", "--out", "unused", "--busy-latency-ms", "6"]) == 2
    assert "--busy-latency-ms" in capsys.readouterr().err


def test_selftest_fails_on_a_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class ViolatingBoard(epdle.sim.Board):
        def violations(self) -> list[str]:
            return ["t=1.000 ms: command 0x12 while BUSY", *super().violations()]

    monkeypatch.setattr(epdle.sim, "Board", ViolatingBoard)
    assert main(["sim", "selftest", "--out", str(tmp_path), "--presses", "1"]) == 1
    assert "command 0x12 while BUSY" in capsys.readouterr().out
