"""Helpers that emit Claude Code style transcript lines (used by make_set.py)."""
import json
import random
import string
import uuid
from datetime import datetime, timedelta, timezone

CWD = "C:\\Users\\amara\\src\\harborpay"
VERSION = "2.2.4"
MODEL = "claude-opus-4-5-20251101"
ROOT = "C:\\Users\\amara\\src\\harborpay\\"

rng = random.Random(20261103)


def uid():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def rid(prefix, n):
    alpha = string.ascii_letters + string.digits
    return prefix + "".join(rng.choice(alpha) for _ in range(n))


def sig():
    alpha = string.ascii_letters + string.digits + "+/"
    return "Eu" + "".join(rng.choice(alpha) for _ in range(rng.randint(300, 520))) + "=="


def P(rel):
    """Windows path of a repo-relative file, as Claude Code's Read/Edit get them."""
    return ROOT + rel.replace("/", "\\")


def numbered(text, start=1):
    out = []
    for i, line in enumerate(text.split("\n")):
        out.append(f"{i + start:>6}\u2192{line}")
    return "\n".join(out)


class Session:
    def __init__(self, sid, start, branch):
        self.sid = sid
        self.t = datetime.fromisoformat(start).replace(tzinfo=timezone.utc)
        self.branch = branch
        self.lines = []
        self.last = None
        self.msg = None
        self.req = None
        self.marks = {}
        self.slug = None

    # --- bookkeeping -------------------------------------------------
    def ts(self, dt):
        self.t += timedelta(seconds=dt, milliseconds=rng.randint(0, 999))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"

    def base(self):
        d = {
            "parentUuid": self.last,
            "isSidechain": False,
            "userType": "external",
            "cwd": CWD,
            "sessionId": self.sid,
            "version": VERSION,
            "gitBranch": self.branch,
        }
        if self.slug:
            d["slug"] = self.slug
        return d

    def push(self, d):
        self.lines.append(d)
        if "uuid" in d:
            self.last = d["uuid"]

    def begin(self, name):
        self.marks.setdefault(name, [None, None])[0] = len(self.lines) + 1

    def end(self, name):
        self.marks[name][1] = len(self.lines)

    def src(self, name):
        a, b = self.marks[name]
        return f"{self.sid} L{a}-L{b}"

    # --- person --------------------------------------------------------
    def user(self, text, dt=25):
        u = uid()
        ts = self.ts(dt)
        self.lines.append({
            "type": "file-history-snapshot",
            "messageId": u,
            "snapshot": {"messageId": u, "trackedFileBackups": {}, "timestamp": ts},
            "isSnapshotUpdate": False,
        })
        d = self.base()
        d.update({
            "type": "user",
            "message": {"role": "user", "content": text},
            "uuid": u,
            "timestamp": ts,
            "thinkingMetadata": {"level": "high", "disabled": False, "triggers": []},
            "todos": [],
        })
        self.push(d)
        self.msg = None

    # --- agent ---------------------------------------------------------
    def _asst(self, block, dt, out_tokens):
        if self.msg is None:
            self.msg = rid("msg_01", 22)
            self.req = rid("req_011C", 18)
        d = self.base()
        d.update({
            "message": {
                "model": MODEL,
                "id": self.msg,
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": rng.randint(3, 12),
                    "cache_creation_input_tokens": rng.randint(200, 4000),
                    "cache_read_input_tokens": rng.randint(20000, 140000),
                    "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
                    "output_tokens": out_tokens,
                    "service_tier": "standard",
                },
            },
            "requestId": self.req,
            "type": "assistant",
            "uuid": uid(),
            "timestamp": self.ts(dt),
        })
        self.push(d)
        return d

    def think(self, text, dt=9):
        self._asst({"type": "thinking", "thinking": text, "signature": sig()}, dt, len(text) // 4)

    def say(self, text, dt=3):
        self._asst({"type": "text", "text": text}, dt, len(text) // 4)

    def call(self, name, inp, content, tur, err=False, dt=2, rdt=3, progress=None):
        tid = rid("toolu_01", 22)
        a = self._asst({"type": "tool_use", "id": tid, "name": name, "input": inp}, dt, 60)
        if progress:
            # Claude Code records bash_progress lines while a long command runs
            plines = progress.split("\n")
            steps = min(12, max(2, rdt // 8))
            for k in range(1, steps + 1):
                upto = max(1, len(plines) * k // (steps + 1))
                full = "\n".join(plines[:upto])
                d = self.base()
                d.update({
                    "type": "progress",
                    "data": {"type": "bash_progress", "output": "\n".join(plines[max(0, upto - 5):upto]),
                             "fullOutput": full, "elapsedTimeSeconds": rdt * k // (steps + 1),
                             "totalLines": upto},
                    "toolUseID": f"bash-progress-{k - 1}",
                    "parentToolUseID": tid,
                    "uuid": uid(),
                    "timestamp": self.ts(rdt / (steps + 1)),
                })
                d["parentUuid"] = a["uuid"]
                self.lines.append(d)
            rdt = 1
        d = self.base()
        block = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if err or name == "Bash":
            block["is_error"] = err
        d.update({
            "type": "user",
            "message": {"role": "user", "content": [block]},
            "uuid": uid(),
            "timestamp": self.ts(rdt),
            "toolUseResult": tur,
            "sourceToolAssistantUUID": a["uuid"],
        })
        self.push(d)
        self.msg = None

    def bash(self, command, description, out, err=False, code=1, rdt=4):
        if err:
            content = f"Exit code {code}\n{out}"
            tur = "Error: " + content
        else:
            content = out
            tur = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        self.call("Bash", {"command": command, "description": description}, content, tur, err=err, rdt=rdt,
                  progress=out if rdt >= 15 else None)

    def read(self, rel, text, limit=None):
        inp = {"file_path": P(rel)}
        if limit:
            inp["limit"] = limit
        n = text.count("\n") + 1
        self.call("Read", inp, numbered(text), {
            "type": "text",
            "file": {"filePath": P(rel), "content": text, "numLines": n, "startLine": 1, "totalLines": n},
        })

    def write(self, rel, text):
        self.call("Write", {"file_path": P(rel), "content": text},
                  f"File created successfully at: {P(rel)}",
                  {"type": "create", "filePath": P(rel), "content": text, "structuredPatch": []})

    def edit(self, rel, old, new, snippet, start_line=1):
        self.call("Edit", {"file_path": P(rel), "old_string": old, "new_string": new},
                  f"The file {P(rel)} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
                  + numbered(snippet, start_line),
                  {"filePath": P(rel), "oldString": old, "newString": new, "originalFile": None,
                   "structuredPatch": [], "userModified": False, "replaceAll": False})

    def grep(self, pattern, path, output, files=None, mode="content"):
        inp = {"pattern": pattern, "path": P(path) if path else CWD, "output_mode": mode}
        if mode == "content":
            inp["-n"] = True
        nlines = output.count("\n") + 1
        self.call("Grep", inp, output, {"mode": mode, "numFiles": len(files or []), "filenames": files or [],
                                        "content": output, "numLines": nlines})

    def glob(self, pattern, files):
        self.call("Glob", {"pattern": pattern, "path": CWD}, "\n".join(files),
                  {"filenames": files, "durationMs": rng.randint(40, 400), "numFiles": len(files), "truncated": False})

    def todo(self, items):
        todos = [{"content": c, "status": s, "activeForm": a} for c, s, a in items]
        self.call("TodoWrite", {"todos": todos},
                  "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
                  {"oldTodos": [], "newTodos": todos})

    def turn_end(self, ms):
        d = self.base()
        d.update({"type": "system", "subtype": "turn_duration", "durationMs": ms,
                  "timestamp": self.ts(1), "uuid": uid(), "isMeta": False})
        self.push(d)

    def compact(self, summary, pre_tokens):
        b = uid()
        d = {
            "parentUuid": None,
            "logicalParentUuid": self.last,
            "isSidechain": False,
            "userType": "external",
            "cwd": CWD,
            "sessionId": self.sid,
            "version": VERSION,
            "gitBranch": self.branch,
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "isMeta": False,
            "timestamp": self.ts(40),
            "uuid": b,
            "level": "info",
            "compactMetadata": {"trigger": "auto", "preTokens": pre_tokens},
        }
        self.push(d)
        d = self.base()
        d.update({
            "type": "user",
            "message": {"role": "user", "content": summary},
            "isVisibleInTranscriptOnly": True,
            "isCompactSummary": True,
            "uuid": uid(),
            "timestamp": self.ts(1),
        })
        self.push(d)
        self.msg = None

    def dump(self, path):
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")
        return len(self.lines)


# ---------------------------------------------------------------------------
# Gradle output helpers

HEAD_TASKS = """> Task :checkKotlinGradlePluginConfigurationErrors SKIPPED
> Task :processResources{pr}
> Task :compileKotlin{ck}
> Task :compileJava NO-SOURCE
> Task :classes{cl}
> Task :processTestResources{ptr}
> Task :compileTestKotlin
> Task :compileTestJava NO-SOURCE
> Task :testClasses
> Task :test
"""


def head(main_changed=True, res_changed=False):
    return HEAD_TASKS.format(
        pr="" if res_changed else " UP-TO-DATE",
        ck="" if main_changed else " UP-TO-DATE",
        cl="" if main_changed else " UP-TO-DATE",
        ptr=" UP-TO-DATE",
    )


def test_lines(classes, skip=(), fail=None):
    out = []
    for cls, methods in classes:
        for m in methods:
            if (cls, m) in skip:
                st = "SKIPPED"
            elif fail and (cls, m) in fail:
                st = "FAILED"
            else:
                st = "PASSED"
            out.append(f"{cls} > {m}() {st}")
            if fail and (cls, m) in fail:
                out.append(fail[(cls, m)])
            out.append("")
    return "\n".join(out)
