"""Tiny helper to emit Claude Code style JSONL transcripts (one object per line)."""
import json
import random
import uuid
from datetime import datetime, timedelta, timezone

VERSION = "2.1.31"
MODEL = "claude-opus-4-5-20251101"


class Session:
    def __init__(self, seed, cwd, branch, start_iso):
        self.rng = random.Random(seed)
        self.sid = self.uid()
        self.cwd = cwd
        self.branch = branch
        self.t = datetime.fromisoformat(start_iso.replace("Z", "+00:00"))
        self.lines = []
        self.parent = None
        self.spans = {}
        self._open = {}
        self.msg = None

    # ids / time -----------------------------------------------------------
    def uid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _rid(self, prefix, n=24):
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"
        return prefix + "".join(self.rng.choice(alphabet) for _ in range(n))

    def tick(self, lo=1.0, hi=6.0):
        self.t += timedelta(seconds=self.rng.uniform(lo, hi))
        return self.t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
            "%03dZ" % (self.t.microsecond // 1000)

    def wait(self, seconds):
        self.t += timedelta(seconds=seconds)

    @property
    def n(self):
        return len(self.lines)

    def mark(self, name):
        self._open[name] = self.n + 1

    def upto(self, name):
        self.spans[name] = (self._open.pop(name), self.n)

    def src(self, *names):
        parts = []
        for nm in names:
            a, b = self.spans[nm]
            parts.append(f"{self.sid} L{a}-L{b}")
        return "; ".join(parts)

    # line emitters --------------------------------------------------------
    def _base(self, typ):
        u = self.uid()
        d = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.sid,
            "version": VERSION,
            "gitBranch": self.branch,
        }
        d["type"] = typ
        d["uuid"] = u
        return d

    def _emit(self, d):
        self.lines.append(json.dumps(d))
        self.parent = d["uuid"]

    def snapshot(self):
        mid = self.uid()
        self.lines.append(json.dumps({
            "type": "file-history-snapshot", "messageId": mid,
            "snapshot": {"messageId": mid, "trackedFileBackups": {}, "timestamp": self.tick(0, 0.1)},
            "isSnapshotUpdate": False}))

    def user(self, text, pause=(20, 90)):
        """What the person typed."""
        self.wait(self.rng.uniform(*pause))
        d = self._base("user")
        d["message"] = {"role": "user", "content": text}
        d["timestamp"] = self.tick()
        d["permissionMode"] = "default"
        self._emit(d)
        self.msg = None

    def _assistant_block(self, block, stop=None, new_msg=False):
        if new_msg or self.msg is None:
            self.msg = (self._rid("msg_01"), self._rid("req_011C"))
        d = self._base("assistant")
        d["message"] = {
            "model": MODEL, "id": self.msg[0], "type": "message", "role": "assistant",
            "content": [block], "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": self.rng.randint(3, 12),
                      "cache_creation_input_tokens": self.rng.randint(100, 4000),
                      "cache_read_input_tokens": self.rng.randint(12000, 90000),
                      "output_tokens": self.rng.randint(20, 600),
                      "service_tier": "standard"},
        }
        d["requestId"] = self.msg[1]
        # keep key order close to the real files
        d["type"] = d.pop("type")
        d["uuid"] = d.pop("uuid")
        d["timestamp"] = self.tick(1.5, 7)
        self._emit(d)
        return d["uuid"]

    def think(self, text):
        import base64
        sig = base64.b64encode(bytes(self.rng.getrandbits(8) for _ in range(96))).decode()
        self._assistant_block({"type": "thinking", "thinking": text, "signature": sig}, new_msg=True)
        self._after_think = True

    def say(self, text):
        keep = getattr(self, "_after_think", False)
        self._after_think = False
        self._assistant_block({"type": "text", "text": text}, new_msg=not keep)

    def _tool(self, name, inp, content, tur, is_error=False, slow=None):
        self._after_think = False
        tid = self._rid("toolu_01", 22)
        auid = self._assistant_block({"type": "tool_use", "id": tid, "name": name, "input": inp},
                                     stop="tool_use")
        if slow:
            self.wait(slow)
        d = self._base("user")
        block = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if name == "Bash" or is_error:
            block["is_error"] = is_error
        d["message"] = {"role": "user", "content": [block]}
        d["type"] = d.pop("type")
        d["uuid"] = d.pop("uuid")
        d["timestamp"] = self.tick(0.3, 3)
        d["toolUseResult"] = tur
        d["sourceToolAssistantUUID"] = auid
        self._emit(d)
        self.msg = None

    def bash(self, command, description, out, error=False, code=1, slow=None):
        out = out.rstrip("\n")
        if error:
            content = f"Exit code {code}\n{out}"
            tur = f"Error: Exit code {code}\n{out}"
        else:
            content = out
            tur = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        self._tool("Bash", {"command": command, "description": description}, content, tur,
                   is_error=error, slow=slow)

    def read(self, path, text, offset=1):
        body = text.rstrip("\n").split("\n")
        numbered = "\n".join(f"{i:>6}\u2192{l}" for i, l in enumerate(body, offset))
        tur = {"type": "text", "file": {"filePath": path, "content": text,
                                        "numLines": len(body), "startLine": offset,
                                        "totalLines": len(body) + offset - 1}}
        self._tool("Read", {"file_path": path}, numbered, tur)

    def edit(self, path, old, new, snippet_start=1):
        body = new.rstrip("\n").split("\n")
        snippet = "\n".join(f"{i:>6}\u2192{l}" for i, l in enumerate(body, snippet_start))
        content = (f"The file {path} has been updated. Here's the result of running `cat -n` on a "
                   f"snippet of the edited file:\n{snippet}")
        tur = {"filePath": path, "oldString": old, "newString": new, "originalFile": None,
               "structuredPatch": [], "userModified": False, "replaceAll": False}
        self._tool("Edit", {"file_path": path, "old_string": old, "new_string": new}, content, tur)

    def write(self, path, text):
        tur = {"type": "create", "filePath": path, "content": text, "structuredPatch": [],
               "originalFile": None}
        self._tool("Write", {"file_path": path, "content": text},
                   f"File created successfully at: {path}", tur)

    def grep(self, pattern, path, out, mode="content"):
        tur = {"mode": mode, "numFiles": out.count("\n") + 1, "filenames": [], "content": out,
               "numLines": out.count("\n") + 1}
        self._tool("Grep", {"pattern": pattern, "path": path, "output_mode": mode, "-n": True},
                   out, tur)

    def todo(self, items, old=None):
        todos = [{"content": c, "status": s, "activeForm": a} for c, s, a in items]
        self._tool("TodoWrite", {"todos": todos},
                   "Todos have been modified successfully. Ensure that you continue to use the todo "
                   "list to track your progress. Please proceed with the current tasks if applicable",
                   {"oldTodos": old or [], "newTodos": todos})
        return todos

    def first_timestamp(self):
        for l in self.lines:
            d = json.loads(l)
            if "timestamp" in d and d.get("type") != "file-history-snapshot":
                return d["timestamp"]
