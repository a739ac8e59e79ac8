#!/usr/bin/env python3
"""Every hook of a recall-bench replay against the shell's floor (docs/recall.md "Hook time").

recall-bench reports the wall time of each hook process, but not what the same machine charges a
hook that does nothing. This replays a set (default: ../shared/data/recall, the dev set) with
../shared/tools/recall-bench --keep, then runs every hook call of its replay log again, in order,
as Claude Code runs it and as recall-bench did (/bin/sh -c <command> in the checkout, the payload
on stdin, recall-bench's environment; timed from its start to its end without the pipes' wake-up,
see timed()), on the store the replay left, and after each one, once
each and in turn first, the two floors:

  shell floor     /bin/sh -c true: the shell alone (`true` is a builtin, nothing is started)
  program floor   /bin/sh -c 'exec /bin/true': a hook that starts a program that does nothing,
                  the least any command hook costs

A hook whose handler has an `if` rule (lore's audit hook: `Bash(*lore propose*)`) is started by
Claude Code 2.1.85 and later only for a tool call the rule matches; recall-bench starts every hook.
This bench does what the client does: a call the rule does not match is not run, and is counted
under "not_started" (client_starts() says how the rule is read, tests/claude/audit.test.mjs checks
the client itself). `--no-if` runs them all, as a client before 2.1.85 does.

Before each run it waits until no lore process of the store is left (as recall-bench does), so
that a detached run started by a hook does not share the machine with the next measurement. It
prints the median and p95 of each event and of all calls, each median's ratio to the two floors'
medians, and the last line as a summary.

`--timer recall-bench` times every run, the floors' too, as recall-bench times a hook
(subprocess.run, its pipes read in a poll loop): the harness whose "hooks … median" the recall
benchmark reports, against the floors in that same harness.

Usage:  bench/hook_floor.py [--lore build/release/lore] [--set DIR] [--out DIR] [--rounds N] [--no-if]
                            [--timer spawn|recall-bench]
Run it on one core, as recall-bench asks: taskset -c 0 bench/hook_floor.py ...
"""
import argparse
import fnmatch
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
SHELL_FLOOR = ["/bin/sh", "-c", "true"]
PROGRAM_FLOOR = ["/bin/sh", "-c", "exec /bin/true"]


def pct(xs, q):
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))] if s else 0


class Ran:
    """What a timed run came to: its exit status and its output."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def timed(argv, stdin, cwd, env):
    """Runs argv with `stdin` (bytes) on its standard input, in `cwd`, and returns (Ran, ms): the
    wall time from the start to its end. The process is started with posix_spawn and waited for
    with a blocking waitpid, its input and output being files: subprocess.run's pipes, read in a
    poll loop, add the reader's wake-up to the time, which on this VM splits the times of the same
    command into two modes a millisecond apart (`sh -c 'exec /bin/true'`: 1.3 or 2.4 ms) and
    charges it to whichever process tends to outlast the parent's first poll."""
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, \
            tempfile.TemporaryFile() as ferr:
        fin.write(stdin)
        fin.flush()
        fin.seek(0)
        here = os.getcwd()
        os.chdir(cwd)  # posix_spawn has no cwd: the child inherits the parent's
        try:
            start = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=[
                (os.POSIX_SPAWN_DUP2, fin.fileno(), 0), (os.POSIX_SPAWN_DUP2, fout.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, ferr.fileno(), 2)])
            _, status = os.waitpid(pid, 0)
            ms = (time.perf_counter() - start) * 1000
        finally:
            os.chdir(here)
        fout.seek(0)
        ferr.seek(0)
        return Ran(os.waitstatus_to_exitcode(status), fout.read(), ferr.read()), ms


def timed_as_recall_bench(argv, stdin, cwd, env):
    """Runs argv as recall-bench runs a hook (subprocess.run with the payload as input, both
    outputs captured, a time-out), timed as it times one: what its "hooks … median" figure
    measures, the harness's reading of the pipes included."""
    start = time.perf_counter()
    r = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=env, timeout=60)
    return Ran(r.returncode, r.stdout, r.stderr), (time.perf_counter() - start) * 1000


