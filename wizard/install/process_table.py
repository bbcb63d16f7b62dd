"""Reads the Linux process table from /proc: who belongs to a step, and is any of it waiting for input.

Why: two runner decisions need more than the child's pid. Stopping a step must reach every process
it started — its process group, but also anything that moved to another group and kept running —
so the runner collects the step's session members and descendants before each signal. And "output
stalled on a line ending in `:`" is only a guess at a prompt: a build printing `Building wheel for x:`
and then compiling for minutes stalls the same way. The kernel knows better: a process blocked in
`read()` on the terminal is waiting for an answer, one blocked in `wait4()` or reading a pipe is not.
`/proc/<pid>/task/<tid>/syscall` says which (readable for our own children). Where it cannot be read
(another OS, a locked-down /proc, an unknown architecture) the answer is "don't know" and the runner
falls back to the text rule.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass

from wizard.patterns import ascii_digits

PROC = "/proc"

#: Syscall numbers by machine: reads (the first argument is the fd) and waits on several fds.
_SYSCALLS = {
    "x86_64": ({0, 17, 19}, {7, 23, 232, 270, 271, 281, 441}),
    "aarch64": ({63, 65, 67}, {22, 72, 73, 441}),
}


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    pgrp: int
    session: int
    state: str

    @property
    def alive(self) -> bool:
        return self.state not in ("Z", "X")


def read_proc(pid: int) -> Proc | None:
    """One process from /proc/<pid>/stat, or None when it is gone."""
    try:
        with open(f"{PROC}/{pid}/stat", "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    fields = data[data.rfind(")") + 2:].split()
    if len(fields) < 4:
        return None
    return Proc(pid, int(fields[1]), int(fields[2]), int(fields[3]), fields[0])


def process_table() -> dict[int, Proc]:
    """Every process visible in /proc (empty where there is no /proc)."""
    table: dict[int, Proc] = {}
    try:
        names = os.listdir(PROC)
    except OSError:
        return table
    for name in names:
        if ascii_digits(name):
            proc = read_proc(int(name))
            if proc is not None:
                table[proc.pid] = proc
    return table


def step_processes(leader: int, table: dict[int, Proc] | None = None) -> set[int]:
    """The live processes of a step: its session (the pty child leads one) and all descendants."""
    table = process_table() if table is None else table
    found = {p.pid for p in table.values() if p.session == leader and p.alive}
    children: dict[int, list[int]] = {}
    for p in table.values():
        children.setdefault(p.ppid, []).append(p.pid)
    todo = [leader]
    while todo:
        for kid in children.get(todo.pop(), ()):
            if kid not in found and table[kid].alive:
                found.add(kid)
                todo.append(kid)
    if leader in table and table[leader].alive:
        found.add(leader)
    return found


def is_alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    proc = read_proc(pid)
    return proc is not None and proc.alive


def _is_terminal(pid: int, fd: int) -> bool:
    try:
        target = os.readlink(f"{PROC}/{pid}/fd/{fd}")
    except OSError:
        return False
    return target.startswith(("/dev/pts/", "/dev/tty", "/dev/console"))


def waiting_for_input(pids: set[int]) -> bool | None:
    """Is one of these processes blocked reading its terminal?

    True: a thread sits in `read()` on a terminal. False: every thread could be inspected and none
    reads a terminal or waits on several fds. None: don't know (a thread polls several fds, which
    could include the terminal; or /proc could not tell).
    """
    numbers = _SYSCALLS.get(platform.machine())
    if numbers is None or not pids:
        return None
    reads, polls = numbers
    unsure = False
    for pid in pids:
        try:
            tids = os.listdir(f"{PROC}/{pid}/task")
        except OSError:
            continue  # gone since the scan
        for tid in tids:
            try:
                with open(f"{PROC}/{pid}/task/{tid}/syscall") as f:
                    fields = f.read().split()
            except OSError:
                unsure = True
                continue
            if not fields or fields[0] == "running" or fields[0] == "-1":
                continue
            number = int(fields[0])
            if number in reads and len(fields) > 1 and _is_terminal(pid, int(fields[1], 16)):
                return True
            if number in polls:
                unsure = True
    return None if unsure else False
