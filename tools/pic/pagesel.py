#!/usr/bin/env python3
"""Drop SDCC pic14's PCLATH restores after calls where no later jump needs them.

SDCC 4.2.0 brackets every CALL with ``PAGESEL target`` / ``CALL target`` /
``PAGESEL $``: the second PAGESEL puts PCLATH back on the caller's page for the
caller's next GOTO, CALL or computed jump. On the enhanced mid-range core a
jump inside the function can be a BRA (relative, 1 word like the GOTO, no
PCLATH); this rewrites one function (one ``S_<module>_<function> code``
section, which gplink places inside one page) at a time:

* every GOTO to a label of the same function becomes a BRA where it reaches
  (-256..+255 words); one that does not gets its own ``PAGESEL label`` (before
  the skip instruction that guards it, if any);
* a CALL to a label of the function (SDCC's indirect call) gets a PAGESEL;
* then every ``PAGESEL $`` is dropped: nothing in the function relies on what
  PCLATH holds when it gets there.

A function is left as SDCC wrote it unless every other PCLATH use in it sets
PCLATH itself: each CALL, and each GOTO out of the function, right after a
PAGESEL of its target, each write to PCL after a MOVWF PCLATH in the same
straight run of code, and no CALLW. Relocatable objects keep one section per
function, so the call graph (picreport.py's stack depth) reads as before.

Usage: pagesel.py FILE.asm... (rewritten in place; prints words saved).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

SKIPS = {"BTFSS", "BTFSC", "DECFSZ", "INCFSZ"}
DIRECTIVES = {
    "GLOBAL",
    "EXTERN",
    "RES",
    "RADIX",
    "LIST",
    "INCLUDE",
    "END",
    "CODE",
    "UDATA",
    "UDATA_SHR",
    "UDATA_OVR",
    "IDATA",
    "ERRORLEVEL",
    "__CONFIG",
}
BRA_MIN = -256
BRA_MAX = 255
LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):?\s*(;.*)?$")
INSTR = re.compile(r"^\t([A-Za-z_]\w*)(?:\t+(.*?))?\s*(;.*)?$")
SECTION = re.compile(r"^(\S+)\s+(code|udata|udata_shr|udata_ovr|idata)\b")


@dataclass
class Line:
    text: str
    op: str = ""  # upper-case mnemonic of an instruction, "" otherwise
    arg: str = ""
    label: str = ""


def parse(text: str) -> Line:
    m = INSTR.match(text)
    if m and m.group(1).upper() not in DIRECTIVES:
        return Line(text, m.group(1).upper(), (m.group(2) or "").strip())
    m = LABEL.match(text)
    if m and not SECTION.match(text):
        return Line(text, label=m.group(1))
    return Line(text)


class Unsafe(Exception):
    pass


def addresses(body: list[Line]) -> tuple[list[int], dict[str, int]]:
    at: list[int] = []
    labels: dict[str, int] = {}
    pc = 0
    for line in body:
        at.append(pc)
        if line.label:
            labels[line.label] = pc
        if line.op:
            pc += 1
    return at, labels


def prev_instr(body: list[Line], i: int, stop_at_label: bool = True) -> int:
    """Index of the instruction before body[i], -1 if none (or a label first)."""
    j = i - 1
    while j >= 0:
        if body[j].op:
            return j
        if body[j].label and stop_at_label:
            return -1
        j -= 1
    return -1


def check_pclath_uses(body: list[Line], local: set[str]) -> None:
    for i, line in enumerate(body):
        op, arg = line.op, line.arg
        if "$" in arg and arg not in ("$", "$-1"):
            raise Unsafe(f"{op} {arg}: an offset from $ across a dropped line")
        if op == "CALLW":
            raise Unsafe("CALLW")
        if op == "CALL" and arg in local:
            continue  # a call into the function (SDCC's indirect call): given a PAGESEL
        if op in ("CALL", "GOTO") and not (op == "GOTO" and (arg in local or arg.startswith("$"))):
            j = prev_instr(body, i)
            if j < 0 or body[j].op != "PAGESEL" or body[j].arg != arg:
                raise Unsafe(f"{op} {arg} without its PAGESEL")
        if op in ("MOVWF", "ADDWF", "SUBWF", "INCF", "DECF") and re.match(r"PCL\b(?!ATH)", arg):
            j = i - 1
            while j >= 0 and not body[j].label:
                if body[j].op == "MOVWF" and body[j].arg == "PCLATH":
                    break
                if body[j].op in ("GOTO", "BRA", "CALL", "RETURN", "RETLW"):
                    j = -1
                    break
                j -= 1
            if j < 0 or body[j].label:
                raise Unsafe("PCL written without PCLATH")


def table_entries(body: list[Line]) -> set[int]:
    """ids of the GOTOs of SDCC's jump tables: the run right after a MOVWF PCL (its label
    between), each entry one word, reached with PCLATH set by the dispatch itself."""
    entries: set[int] = set()
    state = ""  # "", "dispatched" (after MOVWF PCL), "table" (in the entries)
    for line in body:
        if line.op == "MOVWF" and line.arg == "PCL":
            state = "dispatched"
        elif line.label:
            state = "table" if state == "dispatched" else ""
        elif line.op == "GOTO" and state in ("dispatched", "table"):
            entries.add(id(line))
            state = "table"
        elif line.op:
            state = ""
    return entries


def rewrite(body: list[Line]) -> list[Line]:
    local = {line.label for line in body if line.label}
    check_pclath_uses(body, local)
    # ids of GOTO lines that keep a PAGESEL of their own: never a table's entry, which
    # stays a GOTO where a BRA does not reach
    far: set[int] = set()
    table = table_entries(body)
    while True:
        out: list[Line] = []
        for line in body:
            if (
                line.op == "GOTO"
                and (line.arg in local or line.arg.startswith("$"))
                and id(line) in far
                and id(line) not in table
            ):
                j = prev_instr(out, len(out), stop_at_label=False)
                if j >= 0 and out[j].op in SKIPS:
                    k = prev_instr(out, j)
                    if any(x.label for x in out[j + 1 :]):
                        raise Unsafe("far GOTO both skipped to and jumped to")
                    if k >= 0 and out[k].op in SKIPS:
                        raise Unsafe("far GOTO after two skips")
                    out.insert(j, Line(f"\tPAGESEL\t{line.arg}", "PAGESEL", line.arg))
                else:
                    out.append(Line(f"\tPAGESEL\t{line.arg}", "PAGESEL", line.arg))
                out.append(line)
            elif line.op == "CALL" and line.arg in local:
                j = prev_instr(out, len(out), stop_at_label=False)
                if j >= 0 and out[j].op in SKIPS:
                    raise Unsafe("local CALL after a skip")
                if j < 0 or out[j].op != "PAGESEL" or out[j].arg != line.arg:
                    out.append(Line(f"\tPAGESEL\t{line.arg}", "PAGESEL", line.arg))
                out.append(line)
            else:
                out.append(line)
        at, labels = addresses(out)
        changed = False
        for i, line in enumerate(out):
            if line.op == "GOTO" and line.arg in local and id(line) not in far:
                dist = labels[line.arg] - (at[i] + 1)
                if not BRA_MIN <= dist <= BRA_MAX:
                    far.add(id(line))
                    changed = id(line) not in table or changed
        if not changed:
            break
    result: list[Line] = []
    for i, line in enumerate(out):
        if (
            line.op == "GOTO"
            and id(line) not in far
            and (line.arg in local or line.arg.startswith("$"))
        ):
            result.append(Line(f"\tBRA\t{line.arg}", "BRA", line.arg))
        elif line.op == "PAGESEL" and line.arg == "$":
            j = prev_instr(out, i, stop_at_label=False)
            if j >= 0 and out[j].op in SKIPS:
                raise Unsafe("PAGESEL $ after a skip")
            continue  # nothing in the function relies on PCLATH any more
        else:
            result.append(line)
    return result


def process(path: str) -> int:
    with open(path, encoding="latin-1") as f:
        lines = [parse(t) for t in f.read().split("\n")]
    out: list[Line] = []
    saved = 0
    i = 0
    while i < len(lines):
        m = SECTION.match(lines[i].text)
        if not (m and m.group(2) == "code" and m.group(1).startswith("S_")):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while (
            j < len(lines) and not SECTION.match(lines[j].text) and lines[j].text.strip() != "end"
        ):
            j += 1
        body = lines[i + 1 : j]
        try:
            new = rewrite(body)
        except Unsafe:
            new = body
        saved += sum(1 for x in body if x.op) - sum(1 for x in new if x.op)
        out.append(lines[i])
        out.extend(new)
        i = j
    with open(path, "w", encoding="latin-1") as f:
        f.write("\n".join(x.text for x in out))
    return saved


def main() -> int:
    total = 0
    for path in sys.argv[1:]:
        total += process(path)
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
