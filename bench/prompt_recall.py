#!/usr/bin/env python3
"""Prompt-time recall on the recall benchmark's sets (docs/recall.md).

Replays a set (default: ../shared/data/recall, the dev set) through lore's Claude Code hooks with
../shared/tools/recall-bench --keep, then asks every question of the set as a person's prompt
through the UserPromptSubmit hook that `lore init claude-code` installed (run as Claude Code runs
it: /bin/sh -c <command> in the checkout, the payload on stdin) and reports:

  answered    questions whose injected context matches their keys (recall-bench's rule: every
              key group has one of its phrases in the lowercased, space-squeezed text)
  chars       characters of additionalContext per prompt: median and p95, over all prompts and
              over those that got something
  silent      the other projects' questions sent to each project's checkout: the share that got
              nothing injected
  hook time   wall time of each hook process (/bin/sh included; timed as bench/hook_floor.py
              times it, without the pipes' wake-up), median and p95, against two
              floors run the same way, one of each after every hook run (so that both see the
              same machine): `/bin/sh -c true` (the shell alone: `true` is a builtin, nothing
              is started) and `/bin/sh -c 'exec /bin/true'` (the program floor: a hook that
              starts a program that does nothing, the least any command hook costs); the
              prompts about the store (the set's questions at their own checkout) apart

With --records N (10,000 by default when given without a number) it measures the hook's time on
a store of N memory records instead: a throwaway checkout and store, N decisions written as files
and indexed by `lore reindex`, 200 prompts (half about the records, half not) against 200 runs
of the shell's floor. The records' words come from a vocabulary of 62, so that every related
prompt matches nearly every record: the worst case. With --text the records are cut instead from
the set's own session text (what was said, tool calls and their output: windows of 60 words, each
word in about four records; real vocabulary)
and the related prompts are the set's questions: what a store of that size answers day to day.

Usage:  bench/prompt_recall.py [--lore build/release/lore] [--set DIR] [--out DIR]
        bench/prompt_recall.py --records [N] [--lore ...]
Run it on one core, as recall-bench asks: taskset -c 0 bench/prompt_recall.py ...
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import hook_floor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))


def norm(s):
    return " ".join(s.lower().split())


def matches(text, keys):
    t = norm(text)
    return all(any(norm(p) in t for p in group) for group in keys)


def pct(xs, q):
    if not xs:
        return 0
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, int(round(q * len(s) + 0.5)) - 1))]


def timed(argv, stdin, cwd, env):
    """(run, ms) of argv with the text `stdin`, timed as bench/hook_floor.py times a hook (its
    timed(): no pipes, whose reader's wake-up would be counted), its output as text."""
    r, ms = hook_floor.timed(argv, stdin.encode("utf-8"), cwd, env)
    return hook_floor.Ran(r.returncode, r.stdout.decode("utf-8", "replace"),
                          r.stderr.decode("utf-8", "replace")), ms


def context_of(r):
    if r.returncode != 0:
        raise SystemExit(f"prompt_recall: the hook exited {r.returncode}: {r.stderr.strip()}")
    if not r.stdout.strip():
        return ""
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]


def prompt_command(checkout):
    with open(os.path.join(checkout, ".claude", "settings.json"), encoding="utf-8") as f:
        hooks = json.load(f)["hooks"]["UserPromptSubmit"]
    return hooks[-1]["hooks"][0]["command"]


def floor(env, cwd, n):
    return [timed(["/bin/sh", "-c", "true"], "", cwd, env)[1] for _ in range(n)]


PROGRAM_FLOOR = ["/bin/sh", "-c", "exec /bin/true"]


def replayed(args):
    out = args.out or tempfile.mkdtemp(prefix="prompt-recall-")
    work, line = hook_floor.replay(args.lore, args.set, out, "prompt_recall")
    return out, work, line