def lore_running(binary, lore_home):
    """Whether a process of `binary` with this LORE_HOME is alive (a detached run)."""
    want = ("LORE_HOME=" + lore_home).encode()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.path.realpath(f"/proc/{pid}/exe") != binary:
                continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if want in f.read().split(b"\0"):
                    return True
        except OSError:
            continue
    return False


def wait_idle(binary, lore_home, limit=120):
    t0 = time.monotonic()
    while lore_running(binary, lore_home) and time.monotonic() - t0 < limit:
        time.sleep(0.01)


def if_rules(cwd, home):
    """(event, command) -> the `if` rule of that hook handler, from the settings files Claude Code
    reads for the checkout `cwd` (the user's, the project's and the local one)."""
    rules = {}
    for path in (os.path.join(home, ".claude", "settings.json"),
                 os.path.join(cwd, ".claude", "settings.json"),
                 os.path.join(cwd, ".claude", "settings.local.json")):
        try:
            with open(path, encoding="utf-8") as f:
                hooks = json.load(f).get("hooks") or {}
        except (OSError, ValueError):
            continue
        for event, groups in hooks.items():
            for group in groups if isinstance(groups, list) else []:
                for h in group.get("hooks") or []:
                    if isinstance(h, dict) and isinstance(h.get("if"), str):
                        rules[(event, h.get("command"))] = h["if"]
    return rules


def client_starts(rule, payload):
    """Whether Claude Code starts a hook with the `if` rule `Tool(pattern)` for this tool call: the
    tool is Tool, and the pattern, a glob, matches the command with its white space squeezed, or
    one of its sub-commands (split at &&, ||, ;, | and line ends), as the client matches each
    sub-command. Matching the whole command too makes this start at least every hook the client
    starts: a call the client skips may be timed here, never the reverse."""
    m = re.fullmatch(r"(\w+)\((.*)\)", rule.strip(), re.S)
    if not m:
        return True  # a rule this bench cannot read: timed, as a client that ignores it does
    tool, pattern = m.groups()
    if payload.get("tool_name") != tool:
        return False
    command = " ".join(str((payload.get("tool_input") or {}).get("command", "")).split())
    parts = [command] + [p.strip() for p in re.split(r"&&|\|\||;|\||\n", command)]
    return any(fnmatch.fnmatchcase(p, pattern) for p in parts if p)


