#!/usr/bin/env python3
"""Regenerate the tallyho check set: sessions/, projects.json, questions.jsonl, briefing.jsonl.

Each session is described as a list of turns (person, agent text, tool calls, subagent tasks);
this script emits Claude Code transcript lines with uuid/parentUuid chains and increasing
timestamps. Labels (s.mark) record 1-based line numbers used by the questions' sources.
"""
import datetime as dt
import hashlib
import json
import os
import random
import string

HERE = os.path.dirname(os.path.abspath(__file__))
CWD = "/home/jo/code/tallyho"
PROJECT = "tallyho"
VERSION = "2.1.31"
MODEL = "claude-opus-4-5-20251101"
RNG = random.Random(20261109)
B62 = string.ascii_letters + string.digits


def uid():
    h = "%032x" % RNG.getrandbits(128)
    h = h[:12] + "4" + h[13:16] + "89ab"[RNG.randrange(4)] + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def rid(prefix, n=24):
    return prefix + "".join(RNG.choice(B62) for _ in range(n))


def numbered(text, start=1):
    return "\n".join(f"{i:>6}\u2192{l}" for i, l in enumerate(text.split("\n"), start))


class Session:
    def __init__(self, key, start, branch):
        self.key = key
        self.id = uid()
        self.t = dt.datetime.fromisoformat(start)
        self.branch = branch
        self.lines = []
        self.last = None
        self.msg = None  # current assistant message id (None: next block starts a new one)
        self.labels = {}

    # -- plumbing -------------------------------------------------------------------------
    def _ts(self, lo=1, hi=6):
        self.t += dt.timedelta(seconds=RNG.uniform(lo, hi))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % RNG.randrange(1000)

    def _base(self, parent, side=False, agent=None):
        d = {"parentUuid": parent, "isSidechain": side, "userType": "external", "cwd": CWD,
             "sessionId": self.id, "version": VERSION, "gitBranch": self.branch}
        if agent:
            d["agentId"] = agent
        return d

    def _emit(self, d, side=False):
        self.lines.append(d)
        if not side:
            self.last = d["uuid"]
        return d["uuid"]

    def mark(self, label):
        """label = the number of the NEXT line to be written (1-based)."""
        self.labels[label] = len(self.lines) + 1

    def mark_end(self, label):
        self.labels[label] = len(self.lines)

    def _assistant(self, block, parent, side=False, agent=None, new=False, lo=2, hi=9):
        if new or self.msg is None:
            self.msg = rid("msg_01")
            self.req = rid("req_011C")
        d = self._base(parent, side, agent)
        d["message"] = {"model": MODEL, "id": self.msg, "type": "message", "role": "assistant",
                        "content": [block], "stop_reason": None, "stop_sequence": None,
                        "usage": {"input_tokens": RNG.randrange(3, 40),
                                  "cache_creation_input_tokens": RNG.randrange(200, 9000),
                                  "cache_read_input_tokens": RNG.randrange(15000, 90000),
                                  "output_tokens": RNG.randrange(4, 900),
                                  "service_tier": "standard"}}
        d["requestId"] = self.req
        d["type"] = "assistant"
        d["uuid"] = uid()
        d["timestamp"] = self._ts(lo, hi)
        return d

    # -- turns ----------------------------------------------------------------------------
    def snapshot(self, mid, files=None, update=False):
        self.backups = getattr(self, "backups", {})
        for f in files or []:
            v = self.backups.get(f, {}).get("version", 0) + 1
            self.backups[f] = {"backupFileName": "%016x@v%d" % (RNG.getrandbits(64), v), "version": v,
                               "backupTime": self.t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"}
        self.lines.append({"type": "file-history-snapshot", "messageId": mid,
                           "snapshot": {"messageId": mid, "trackedFileBackups": dict(self.backups),
                                        "timestamp": self.t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"},
                           "isSnapshotUpdate": update})

    def person(self, text):
        d = self._base(self.last)
        d.update({"type": "user", "message": {"role": "user", "content": text},
                  "uuid": uid(), "timestamp": self._ts(20, 140)})
        self.snapshot(d["uuid"])
        self.msg = None
        self._emit(d)

    def say(self, text):
        """Agent text; starts a new API message (a following tool call joins it)."""
        d = self._assistant({"type": "text", "text": text}, self.last, new=True)
        self._emit(d)

    def _auto_thought(self, name, inp):
        import os.path as op
        if name == "Bash":
            d = inp.get("description", "run it")
            d = d[0].lower() + d[1:]
            return RNG.choice(["Next: {d}.", "I'll {d} now.", "Time to {d}; the output decides the next step.",
                               "Let me {d}."]).format(d=d)
        if name == "Read":
            return f"Let me read {op.basename(inp['file_path'])} before changing anything around it."
        if name == "Edit":
            return f"Making the change in {op.basename(inp['file_path'])}."
        if name == "Write":
            return f"Writing {op.basename(inp['file_path'])}."
        if name == "Grep":
            return f"Searching the repo for `{inp['pattern']}`."
        if name == "TodoWrite":
            return "Tracking the steps in a todo list."
        return "Handing this to a subagent."

    def think(self, text):
        d = self._assistant({"type": "thinking", "thinking": text,
                             "signature": "Eq" + "".join(RNG.choice(B62) for _ in range(120))},
                            self.last, new=True)
        self._emit(d)

    def _tool(self, name, inp, content, result, err=False):
        if self.msg is None:
            self.think(self._auto_thought(name, inp))
        tid = rid("toolu_01")
        a = self._assistant({"type": "tool_use", "id": tid, "name": name, "input": inp}, self.last)
        self._emit(a)
        d = self._base(a["uuid"])
        blk = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if err or name == "Bash":
            blk["is_error"] = err
        d.update({"type": "user", "message": {"role": "user", "content": [blk]}, "uuid": uid(),
                  "timestamp": self._ts(1, 25), "toolUseResult": result,
                  "sourceToolAssistantUUID": a["uuid"]})
        self.msg = None
        self._emit(d)

    def bash(self, cmd, desc, out, err=False, code=1):
        if err:
            content = f"Exit code {code}\n{out}"
            self._tool("Bash", {"command": cmd, "description": desc}, content, "Error: " + content, True)
        else:
            self._tool("Bash", {"command": cmd, "description": desc}, out,
                       {"stdout": out, "stderr": "", "interrupted": False, "isImage": False})

    def read(self, path, text):
        full = path if path.startswith("/") else f"{CWD}/{path}"
        n = text.count("\n") + 1
        self._tool("Read", {"file_path": full}, numbered(text),
                   {"type": "text", "file": {"filePath": full, "content": text, "numLines": n,
                                             "startLine": 1, "totalLines": n}})

    def edit(self, path, old, new):
        full = f"{CWD}/{path}"
        self._tool("Edit", {"file_path": full, "old_string": old, "new_string": new},
                   f"The file {full} has been updated successfully.",
                   {"filePath": full, "oldString": old, "newString": new, "replaceAll": False,
                    "userModified": False})
        self.snapshot(self.last, [path], True)

    def write(self, path, text):
        full = f"{CWD}/{path}"
        self._tool("Write", {"file_path": full, "content": text},
                   f"File created successfully at: {full}",
                   {"type": "create", "filePath": full, "content": text})
        self.snapshot(self.last, [path], True)

    def grep(self, pattern, out, path=None, mode="files_with_matches"):
        inp = {"pattern": pattern, "output_mode": mode}
        if path:
            inp["path"] = f"{CWD}/{path}"
        self._tool("Grep", inp, out, {"mode": mode, "content": out, "numLines": out.count("\n") + 1})

    def todo(self, items):
        todos = [{"content": c, "status": s, "activeForm": a} for c, s, a in items]
        self._tool("TodoWrite", {"todos": todos},
                   "Todos have been modified successfully. Ensure that you continue to use the todo "
                   "list to track your progress. Please proceed with the current tasks if applicable",
                   {"oldTodos": [], "newTodos": todos})

    def task(self, desc, prompt, steps, report):
        """A general-purpose subagent: its lines are sidechain lines in this file."""
        if self.msg is None:
            self.think(self._auto_thought("Task", {}))
        tid = rid("toolu_01")
        agent = "a" + "%06x" % RNG.getrandbits(24)
        a = self._assistant({"type": "tool_use", "id": tid, "name": "Task",
                             "input": {"description": desc, "prompt": prompt,
                                       "subagent_type": "general-purpose"}}, self.last)
        self._emit(a)
        main_parent = a["uuid"]
        # the subagent's own thread
        d = self._base(None, True, agent)
        d.update({"type": "user", "message": {"role": "user", "content": prompt}, "uuid": uid(),
                  "timestamp": self._ts(0.1, 0.4)})
        self._emit(d, side=True)
        prev = d["uuid"]
        ntools = 0
        for step in steps:
            kind = step[0]
            self.msg = None
            if kind == "text":
                x = self._assistant({"type": "text", "text": step[1]}, prev, True, agent, new=True)
                self._emit(x, side=True)
                prev = x["uuid"]
                continue
            stid = rid("toolu_01")
            if kind == "Bash":
                inp, out = {"command": step[1], "description": step[2]}, step[3]
                res = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
            elif kind == "Read":
                full = f"{CWD}/{step[1]}"
                inp, out = {"file_path": full}, numbered(step[2])
                res = {"type": "text", "file": {"filePath": full, "content": step[2],
                                                "numLines": step[2].count("\n") + 1,
                                                "startLine": 1,
                                                "totalLines": step[2].count("\n") + 1}}
            elif kind == "Grep":
                inp, out = {"pattern": step[1], "output_mode": "content", "-n": True}, step[2]
                res = {"mode": "content", "content": out, "numLines": out.count("\n") + 1}
            x = self._assistant({"type": "tool_use", "id": stid, "name": kind, "input": inp},
                                prev, True, agent, new=True)
            self._emit(x, side=True)
            r = self._base(x["uuid"], True, agent)
            blk = {"tool_use_id": stid, "type": "tool_result", "content": out}
            if kind == "Bash":
                blk["is_error"] = False
            r.update({"type": "user", "message": {"role": "user", "content": [blk]}, "uuid": uid(),
                      "timestamp": self._ts(1, 6), "toolUseResult": res})
            self._emit(r, side=True)
            prev = r["uuid"]
            ntools += 1
        x = self._assistant({"type": "text", "text": report}, prev, True, agent, new=True, lo=5, hi=20)
        self._emit(x, side=True)
        # the Task result on the main thread
        content = [{"type": "text", "text": report},
                   {"type": "text", "text": f"agentId: {agent} (for resuming to continue this agent's work if needed)"}]
        r = self._base(main_parent)
        r.update({"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": content}]},
            "uuid": uid(), "timestamp": self._ts(1, 3),
            "toolUseResult": {"status": "completed", "prompt": prompt, "agentId": agent,
                              "content": [{"type": "text", "text": report}],
                              "totalDurationMs": RNG.randrange(40000, 160000),
                              "totalTokens": RNG.randrange(20000, 60000),
                              "totalToolUseCount": ntools},
            "sourceToolAssistantUUID": main_parent})
        self.msg = None
        self._emit(r)

    def write_file(self, folder):
        path = os.path.join(folder, f"{self.id}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")
        return path


