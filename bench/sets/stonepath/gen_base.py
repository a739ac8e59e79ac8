# framework for make_set.py (kept in one file by make_set.py's import)
import json, random, uuid, datetime, base64

CWD = "/home/priya/infra/stonepath"
VERSION = "2.1.42"
MODEL = "claude-opus-4-5-20251101"
B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

class Session:
    def __init__(self, seed, start, branch):
        self.rng = random.Random(seed)
        self.sid = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        self.t = datetime.datetime.fromisoformat(start)
        self.branch = branch
        self.lines = []
        self.last = None
        self.marks = {}
        self.msg = None
        self.turn_start = self.t

    def _uuid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _rid(self, prefix, n):
        return prefix + "".join(self.rng.choice(B62) for _ in range(n))

    def _ts(self, secs):
        self.t += datetime.timedelta(seconds=secs, milliseconds=self.rng.randint(0, 999))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.t.microsecond // 1000)

    def _mark(self, mark):
        if mark:
            self.marks.setdefault(mark, []).append(len(self.lines))

    def _base(self, typ, secs):
        u = self._uuid()
        d = {"parentUuid": self.last, "isSidechain": False, "userType": "external", "cwd": CWD,
             "sessionId": self.sid, "version": VERSION, "gitBranch": self.branch, "type": typ,
             "uuid": u, "timestamp": self._ts(secs)}
        self.last = u
        return d

    def snapshot(self):
        ts = self._ts(1)
        self.lines.append({"type": "file-history-snapshot", "messageId": self._uuid(),
                           "snapshot": {"messageId": self._uuid(), "trackedFileBackups": {}, "timestamp": ts},
                           "isSnapshotUpdate": False})

    def user(self, text, mark=None, secs=40):
        self.snapshot()
        d = self._base("user", secs)
        d["message"] = {"role": "user", "content": text}
        d["thinkingMetadata"] = {"level": "high", "disabled": False, "triggers": []}
        self.lines.append(d); self._mark(mark)
        self.msg = None
        self.turn_start = self.t

    def _asst(self, block, secs, stop=None):
        if self.msg is None:
            self.msg = (self._rid("msg_01", 22), self._rid("req_011C", 20))
        d = self._base("assistant", secs)
        d["message"] = {"model": MODEL, "id": self.msg[0], "type": "message", "role": "assistant",
                        "content": [block], "stop_reason": stop, "stop_sequence": None,
                        "usage": {"input_tokens": self.rng.randint(3, 12),
                                  "cache_creation_input_tokens": self.rng.randint(100, 6000),
                                  "cache_read_input_tokens": self.rng.randint(15000, 90000),
                                  "output_tokens": self.rng.randint(20, 900), "service_tier": "standard"}}
        d["requestId"] = self.msg[1]
        self.lines.append(d)
        return d

    def think(self, text, mark=None):
        sig = base64.b64encode(bytes(self.rng.getrandbits(8) for _ in range(180))).decode()
        self._asst({"type": "thinking", "thinking": text, "signature": sig}, 4)
        self._mark(mark)

    def say(self, text, mark=None, end=False):
        self._asst({"type": "text", "text": text}, 3 + len(text) // 80, "end_turn" if end else None)
        self._mark(mark)
        if end:
            self.end_turn()

    def end_turn(self):
        d = self._base("system", 0)
        d.update({"subtype": "turn_duration",
                  "durationMs": int((self.t - self.turn_start).total_seconds() * 1000), "isMeta": False})
        self.lines.append(d)
        self.msg = None

    def _tool(self, name, inp, content, is_error, tur, mark, secs):
        tid = self._rid("toolu_01", 22)
        a = self._asst({"type": "tool_use", "id": tid, "name": name, "input": inp}, 3, "tool_use")
        self._mark(mark)
        d = self._base("user", secs)
        d["message"] = {"role": "user", "content": [{"tool_use_id": tid, "type": "tool_result",
                                                     "content": content, "is_error": is_error}]}
        d["toolUseResult"] = tur
        d["sourceToolAssistantUUID"] = a["uuid"]
        self.lines.append(d); self._mark(mark)
        self.msg = None

    def bash(self, cmd, desc, out, err=False, code=1, mark=None, secs=4, stderr=""):
        out = out.strip("\n")
        if err:
            content = "Exit code %d\n%s" % (code, out)
            tur = "Error: " + content
        else:
            content = out
            tur = {"stdout": out, "stderr": stderr, "interrupted": False, "isImage": False}
        self._tool("Bash", {"command": cmd, "description": desc}, content, err, tur, mark, secs)

    def read(self, path, text, mark=None):
        text = text.strip("\n")
        ls = text.split("\n")
        numbered = "\n".join("%6d\u2192%s" % (i + 1, l) for i, l in enumerate(ls))
        tur = {"type": "text", "file": {"filePath": path, "content": text, "numLines": len(ls),
                                        "startLine": 1, "totalLines": len(ls)}}
        self._tool("Read", {"file_path": path}, numbered, False, tur, mark, 1)

    def edit(self, path, old, new, snippet=None, mark=None):
        snippet = snippet or new
        ls = snippet.strip("\n").split("\n")
        body = "\n".join("%6d\u2192%s" % (i + 1, l) for i, l in enumerate(ls))
        content = ("The file %s has been updated. Here's the result of running `cat -n` on a snippet "
                   "of the edited file:\n%s" % (path, body))
        tur = {"filePath": path, "oldString": old, "newString": new, "replaceAll": False,
               "userModified": False, "structuredPatch": []}
        self._tool("Edit", {"file_path": path, "old_string": old, "new_string": new, "replace_all": False},
                   content, False, tur, mark, 1)

    def write(self, path, text, mark=None):
        tur = {"type": "create", "filePath": path, "content": text, "structuredPatch": []}
        self._tool("Write", {"file_path": path, "content": text},
                   "File created successfully at: %s" % path, False, tur, mark, 1)

    def todo(self, items):
        todos = [{"content": c, "status": s, "activeForm": a} for c, s, a in items]
        self._tool("TodoWrite", {"todos": todos},
                   "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
                   False, {"oldTodos": [], "newTodos": todos}, None, 1)

    def dump(self, path):
        with open(path, "w") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")

    def L(self, mark, which=0):
        return self.marks[mark][which]  # already 1-based