def run_set(args):
    out, work, replay_line = replayed(args)
    env = {"HOME": os.path.join(work, "home"), "LORE_HOME": os.path.join(work, "lore_home"),
           "XDG_CONFIG_HOME": os.path.join(work, "home", ".config"),
           "PATH": os.path.join(work, "bin") + ":/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    with open(os.path.join(args.set, "questions.jsonl"), encoding="utf-8") as f:
        questions = [json.loads(line) for line in f if line.strip()]
    projects = sorted({q["project"] for q in questions})

    def ask(project, prompt, session):
        co = os.path.join(work, "checkouts", project)
        payload = json.dumps({"session_id": session, "transcript_path": "", "cwd": co,
                              "permission_mode": "default", "hook_event_name": "UserPromptSubmit",
                              "prompt": prompt})
        hook_env = dict(env, CLAUDE_PROJECT_DIR=co)
        r, ms = timed(["/bin/sh", "-c", prompt_command(co)], payload, co, hook_env)
        shell.append(timed(["/bin/sh", "-c", "true"], "", co, hook_env)[1])
        program.append(timed(PROGRAM_FLOOR, "", co, hook_env)[1])
        return context_of(r), ms

    rows, times, unrelated, shell, program = [], [], [], [], []
    for i, q in enumerate(questions):
        ctx, ms = ask(q["project"], q["question"], f"prompt-{i}")
        rows.append({"id": q["id"], "kind": q["kind"], "answered": matches(ctx, q["keys"]),
                     "chars": len(ctx)})
        times.append(ms)
    about = list(times)
    for p in projects:
        for i, q in enumerate(questions):
            if q["project"] != p:
                ctx, ms = ask(p, q["question"], f"unrelated-{i}")
                unrelated.append(ctx == "")
                times.append(ms)
    chars = [r["chars"] for r in rows]
    some = [c for c in chars if c > 0]
    answered = sum(r["answered"] for r in rows)
    report = {
        "set": args.set, "lore": args.lore, "replay": replay_line,
        "answered": answered, "questions": len(rows), "answered_share": answered / len(rows),
        "by_kind": {k: f"{sum(r['answered'] for r in rows if r['kind'] == k)}/"
                       f"{sum(1 for r in rows if r['kind'] == k)}"
                    for k in sorted({r["kind"] for r in rows})},
        "chars": {"median": statistics.median(chars), "p95": pct(chars, 0.95),
                  "median_when_injected": statistics.median(some) if some else 0,
                  "injected": len(some)},
        "unrelated": {"prompts": len(unrelated), "silent": sum(unrelated),
                      "silent_share": sum(unrelated) / len(unrelated)},
        "hook_ms": {"median": statistics.median(times), "p95": pct(times, 0.95),
                    "shell_floor_median": statistics.median(shell),
                    "ratio": statistics.median(times) / statistics.median(shell),
                    "program_floor_median": statistics.median(program),
                    "program_ratio": statistics.median(times) / statistics.median(program),
                    "about_store_median": statistics.median(about),
                    "about_store_program_ratio":
                        statistics.median(about) / statistics.median(program)},
        "rows": rows,
    }
    with open(os.path.join(out, "prompt_recall.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
    print(json.dumps(report, indent=1))
    print(f"prompt_recall: answered {answered}/{len(rows)} ({report['answered_share']:.3f}) | "
          f"chars median {report['chars']['median']}, p95 {report['chars']['p95']} | "
          f"unrelated silent {sum(unrelated)}/{len(unrelated)} "
          f"({report['unrelated']['silent_share']:.3f}) | hook median "
          f"{report['hook_ms']['median']:.2f} ms, shell {report['hook_ms']['shell_floor_median']:.2f}"
          f" ms ({report['hook_ms']['ratio']:.2f}x), program floor "
          f"{report['hook_ms']['program_floor_median']:.2f} ms "
          f"({report['hook_ms']['program_ratio']:.2f}x); about the store "
          f"{report['hook_ms']['about_store_median']:.2f} ms "
          f"({report['hook_ms']['about_store_program_ratio']:.2f}x) | {out}", file=sys.stderr)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


WORDS = ("cache parser index ranking session budget lock journal stage digest token socket queue "
         "schema cursor worker retry timeout mirror bucket ledger shard replica pool tenant quota "
         "locale render template widget gateway router daemon kernel module driver codec buffer "
         "stream packet frame header payload archive bundle sketch matrix vector tensor graph").split()


def session_chunks(set_dir):
    """The set's transcripts' text (what was said, tool calls and their output), 60 words a piece."""
    words = []
    for root, _, files in os.walk(os.path.join(set_dir, "sessions")):
        for name in sorted(files):
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    try:
                        msg = json.loads(line).get("message") or {}
                    except (ValueError, AttributeError):
                        continue
                    content = msg.get("content") if isinstance(msg, dict) else None
                    if isinstance(content, str):
                        words += content.split()
                    elif isinstance(content, list):
                        for block in content:
                            if not isinstance(block, dict):
                                continue
                            if block.get("type") == "text":
                                words += str(block.get("text", "")).split()
                            elif block.get("type") == "tool_use":
                                words += json.dumps(block.get("input", {})).split()
                            elif block.get("type") == "tool_result":
                                c = block.get("content")
                                words += (c if isinstance(c, str) else json.dumps(c)).split()
    # Windows of 60 words from offsets 0, 15, 30 and 45: about 9,600 pieces, each
    # word in four of them.
    return [" ".join(words[i:i + 60]) for shift in (0, 15, 30, 45)
            for i in range(shift, len(words) - 60, 60)]


def run_records(args):
    n = args.records
    rng = random.Random(27)
    tmp = tempfile.mkdtemp(prefix="prompt-recall-records-")
    co = os.path.join(tmp, "checkout")
    env = {"HOME": os.path.join(tmp, "home"), "LORE_HOME": os.path.join(tmp, "lore_home"),
           "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}
    os.makedirs(co)
    subprocess.run(["git", "init", "-q", co], check=True)
    subprocess.run(["git", "-C", co, "remote", "add", "origin",
                    "https://example.org/bench/records.git"], check=True)
    subprocess.run([args.lore, "ensure", co], check=True, env=env, cwd=co, capture_output=True)
    stores = os.listdir(env["LORE_HOME"])  # the one store `lore ensure` made
    store = os.path.join(env["LORE_HOME"], stores[0])
    folder = os.path.join(store, "memory", "decisions")
    os.makedirs(folder, exist_ok=True)
    chunks = session_chunks(args.set) if args.text else []
    for i in range(n):
        words = rng.sample(WORDS, 6)
        if chunks:
            body = chunks[i % len(chunks)]
            title = " ".join(body.split()[:6])
        else:
            body = " ".join(rng.choice(WORDS) for _ in range(60))
            body = f"Why the {words[0]} {words[1]} uses the {words[2]} {words[3]}: {body}"
            title = f"{' '.join(words[:3])} {i}"
        with open(os.path.join(folder, f"d{i:05d}.md"), "w", encoding="utf-8") as f:
            f.write("---\ncreated_at: 2026-11-01T00:00:00Z\nupdated_at: 2026-11-01T00:00:00Z\n"
                    f"status: open\n---\n# {title}\n\n{body}\n")
    start = time.perf_counter()
    subprocess.run([args.lore, "reindex", co], check=True, env=env, cwd=co, capture_output=True)
    reindex_s = time.perf_counter() - start
    prompts = []
    questions = []
    if args.text:
        with open(os.path.join(args.set, "questions.jsonl"), encoding="utf-8") as f:
            questions = [json.loads(line)["question"] for line in f if line.strip()]
    for i in range(200):
        w = rng.sample(WORDS, 4)
        related = (questions[(i // 2) % len(questions)] if questions else
                   f"why does the {w[0]} {w[1]} use the {w[2]} {w[3]}?")
        prompts.append(related if i % 2 == 0 else
                       "how do I bake sourdough bread in a cast iron pot at home?")
    times, injected = [], 0
    for i, p in enumerate(prompts):
        payload = json.dumps({"session_id": f"r{i}", "cwd": co, "prompt": p,
                              "hook_event_name": "UserPromptSubmit"})
        r, ms = timed(["/bin/sh", "-c", f"{args.lore} hook user-prompt-submit"], payload, co, env)
        injected += context_of(r) != ""
        times.append(ms)
    shell = floor(env, co, 200)
    report = {"records": n, "text": "session text" if args.text else "62-word vocabulary",
              "reindex_s": round(reindex_s, 2), "prompts": len(prompts),
              "injected": injected, "hook_ms_median": statistics.median(times),
              "hook_ms_p95": pct(times, 0.95), "shell_floor_median": statistics.median(shell),
              "ratio": statistics.median(times) / statistics.median(shell),
              # Every record holds most words of the related prompts, so those rank all
              # 10,000 records: the worst case, reported apart from the unrelated prompts.
              "related_ms_median": statistics.median(times[0::2]),
              "unrelated_ms_median": statistics.median(times[1::2])}
    print(json.dumps(report, indent=1))
    print(f"prompt_recall --records {n}{' --text' if args.text else ''}: hook median {report['hook_ms_median']:.2f} ms, p95 "
          f"{report['hook_ms_p95']:.2f} ms; shell {report['shell_floor_median']:.2f} ms "
          f"({report['ratio']:.2f}x); related {report['related_ms_median']:.2f} ms, unrelated "
          f"{report['unrelated_ms_median']:.2f} ms; {injected}/{len(prompts)} prompts got context",
          file=sys.stderr)
    if args.keep_records:
        print(f"kept: {tmp}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lore", default=os.path.join(ROOT, "build", "release", "lore"))
    ap.add_argument("--set", default=os.path.join(SHARED, "data", "recall"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the replayed stores")
    ap.add_argument("--records", nargs="?", type=int, const=10000, default=None)
    ap.add_argument("--text", action="store_true",
                    help="with --records: records cut from the set's session text, the set's "
                         "questions as the related prompts")
    ap.add_argument("--keep-records", action="store_true",
                    help="with --records: keep the throwaway checkout and store, for profiling")
    args = ap.parse_args()
    args.lore = os.path.abspath(args.lore)
    if args.records:
        run_records(args)
    else:
        run_set(args)


if __name__ == "__main__":
    main()