def replay(lore, set_dir, out, who):
    """Replays `set_dir` through `lore`'s hooks with recall-bench into OUT/replay, keeping its
    throwaway folder; returns that folder and recall-bench's summary line."""
    bench = os.path.join(SHARED, "tools", "recall-bench")
    r = subprocess.run([bench, "--lore", lore, "--set", set_dir, "--out",
                        os.path.join(out, "replay"), "--keep"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{who}: recall-bench failed ({r.returncode}): {r.stderr[-500:]}")
    with open(os.path.join(out, "replay", "report.json"), encoding="utf-8") as f:
        return json.load(f)["run"]["work"], r.stderr.strip().splitlines()[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lore", default=os.path.join(ROOT, "build", "release", "lore"))
    ap.add_argument("--set", default=os.path.join(SHARED, "data", "recall"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--rounds", type=int, default=1, help="replay the log this many times")
    ap.add_argument("--no-if", action="store_true",
                    help="start every hook, as a client before Claude Code 2.1.85 does")
    ap.add_argument("--timer", choices=["spawn", "recall-bench"], default="spawn",
                    help="time with posix_spawn and a blocking wait (default), or as recall-bench "
                         "times a hook (its pipes read in a poll loop); the floors alike")
    args = ap.parse_args()
    run = timed if args.timer == "spawn" else timed_as_recall_bench
    args.lore = os.path.realpath(args.lore)
    out = args.out or tempfile.mkdtemp(prefix="hook-floor-")
    work, replay_line = replay(args.lore, args.set, out, "hook_floor")
    with open(os.path.join(out, "replay", "replay-log.jsonl"), encoding="utf-8") as f:
        calls = [json.loads(line) for line in f if line.strip()]
    lore_home = os.path.join(work, "lore_home")
    env = {"HOME": os.path.join(work, "home"), "LORE_HOME": lore_home,
           "XDG_CONFIG_HOME": os.path.join(work, "home", ".config"),
           "PATH": os.path.join(work, "bin") + ":/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    by_event, shell, program, not_started = {}, [], [], {}
    rules = {}
    for _ in range(args.rounds):
        for c in calls:
            cwd = c["payload"]["cwd"]
            if cwd not in rules:
                rules[cwd] = if_rules(cwd, env["HOME"])
            rule = rules[cwd].get((c["event"], c["command"]))
            if rule is not None and not args.no_if and not client_starts(rule, c["payload"]):
                not_started[c["event"]] = not_started.get(c["event"], 0) + 1
                continue
            hook_env = dict(env, CLAUDE_PROJECT_DIR=cwd)
            data = json.dumps(c["payload"], ensure_ascii=False).encode("utf-8")
            wait_idle(args.lore, lore_home)
            res, ms = run(["/bin/sh", "-c", c["command"]], data, cwd, hook_env)
            if res.returncode != 0:
                raise SystemExit(f"hook_floor: {c['event']} exited {res.returncode}: "
                                 f"{res.stderr.decode(errors='replace').strip()}")
            by_event.setdefault(c["event"], []).append(ms)
            wait_idle(args.lore, lore_home)
            # The two floors in turn first, so that neither always follows the hook.
            floors = [(SHELL_FLOOR, shell), (PROGRAM_FLOOR, program)]
            for argv, into in floors if len(shell) % 2 == 0 else reversed(floors):
                # As recall-bench would start a hook that does nothing: given the payload.
                given = data if args.timer == "recall-bench" else b""
                into.append(run(argv, given, cwd, hook_env)[1])
    every = [ms for v in by_event.values() for ms in v]
    sf, pf = statistics.median(shell), statistics.median(program)

    def row(xs):
        m = statistics.median(xs)
        return {"calls": len(xs), "median_ms": round(m, 3), "p95_ms": round(pct(xs, 0.95), 3),
                "shell_ratio": round(m / sf, 3), "program_ratio": round(m / pf, 3)}

    report = {"lore": args.lore, "set": args.set, "replay": replay_line, "rounds": args.rounds,
              "timer": args.timer, "if_rules": not args.no_if,
              "shell_floor_median_ms": round(sf, 3), "program_floor_median_ms": round(pf, 3),
              "all": row(every), "by_event": {e: row(v) for e, v in sorted(by_event.items())},
              "not_started": dict(sorted(not_started.items())),
              "per_call_mean_ms": round(sum(every) / (len(every) + sum(not_started.values())), 3)}
    with open(os.path.join(out, "hook_floor.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
    print(json.dumps(report, indent=1))
    a = report["all"]
    events = ", ".join(f"{e} {v['median_ms']:.2f} ms ({v['program_ratio']:.2f}x)"
                       for e, v in report["by_event"].items())
    skipped = ", ".join(f"{e} {n}" for e, n in report["not_started"].items()) or "none"
    print(f"hook_floor: {a['calls']} hooks started (not started by their if rule: {skipped}; "
          f"{report['per_call_mean_ms']:.2f} ms a call on average), median {a['median_ms']:.2f} ms, p95 "
          f"{a['p95_ms']:.2f} ms | shell floor {sf:.2f} ms ({a['shell_ratio']:.2f}x), program floor"
          f" {pf:.2f} ms ({a['program_ratio']:.2f}x) | {events} | {out}", file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