from sessions_text import build_sessions  # noqa: E402  (the session contents)
from questions_text import build_questions  # noqa: E402


def main():
    sessions = build_sessions(Session)
    sdir = os.path.join(HERE, "sessions", PROJECT)
    os.makedirs(sdir, exist_ok=True)
    for f in os.listdir(sdir):
        os.remove(os.path.join(sdir, f))
    entries = []
    for s in sessions:
        path = s.write_file(sdir)
        with open(path, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        entries.append({"id": s.id, "file": f"sessions/{PROJECT}/{s.id}.jsonl",
                        "first_timestamp": next(l["timestamp"] for l in s.lines if "uuid" in l), "lines": len(s.lines),
                        "malformed_lines": 0, "cwds": [CWD], "sha256": sha})
    pj = {"projects": [{"name": PROJECT, "origin": "https://github.com/jo-brandt/tallyho",
                        "origin_note": "invented",
                        "description": "Tallyho: a shared grocery-list PWA (React 18 + Vite + TypeScript, "
                                       "Workbox service worker, Netlify Functions + Blobs), Vitest and "
                                       "Playwright tests, husky/lint-staged pre-commit.",
                        "cwds": [CWD], "sessions": entries}],
          "plant_session": sessions[1].id}
    with open(os.path.join(HERE, "projects.json"), "w", encoding="utf-8") as f:
        json.dump(pj, f, indent=1)
        f.write("\n")
    by = {s.key: s for s in sessions}

    def src(*parts):
        out = []
        for key, a, b in parts:
            s = by[key]
            out.append(f"{s.id} L{s.labels[a]}-L{s.labels[b]}")
        return "; ".join(out)

    qs, facts = build_questions(src, by)
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for q in qs:
            q = dict(q, project=PROJECT)
            f.write(json.dumps({k: q[k] for k in ("id", "project", "kind", "question", "answer", "keys",
                                                  "source", "needs_agent_text")}, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "briefing.jsonl"), "w", encoding="utf-8") as f:
        for b in facts:
            b = dict(b, project=PROJECT)
            f.write(json.dumps({k: b[k] for k in ("id", "project", "fact", "keys", "source")},
                               ensure_ascii=False) + "\n")
    for s in sessions:
        print(s.key, s.id, len(s.lines))


if __name__ == "__main__":
    main()
