"""Helpers to emit Claude Code style transcript lines (used by make_set.py)."""
import json
import random
import string
import uuid
from datetime import datetime, timedelta, timezone

VERSION = "2.2.14"
MODEL = "claude-opus-4-5-20251101"


class Session:
    def __init__(self, seed, start, cwd, branch):
        self.rng = random.Random(seed)
        self.id = self.uuid()
        self.t = start
        self.cwd = cwd
        self.branch = branch
        self.lines = []
        self.parent = None
        self.marks = {}
        self.prefix_lines = None

    # ---- ids / time -------------------------------------------------
    def uuid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def rid(self, prefix, n=24):
        al = string.ascii_letters + string.digits
        return prefix + "".join(self.rng.choice(al) for _ in range(n))

    def tick(self, lo=1.0, hi=4.0):
        self.t += timedelta(seconds=self.rng.uniform(lo, hi))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.t.microsecond // 1000)

    def jump(self, **kw):
        self.t += timedelta(**kw)

    def mark(self, name):
        """Record the 1-based number of the next line to be written."""
        self.marks[name] = len(self.lines) + 1

    def last(self):
        return len(self.lines)

    # ---- raw emitters -----------------------------------------------
    def base(self):
        return {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.id,
            "version": VERSION,
            "gitBranch": self.branch,
        }

    def emit(self, d):
        self.lines.append(d)
        if "uuid" in d:
            self.parent = d["uuid"]
        return d

    def snapshot(self, mid):
        self.emit({"type": "file-history-snapshot", "messageId": mid,
                   "snapshot": {"messageId": mid, "trackedFileBackups": {}, "timestamp": self.tick(0.0, 0.1)},
                   "isSnapshotUpdate": False})

    def user(self, text, gap=(20, 90)):
        u = self.uuid()
        self.snapshot(u)
        d = self.base()
        d.update({"type": "user", "message": {"role": "user", "content": text}, "uuid": u,
                  "timestamp": self.tick(*gap),
                  "thinkingMetadata": {"level": "high", "disabled": False, "triggers": []}})
        self.msg_id = None
        return self.emit(d)

    def _assistant(self, block, new_msg=True):
        prev_asst = bool(self.lines) and self.lines[-1].get("type") == "assistant"
        if new_msg or not prev_asst or not getattr(self, "msg_id", None):
            self.msg_id = self.rid("msg_01")
            self.req_id = self.rid("req_011C")
        d = self.base()
        d.update({"message": {"model": MODEL, "id": self.msg_id, "type": "message", "role": "assistant",
                              "content": [block], "stop_reason": None, "stop_sequence": None,
                              "usage": {"input_tokens": self.rng.randint(3, 12),
                                        "cache_creation_input_tokens": self.rng.randint(100, 4000),
                                        "cache_read_input_tokens": self.rng.randint(15000, 90000),
                                        "output_tokens": self.rng.randint(40, 900),
                                        "service_tier": "standard"}},
                  "requestId": self.req_id, "type": "assistant", "uuid": self.uuid(),
                  "timestamp": self.tick(2, 9)})
        return self.emit(d)

    def say(self, text):
        """Assistant text (starts a new message)."""
        return self._assistant({"type": "text", "text": text})

    def turn_end(self):
        d = self.base()
        d.update({"type": "system", "subtype": "turn_duration", "durationMs": self.rng.randint(20000, 240000),
                  "timestamp": self.tick(0.1, 0.5), "uuid": self.uuid(), "isMeta": False})
        self.emit(d)

    def tool(self, name, inp, content, tur, is_error=False, same_msg=True, dur=(1, 6)):
        tid = self.rid("toolu_01", 22)
        a = self._assistant({"type": "tool_use", "id": tid, "name": name, "input": inp}, new_msg=False)
        block = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        d = self.base()
        d.update({"type": "user", "message": {"role": "user", "content": [block]}, "uuid": self.uuid(),
                  "timestamp": self.tick(*dur), "toolUseResult": tur, "sourceToolAssistantUUID": a["uuid"]})
        self.emit(d)

    def rejected(self, name, inp):
        """The person rejects the tool call at the permission prompt, then the harness notes the interrupt."""
        msg = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
               "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to "
               "tell you how to proceed.")
        self.tool(name, inp, msg, "Error: " + msg, is_error=True, dur=(3, 10))
        d = self.base()
        d.update({"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "[Request interrupted by user for tool use]"}]},
            "uuid": self.uuid(), "timestamp": self.tick(0.1, 0.3)})
        self.emit(d)

    # ---- tools --------------------------------------------------------
    def bash(self, command, description, out, err=False, code=1, stderr="", dur=(1, 6)):
        if err:
            text = "Exit code %d\n%s" % (code, out)
            self.tool("Bash", {"command": command, "description": description}, text, "Error: " + text,
                      is_error=True, dur=dur)
        else:
            self.tool("Bash", {"command": command, "description": description}, out,
                      {"stdout": out, "stderr": stderr, "interrupted": False, "isImage": False}, dur=dur)

    def read(self, path, content, start=1):
        lines = content.split("\n")
        numbered = "\n".join("%6d\u2192%s" % (i + start, l) for i, l in enumerate(lines))
        self.tool("Read", {"file_path": path}, numbered,
                  {"type": "text", "file": {"filePath": path, "content": content, "numLines": len(lines),
                                            "startLine": start, "totalLines": len(lines) + start - 1}})

    def edit(self, path, old, new, at=1):
        snippet = "\n".join("%6d\u2192%s" % (i + at, l) for i, l in enumerate(new.split("\n")))
        self.tool("Edit", {"file_path": path, "old_string": old, "new_string": new},
                  "The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s"
                  % (path, snippet),
                  {"filePath": path, "oldString": old, "newString": new, "originalFile": None,
                   "structuredPatch": [], "userModified": False, "replaceAll": False})

    def write(self, path, content):
        self.tool("Write", {"file_path": path, "content": content}, "File created successfully at: %s" % path,
                  {"type": "create", "filePath": path, "content": content, "structuredPatch": [],
                   "originalFile": None})

    def todo(self, items):
        todos = [{"content": c, "status": s, "activeForm": a} for c, s, a in items]
        self.tool("TodoWrite", {"todos": todos},
                  "Todos have been modified successfully. Ensure that you continue to use the todo list to track "
                  "your progress. Please proceed with the current tasks if applicable",
                  {"oldTodos": [], "newTodos": todos})

    def grep(self, pattern, path, out, mode="content"):
        self.tool("Grep", {"pattern": pattern, "path": path, "output_mode": mode, "-n": True}, out,
                  {"mode": mode, "numFiles": out.count("\n") + 1 if out else 0, "filenames": [],
                   "content": out, "numLines": out.count("\n") + 1 if out else 0})

    def webfetch(self, url, prompt, result):
        self.tool("WebFetch", {"url": url, "prompt": prompt}, result,
                  {"bytes": len(result) * 7, "code": 200, "codeText": "OK", "durationMs": 4211,
                   "result": result, "url": url}, dur=(4, 9))

    # ---- compaction -----------------------------------------------------
    def compact(self, summary, pre_tokens=158211):
        d = self.base()
        logical = self.parent
        d.update({"parentUuid": None, "logicalParentUuid": logical, "type": "system",
                  "subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False,
                  "timestamp": self.tick(30, 60), "uuid": self.uuid(), "level": "info",
                  "compactMetadata": {"trigger": "auto", "preTokens": pre_tokens}})
        self.emit(d)
        d = self.base()
        d.update({"type": "user", "message": {"role": "user", "content":
                  "This session is being continued from a previous conversation that ran out of context. "
                  "The conversation is summarized below:\n" + summary},
                  "isVisibleInTranscriptOnly": True, "isCompactSummary": True,
                  "uuid": self.uuid(), "timestamp": self.tick(0.1, 0.4)})
        self.emit(d)

    def dump(self, path):
        with open(path, "w") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")
