// Black-box tests of `lore serve` (docs/serve.md) over plain HTTP: the guards
// (token, Host, origin, a change's header token and JSON body), ids that
// leave the store, loopback only, a taken port, the page's changes against
// the files on disk, and the page and the CLI reviewing the same batch at
// once. The page itself is driven in a real browser by tests/serve/.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "support/process.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;
constexpr const char* kKey = "github.com_acme_widgets";

struct Reply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// One HTTP/1.1 request on a fresh connection to 127.0.0.1:`port`.
Reply Http(int port, const std::string& method, const std::string& target,
           const std::map<std::string, std::string>& headers, const std::string& body = "") {
  Reply r;
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return r;
  }
  std::string req = method + " " + target + " HTTP/1.1\r\n";
  std::map<std::string, std::string> h = headers;
  h.emplace("Host", "127.0.0.1:" + std::to_string(port));
  h["Connection"] = "close";
  if (!body.empty() || method == "POST") h["Content-Length"] = std::to_string(body.size());
  for (const auto& [k, v] : h) req += k + ": " + v + "\r\n";
  req += "\r\n" + body;
  (void)!::write(fd, req.data(), req.size());
  std::string raw;
  char buf[65536];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) raw.append(buf, static_cast<size_t>(n));
  ::close(fd);
  size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return r;
  std::istringstream head(raw.substr(0, end));
  std::string line;
  std::getline(head, line);
  r.status = std::atoi(line.substr(9, 3).c_str());
  while (std::getline(head, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    if (!value.empty() && value.back() == '\r') value.pop_back();
    r.headers[name] = value;
  }
  r.body = raw.substr(end + 4);
  return r;
}

// A TCP connection to 127.0.0.1:`port`, or -1.
int Connect(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Whether the server has ended connection `fd` (its last answer read and
// dropped), waiting at most `ms`.
bool Ended(int fd, int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          until - std::chrono::steady_clock::now())
                          .count();
    if (left < 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0) return n == 0 || errno == ECONNRESET;
  }
}

class ServeE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.Write("widgets/.git/config",
             "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n");
    ASSERT_EQ(Lore({"ensure", repo()}, Opts()).exit_code, 0);
    t_.Write(store() + "/memory/decisions/cache-locale.md",
             "---\ncreated_at: 2026-11-02T03:04:05Z\nupdated_at: 2026-11-02T03:04:05Z\nstatus: "
             "open\nsources: []\n---\n# Cache keys carry the locale\n\nPages were served to "
             "the wrong locale.\n");
  }
  void TearDown() override { Stop(); }

  RunOptions Opts() const {
    RunOptions o;
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["HOME"] = t_ / "home";
    o.env["XDG_CONFIG_HOME"] = std::nullopt;
    o.env["LORE_WAVE"] = "w1";
    o.cwd = repo();
    return o;
  }
  std::string repo() const { return t_ / "widgets"; }
  std::string store() const { return t_ / (std::string("stores/") + kKey); }
  std::string Read(const std::string& rel) const {
    std::ifstream in(store() + "/" + rel);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Queues `n` proposals; returns their ids, oldest first.
  std::vector<std::string> Propose(int n, const std::string& tag) {
    std::vector<std::string> ids;
    for (int i = 0; i < n; ++i) {
      RunOptions o = Opts();
      o.env["LORE_WAVE"] = "w-" + tag + "-" + std::to_string(i);
      auto r = Lore(
          {"propose", repo(), "--type", "convention", "--subject",
           tag + " subject " + std::to_string(i), "--insight",
           "insight " + tag + " " + std::to_string(i), "--evidence", "seen", "--confidence", "0.8"},
          o);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      ids.push_back(Json::parse(r.out)["id"].get<std::string>());
    }
    return ids;
  }

  // Starts `lore serve` on any free port and reads its address.
  void Start() {
    RunOptions o = Opts();
    child_ = std::make_unique<Child>(
        std::vector<std::string>{LoreBinary(), "serve", repo(), "--port", "0"}, o.env,
        t_ / "serve.out", t_ / "serve.err");
    ASSERT_TRUE(WaitFor([&] { return ReadFile(t_ / "serve.out").find("?t=") != std::string::npos; },
                        std::chrono::seconds(20)))
        << ReadFile(t_ / "serve.err");
    const std::string line = ReadFile(t_ / "serve.out");
    size_t at = line.find("http://127.0.0.1:");
    ASSERT_NE(at, std::string::npos) << line;
    port_ = std::atoi(line.c_str() + at + 17);
    token_ = line.substr(line.find("?t=") + 3);
    while (!token_.empty() && (token_.back() == '\n' || token_.back() == '\r')) token_.pop_back();
    ASSERT_EQ(token_.size(), 64u) << line;
  }
  void Stop() {
    if (child_) {
      child_->Kill(SIGTERM);
      child_->Wait();
      child_.reset();
    }
  }
  static std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  Reply Get(const std::string& target) {
    return Http(port_, "GET", target, {{"X-Lore-Token", token_}});
  }
  Reply Post(const std::string& what, const Json& body) {
    return Http(port_, "POST", "/api/" + what,
                {{"X-Lore-Token", token_}, {"Content-Type", "application/json"}}, body.dump());
  }

  TempDir t_;
  std::unique_ptr<Child> child_;
  int port_ = 0;
  std::string token_;
};

TEST_F(ServeE2E, EveryRequestNeedsTheTokenAHostOfItsOwnAndNoOtherSite) {
  Start();
  EXPECT_EQ(Http(port_, "GET", "/api/overview", {}).status, 403);
  EXPECT_EQ(Http(port_, "GET", "/?t=" + std::string(64, '0'), {}).status, 403);
  EXPECT_EQ(Http(port_, "GET", "/", {}).status, 403);
  EXPECT_EQ(Http(port_, "GET", "/api/overview?t=" + token_, {}).status, 200);
  EXPECT_EQ(Http(port_, "GET", "/?t=" + token_, {}).status, 200);
  // The assets hold no data and need no token; anything else is not there.
  EXPECT_EQ(Http(port_, "GET", "/app.js", {}).status, 200);
  EXPECT_EQ(Http(port_, "GET", "/etc/passwd?t=" + token_, {}).status, 404);
  EXPECT_EQ(Http(port_, "GET", "/../../etc/passwd?t=" + token_, {}).status, 404);
  // DNS rebinding: another host name at the same address.
  EXPECT_EQ(Http(port_, "GET", "/api/overview?t=" + token_,
                 {{"Host", "evil.example:" + std::to_string(port_)}})
                .status,
            403);
  // A change: the header token and JSON, from no other site.
  const std::string pin = R"({"id":"memory/decisions/cache-locale.md","pin":true})";
  EXPECT_EQ(Http(port_, "POST", "/api/pin?t=" + token_, {{"Content-Type", "application/json"}}, pin)
                .status,
            403);
  EXPECT_EQ(
      Http(port_, "POST", "/api/pin",
           {{"X-Lore-Token", token_}, {"Content-Type", "application/x-www-form-urlencoded"}}, pin)
          .status,
      415);
  EXPECT_EQ(Http(port_, "POST", "/api/pin",
                 {{"X-Lore-Token", token_},
                  {"Content-Type", "application/json"},
                  {"Origin", "http://evil.example"}},
                 pin)
                .status,
            403);
  EXPECT_EQ(Http(port_, "POST", "/api/pin",
                 {{"X-Lore-Token", token_},
                  {"Content-Type", "application/json"},
                  {"Sec-Fetch-Site", "cross-site"}},
                 pin)
                .status,
            403);
  EXPECT_EQ(Read("usage.jsonl"), "");  // none of them changed anything
  Reply ok = Http(port_, "POST", "/api/pin",
                  {{"X-Lore-Token", token_},
                   {"Content-Type", "application/json"},
                   {"Origin", "http://127.0.0.1:" + std::to_string(port_)}},
                  pin);
  EXPECT_EQ(ok.status, 200) << ok.body;
  EXPECT_NE(Read("usage.jsonl").find("\"use\":\"pin\""), std::string::npos);
  // Every answer forbids other resources and framing.
  EXPECT_NE(ok.headers["content-security-policy"].find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(ok.headers["x-content-type-options"], "nosniff");
}

TEST_F(ServeE2E, IdsThatLeaveTheStoreAreNotFound) {
  Start();
  for (const std::string id : {"../../etc/passwd", "/etc/passwd", "memory/../../../etc/passwd",
                               "memory/decisions/..%2F..%2Fconfig.toml", "raw.jsonl:0"}) {
    Reply r = Get("/api/item?id=" + id);
    EXPECT_EQ(r.status, 404) << id << " " << r.body;
    EXPECT_EQ(r.body.find("root:"), std::string::npos);
  }
  // A symlink inside the store is not followed either.
  std::filesystem::create_symlink("/etc/passwd", store() + "/memory/decisions/link.md");
  Reply r = Get("/api/item?id=memory/decisions/link.md");
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(r.body.find("root:"), std::string::npos);
  EXPECT_EQ(Get("/api/item?id=memory/decisions/cache-locale.md").status, 200);
}

TEST_F(ServeE2E, ARecordsSourcesOpenTheSessionLogsLinesOfThatTranscriptRange) {
  t_.Write(
      store() + "/sessions/s1.jsonl",
      "{\"turn\":\"person\",\"line\":3,\"at\":\"2026-11-02T03:00:00Z\",\"text\":\"please key "
      "the cache by locale\"}\n"
      "{\"turn\":\"agent\",\"line\":9,\"at\":\"2026-11-02T03:01:00Z\",\"text\":\"Done: keys carry "
      "the locale now.\"}\n"
      "{\"turn\":\"person\",\"line\":40,\"at\":\"2026-11-02T03:09:00Z\",\"text\":\"thanks\"}\n"
      "{\"turn\":\"span\",\"session_id\":\"s1\",\"lines\":[1,40],\"started_at\":\"2026-11-02T03:00:"
      "00Z\","
      "\"ended_at\":\"2026-11-02T03:09:00Z\"}\n");
  t_.Write(store() + "/memory/decisions/cache-locale.md",
           "---\ncreated_at: 2026-11-02T03:04:05Z\nupdated_at: 2026-11-02T03:04:05Z\nstatus: "
           "open\nsources:\n  - session_id: s1\n    range: [1, 10]\n---\n# Cache keys carry the "
           "locale\n");
  Start();
  Json records = Json::parse(Get("/api/records?kind=decision").body);
  ASSERT_EQ(records["items"].size(), 1u) << records.dump();
  const std::string source = records["items"][0]["sources"][0]["id"].get<std::string>();
  EXPECT_EQ(source, "sessions/s1.jsonl#1-10");
  auto encoded = [](std::string id) {
    for (size_t at; (at = id.find('#')) != std::string::npos;) id.replace(at, 1, "%23");
    return id;
  };
  Reply r = Get("/api/item?id=" + encoded(source));
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string text = Json::parse(r.body)["text"].get<std::string>();
  EXPECT_NE(text.find("please key the cache by locale"), std::string::npos) << text;
  EXPECT_NE(text.find("keys carry the locale now"), std::string::npos) << text;
  EXPECT_EQ(text.find("thanks"), std::string::npos) << text;  // line 40 is outside 1-10
  // The timeline names the session with its task.
  Json sessions = Json::parse(Get("/api/sessions").body);
  ASSERT_EQ(sessions["items"].size(), 1u) << sessions.dump();
  EXPECT_EQ(sessions["items"][0]["task"], "please key the cache by locale");
  for (const std::string bad : {"sessions/../config.toml#1-2", "sessions/.hidden.jsonl#1-2",
                                "sessions/s1.jsonl#9-1", "sessions/s1.jsonl#a-b"}) {
    EXPECT_EQ(Get("/api/item?id=" + encoded(bad)).status, 404) << bad;
  }
}

TEST_F(ServeE2E, ListensOnLoopbackOnlyAndATakenPortIsOneLine) {
  Start();
  // /proc/net/tcp: the listening socket of the port is bound to 127.0.0.1.
  char port_hex[8];
  std::snprintf(port_hex, sizeof port_hex, "%04X", port_);
  std::istringstream tcp(ReadFile("/proc/net/tcp") + ReadFile("/proc/net/tcp6"));
  std::string line;
  std::set<std::string> locals;
  while (std::getline(tcp, line)) {
    std::istringstream f(line);
    std::string sl, local, remote, state;
    f >> sl >> local >> remote >> state;
    if (state == "0A" && local.size() > 5 && local.substr(local.size() - 4) == port_hex) {
      locals.insert(local);
    }
  }
  EXPECT_EQ(locals, std::set<std::string>{std::string("0100007F:") + port_hex});
  auto again = Lore({"serve", repo(), "--port", std::to_string(port_)}, Opts());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "lore: 127.0.0.1:" + std::to_string(port_) +
                           " is taken by another program; pass --port <N> for another port, or "
                           "--port 0 for any free one\n");
}

TEST_F(ServeE2E, EditsAreLintedPinsAndReplacementsAreKeptAndUndoTakesThemBack) {
  Start();
  const std::string id = "memory/decisions/cache-locale.md";
  const std::string before = Read(id);
  Reply bad = Post("edit", {{"id", id}, {"text", "---\nstatus: bogus\n---\n# x\n"}});
  EXPECT_EQ(bad.status, 422) << bad.body;
  Json why = Json::parse(bad.body);
  EXPECT_NE(why["error"].get<std::string>().find("the linter refused"), std::string::npos);
  bool status_named = false;
  for (const Json& f : why["findings"]) status_named |= f["rule"] == "bad-status";
  EXPECT_TRUE(status_named) << bad.body;
  EXPECT_EQ(Read(id), before);

  std::string edited = before;
  edited.replace(edited.find("wrong locale"), 12, "right locale");
  Reply good = Post("edit", {{"id", id}, {"text", edited}});
  EXPECT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(Read(id), edited);

  // Replaced, never deleted: the record stays, marked.
  t_.Write(store() + "/memory/decisions/cache-keys.md",
           "---\ncreated_at: 2026-11-03T03:04:05Z\nupdated_at: 2026-11-03T03:04:05Z\nstatus: "
           "open\nsources: []\n---\n# Cache keys\n");
  EXPECT_EQ(Post("replace", {{"id", id}, {"by", "nowhere"}}).status, 422);
  Reply replaced = Post("replace", {{"id", id}, {"by", "cache-keys"}});
  EXPECT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_NE(Read(id).find("status: replaced"), std::string::npos);
  EXPECT_NE(Read(id).find("replaced_by: cache-keys"), std::string::npos);

  EXPECT_EQ(Post("pin", {{"id", id}, {"pin", true}}).status, 200);
  Json records = Json::parse(Get("/api/records?kind=decision").body);
  bool pinned = false;
  for (const Json& r : records["items"]) pinned |= r["id"] == id && r["usage"]["pinned"] == true;
  EXPECT_TRUE(pinned);

  // Undo, last first: the pin, the replacement, the edit; then nothing.
  EXPECT_EQ(Post("undo", Json::object()).status, 200);
  EXPECT_EQ(Post("undo", Json::object()).status, 200);
  EXPECT_EQ(Read(id), edited);
  EXPECT_EQ(Post("undo", Json::object()).status, 200);
  EXPECT_EQ(Read(id), before);
  EXPECT_EQ(Post("undo", Json::object()).status, 409);
  // A record changed elsewhere since the page's edit is not overwritten.
  EXPECT_EQ(Post("edit", {{"id", id}, {"text", edited}}).status, 200);
  t_.Write(store() + "/" + id, before + "\nEdited by hand.\n");
  EXPECT_EQ(Post("undo", Json::object()).status, 409);
  EXPECT_EQ(Read(id), before + "\nEdited by hand.\n");
}

TEST_F(ServeE2E, ThePageAndTheCliReviewingAtOnceNeverLoseOrDoubleADecision) {
  Start();
  for (int round = 0; round < 6; ++round) {
    std::vector<std::string> ids = Propose(4, "r" + std::to_string(round));
    Json batch = Json::parse(Get("/api/review").body);
    ASSERT_EQ(batch["batch"].size(), 4u) << batch.dump();
    // The page keeps two and declines two; the CLI at the same moment keeps
    // the first (and, by its flags' rule, declines the rest it sees).
    RunResult cli;
    std::thread t([&] {
      cli = Lore({"review", repo(), "--session", "cli", "--approve", ids[0]}, Opts());
    });
    Reply page = Post("review", {{"approve", {ids[0], ids[1]}}, {"decline", {ids[2], ids[3]}}});
    t.join();
    ASSERT_EQ(page.status, 200) << page.body;
    // The CLI either decided first, or found the page had: then it changed nothing.
    EXPECT_TRUE(
        cli.exit_code == 0 ||
        (cli.exit_code == 1 && cli.err.find("no queued proposal has id") != std::string::npos))
        << cli.exit_code << " " << cli.err;
    Json r = Json::parse(page.body);
    EXPECT_EQ(r["approved"].get<int>() + r["declined"].get<int>() + r["already"].size(), 4u)
        << page.body;
  }
  // Every proposal was decided exactly once: in learnings.jsonl or the
  // declined file, never both, never twice; the queue is empty.
  std::map<std::string, int> seen;
  for (const std::string file : {"learnings.jsonl", "proposals.rejected.jsonl"}) {
    std::istringstream in(Read(file));
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      Json j = Json::parse(line);
      seen[j["id"].get<std::string>()] += 1;
    }
  }
  EXPECT_EQ(seen.size(), 24u);
  for (const auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
  EXPECT_EQ(Json::parse(Get("/api/review").body)["pending"], 0);
}

TEST_F(ServeE2E, ATeamStoresQueueIsLeftToLoreReviewWhichClaimsABatchFirst) {
  std::vector<std::string> ids = Propose(2, "team");
  t_.Write(store() + "/config.toml", "[team]\nurl = \"postgresql://127.0.0.1:1/lore\"\n");
  Start();
  Reply batch = Get("/api/review");
  EXPECT_EQ(batch.status, 409) << batch.body;
  EXPECT_NE(batch.body.find("lore review"), std::string::npos) << batch.body;
  Reply decided = Post("review", {{"approve", {ids[0]}}});
  EXPECT_EQ(decided.status, 409) << decided.body;
  EXPECT_EQ(Read("learnings.jsonl"), "");
}

TEST_F(ServeE2E, ActivityDrawsEveryWeekBetweenTheFirstSessionAndTheLast) {
  auto log = [&](const std::string& id, const std::string& at) {
    t_.Write(store() + "/sessions/" + id + ".jsonl",
             "{\"turn\":\"person\",\"line\":1,\"at\":\"" + at +
                 "\",\"text\":\"fix it\"}\n"
                 "{\"turn\":\"span\",\"session_id\":\"" +
                 id + "\",\"lines\":[1,1],\"started_at\":\"" + at + "\",\"ended_at\":\"" + at +
                 "\"}\n");
  };
  log("a", "2026-10-05T10:00:00Z");  // 2026-W41
  log("b", "2026-11-02T10:00:00Z");  // 2026-W45
  Start();
  Json weeks = Json::parse(Get("/api/activity").body)["weeks"];
  std::vector<std::string> names;
  int64_t sessions = 0;
  for (const Json& w : weeks) {
    names.push_back(w["week"].get<std::string>());
    sessions += w["sessions"].get<int64_t>();
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"2026-W41", "2026-W42", "2026-W43", "2026-W44", "2026-W45"}));
  EXPECT_EQ(sessions, 2);
}

TEST_F(ServeE2E, SlowAndIdleClientsNeverKeepARequestWaiting) {
  Start();
  // 300 connections that send nothing, more than the server keeps open.
  std::vector<int> idle;
  for (int i = 0; i < 300; ++i) {
    int fd = Connect(port_);
    ASSERT_GE(fd, 0) << i;
    idle.push_back(fd);
  }
  // 8 that send their request a byte at a time, every 200 ms (slow loris).
  const std::string head = "GET /api/overview?t=" + token_ +
                           " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) + "\r\n\r\n";
  std::vector<int> slow;
  for (int i = 0; i < 8; ++i) {
    int fd = Connect(port_);
    ASSERT_GE(fd, 0) << i;
    slow.push_back(fd);
  }
  const auto started = std::chrono::steady_clock::now();
  size_t sent = 0;
  auto trickle = [&] {
    for (int fd : slow) (void)!::send(fd, head.data() + sent, 1, MSG_NOSIGNAL);
    ++sent;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  };
  for (int i = 0; i < 5; ++i) trickle();
  // A request of the page's is answered at once all the same.
  const auto asked = std::chrono::steady_clock::now();
  Reply r = Get("/api/overview");
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - asked)
                        .count();
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_LT(took, 1000) << "a request waited behind slow and idle clients";
  // The slow ones are still being read before the head's 3 s are up ...
  EXPECT_FALSE(Ended(slow[0], 0));
  while (std::chrono::steady_clock::now() - started < std::chrono::milliseconds(3600)) trickle();
  ASSERT_LT(sent, head.size()) << "the test sent a whole head";
  // ... and closed after them (told 408 first).
  for (int fd : slow) {
    char buf[512] = {};
    pollfd p{fd, POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 1500), 1);
    const ssize_t n = ::recv(fd, buf, sizeof buf - 1, 0);
    ASSERT_GT(n, 0);
    EXPECT_EQ(std::string(buf).rfind("HTTP/1.1 408 ", 0), 0u) << buf;
    EXPECT_NE(std::string(buf).find("did not arrive within 3 s"), std::string::npos) << buf;
    EXPECT_TRUE(Ended(fd, 1500));
    ::close(fd);
  }
  // The idle ones are all closed too, the first ones to make room, the rest after 3 s.
  for (int fd : idle) {
    EXPECT_TRUE(Ended(fd, 1500));
    ::close(fd);
  }
  EXPECT_EQ(Get("/api/overview").status, 200);
}

TEST_F(ServeE2E, ABodyOverTheLimitIsRefusedSayingSo) {
  Start();
  const std::string big(size_t{1} << 20 | 1, 'x');
  Reply r = Http(port_, "POST", "/api/edit",
                 {{"X-Lore-Token", token_}, {"Content-Type", "application/json"}}, big);
  EXPECT_EQ(r.status, 413) << r.body;
  Json why = Json::parse(r.body);
  EXPECT_EQ(why["error"],
            "the request body (1048577 bytes) is over the 1 MiB limit (1048576 bytes)");
  EXPECT_NE(why["repair"].get<std::string>().find("at most 1 MiB"), std::string::npos);
  EXPECT_EQ(r.headers["x-content-type-options"], "nosniff");
  // So is one sent in chunks, as soon as a chunk's size says so.
  int fd = Connect(port_);
  ASSERT_GE(fd, 0);
  const std::string chunked =
      "POST /api/edit HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
      "\r\nX-Lore-Token: " + token_ +
      "\r\nContent-Type: application/json\r\nTransfer-Encoding: "
      "chunked\r\n\r\n100001\r\n";
  ASSERT_EQ(::send(fd, chunked.data(), chunked.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(chunked.size()));
  std::string answer;
  char buf[4096];
  for (pollfd p{fd, POLLIN, 0}; ::poll(&p, 1, 3000) == 1;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  EXPECT_EQ(answer.rfind("HTTP/1.1 413 ", 0), 0u) << answer;
  EXPECT_NE(answer.find("the request body (at least 1048577 bytes) is over the 1 MiB limit"),
            std::string::npos)
      << answer;
  // A body within the limit is read as before.
  Reply bad =
      Post("edit", {{"id", "memory/decisions/nothing.md"}, {"text", std::string(1000, 'y')}});
  EXPECT_NE(bad.status, 413);
  EXPECT_NE(bad.status, 0);
}

TEST_F(ServeE2E, AnEditWhoseSecretWasReplacedIsUndoneAndSoAreTheChangesBefore) {
  Start();
  const std::string id = "memory/decisions/cache-locale.md";
  const std::string before = Read(id);
  ASSERT_EQ(Post("pin", {{"id", id}, {"pin", true}}).status, 200);
  const std::string secret = "AKIAIOSFODNN7EXAMPLE";
  Reply edit = Post("edit", {{"id", id}, {"text", before + "\nThe key was " + secret + ".\n"}});
  ASSERT_EQ(edit.status, 200) << edit.body;
  const std::string written = Read(id);
  EXPECT_EQ(written.find(secret), std::string::npos) << written;
  EXPECT_NE(written.find("The key was"), std::string::npos) << written;
  // The undo compares the file with what was written, not with what was sent.
  Reply undo = Post("undo", Json::object());
  EXPECT_EQ(undo.status, 200) << undo.body;
  EXPECT_EQ(Read(id), before);
  Reply unpin = Post("undo", Json::object());
  EXPECT_EQ(unpin.status, 200) << unpin.body;
  EXPECT_EQ(Json::parse(unpin.body)["undone"], "undid pin " + id);
  EXPECT_EQ(Post("undo", Json::object()).status, 409);
}

TEST_F(ServeE2E, SessionsComePagedWithACursorEachExactlyOnce) {
  // 3,000 session logs written directly, every fifth sharing its start with another.
  const int kSessions = 3000;
  std::filesystem::create_directories(store() + "/sessions");
  for (int i = 0; i < kSessions; ++i) {
    char at[32];
    const int minute = i - i % 5 / 4;  // i and i-1 share a minute when i % 5 == 4
    std::snprintf(at, sizeof at, "2026-%02d-%02dT%02d:%02d:00Z", 1 + minute / 40000,
                  1 + minute / 1440 % 28, minute / 60 % 24, minute % 60);
    const std::string sid = "s" + std::to_string(i);
    std::ofstream(store() + "/sessions/" + sid + ".jsonl")
        << "{\"turn\":\"person\",\"line\":1,\"at\":\"" << at << "\",\"text\":\"task " << i
        << "\"}\n{\"turn\":\"span\",\"session_id\":\"" << sid
        << "\",\"lines\":[1,1],\"started_at\":\"" << at << "\",\"ended_at\":\"" << at << "\"}\n";
  }
  Start();
  const auto asked = std::chrono::steady_clock::now();
  Reply first = Get("/api/sessions");
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - asked)
                        .count();
  ASSERT_EQ(first.status, 200) << first.body;
  Json page = Json::parse(first.body);
  EXPECT_EQ(page["total"], kSessions);
  EXPECT_EQ(page["items"].size(), 50u);
  EXPECT_LT(first.body.size(), 64u * 1024) << "the first page is bounded";
  EXPECT_LT(took, 3000) << "the first page of " << kSessions << " sessions";
  EXPECT_EQ(page["items"][0]["task"], "task 2998");  // tied with s2999: the name decides
  // Paging through gives every session once, newest first.
  std::set<std::string> seen;
  std::string last_at = "9999";
  std::string after;
  int pages = 0;
  for (;;) {
    Reply r = Get("/api/sessions?limit=500" + (after.empty() ? "" : "&after=" + after));
    ASSERT_EQ(r.status, 200) << r.body;
    Json p = Json::parse(r.body);
    ++pages;
    for (const Json& x : p["items"]) {
      EXPECT_TRUE(seen.insert(x["session_id"].get<std::string>()).second) << x["session_id"];
      EXPECT_LE(x["started_at"].get<std::string>(), last_at);
      last_at = x["started_at"].get<std::string>();
    }
    if (p["next"].is_null()) break;
    after = p["next"].get<std::string>();
    for (size_t at; (at = after.find(':')) != std::string::npos;) after.replace(at, 1, "%3A");
    ASSERT_LT(pages, 10);
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kSessions));
  EXPECT_EQ(pages, 6);
  // What is not a cursor or a limit is one line saying so.
  for (const std::string bad : {"after=nonsense", "after=yesterday~s1", "after=~", "limit=0",
                                "limit=501", "limit=ten", "limit=-1"}) {
    Reply r = Get("/api/sessions?" + bad);
    EXPECT_EQ(r.status, 400) << bad << " " << r.body;
    Json why = Json::parse(r.body);
    EXPECT_FALSE(why["error"].get<std::string>().empty()) << bad;
    EXPECT_FALSE(why["repair"].get<std::string>().empty()) << bad;
  }
  EXPECT_NE(Json::parse(Get("/api/sessions?limit=0").body)["error"].get<std::string>().find(
                "'limit' must be a whole number from 1 to 500"),
            std::string::npos);
}

// The page's Markdown: the briefing and a record's body as HTML whose raw
// HTML is escaped; a source as a conversation; excerpts without
// frontmatter; "why" in words.
TEST_F(ServeE2E, MarkdownIsRenderedWithRawHtmlEscapedAndSourcesReadAsAConversation) {
  t_.Write(
      store() + "/memory/decisions/hostile.md",
      "---\ncreated_at: 2026-11-02T03:04:05Z\nupdated_at: 2026-11-02T03:04:05Z\nstatus: "
      "open\nsources:\n  - session_id: s2\n    range: [1, 20]\n---\n# Locale **cache** rule\n\n"
      "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)> and `code`\n\n"
      "| a | b |\n|---|---|\n| 1 | 2 |\n");
  t_.Write(
      store() + "/sessions/s2.jsonl",
      "{\"turn\":\"person\",\"line\":3,\"at\":\"2026-11-02T03:00:00Z\",\"text\":\"fix "
      "the\\nlocale\"}\n"
      "{\"turn\":\"tool\",\"line\":5,\"tool\":\"Bash\",\"id\":\"t1\",\"input\":\"make test\"}\n"
      "{\"turn\":\"result\",\"line\":6,\"id\":\"t1\",\"status\":\"failed\",\"exit\":2,\"text\":\"1 "
      "failed\\nlocale_test\"}\n"
      "{\"turn\":\"agent\",\"line\":9,\"text\":\"Fixed.\"}\n"
      "{\"turn\":\"span\",\"session_id\":\"s2\",\"lines\":[1,9]}\n");
  Start();
  Json overview = Json::parse(Get("/api/overview").body);
  ASSERT_TRUE(overview["briefing"]["html"].is_string()) << overview.dump();
  Json item = Json::parse(Get("/api/item?id=memory/decisions/hostile.md").body);
  const std::string html = item["html"].get<std::string>();
  EXPECT_NE(html.find("<h1>Locale <strong>cache</strong> rule</h1>"), std::string::npos) << html;
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_EQ(html.find("<img"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << html;
  EXPECT_NE(html.find("<table>"), std::string::npos) << html;
  EXPECT_EQ(html.find("created_at"), std::string::npos) << html;
  EXPECT_NE(item["frontmatter"].get<std::string>().find("status: open"), std::string::npos);
  EXPECT_EQ(item["text"].get<std::string>().rfind("---\ncreated_at", 0), 0u);  // the file as it is

  Json source = Json::parse(Get("/api/item?id=sessions/s2.jsonl%231-20").body);
  ASSERT_TRUE(source["turns"].is_array()) << source.dump();
  ASSERT_EQ(source["turns"].size(), 4u) << source.dump();
  EXPECT_EQ(source["turns"][0]["who"], "person");
  EXPECT_EQ(source["turns"][0]["text"], "fix the\nlocale");
  EXPECT_EQ(source["turns"][1]["who"], "tool call");
  EXPECT_EQ(source["turns"][1]["tool"], "Bash");
  EXPECT_EQ(source["turns"][1]["text"], "make test");
  EXPECT_EQ(source["turns"][2]["who"], "tool result");
  EXPECT_EQ(source["turns"][2]["status"], "failed");
  EXPECT_EQ(source["turns"][2]["exit"], 2);
  EXPECT_EQ(source["turns"][3]["who"], "agent");
  const std::string text = source["text"].get<std::string>();
  EXPECT_NE(text.find("person:\nfix the\nlocale\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tool call Bash: make test\n"), std::string::npos) << text;
  EXPECT_NE(text.find("tool result (failed, exit 2):\n> 1 failed\n> locale_test\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("{\"turn\""), std::string::npos) << text;

  Json hits = Json::parse(Get("/api/search?q=locale%20cache&explain=1").body)["hits"];
  ASSERT_FALSE(hits.empty());
  for (const Json& hit : hits) {
    const std::string excerpt = hit["excerpt"].get<std::string>();
    EXPECT_EQ(excerpt.find("created_at:"), std::string::npos) << excerpt;
    EXPECT_EQ(excerpt.find("---"), std::string::npos) << excerpt;
    ASSERT_TRUE(hit["why"].is_array()) << hit.dump();
    ASSERT_FALSE(hit["why"].empty()) << hit.dump();
  }
  const Json* cache = nullptr;
  for (const Json& hit : hits) {
    if (hit["id"] == "memory/decisions/cache-locale.md") cache = &hit;
  }
  ASSERT_NE(cache, nullptr);
  const std::string why = (*cache)["why"][0].get<std::string>();
  EXPECT_NE(why.find("are in its title"), std::string::npos) << why;
  EXPECT_NE(why.find("% of its score"), std::string::npos) << why;
  Json plain = Json::parse(Get("/api/search?q=locale").body)["hits"];
  EXPECT_FALSE(plain[0].contains("why"));
}

TEST_F(ServeE2E, ViewsAnswerOnAStoreWithNothingYetAndTheServerStopsOnSigterm) {
  Start();
  for (const std::string v :
       {"overview", "status", "records?kind=decision", "records?kind=knowledge", "learnings",
        "sessions", "activity", "review", "search?q=locale", "search?q=locale&explain=1"}) {
    Reply r = Get("/api/" + v);
    EXPECT_EQ(r.status, 200) << v << " " << r.body;
    EXPECT_NO_THROW((void)Json::parse(r.body)) << v;
  }
  Json hits = Json::parse(Get("/api/search?q=locale&explain=1").body)["hits"];
  ASSERT_FALSE(hits.empty());
  EXPECT_TRUE(hits[0].contains("explain"));
  EXPECT_EQ(Get("/api/records?kind=nonsense").status, 400);
  EXPECT_EQ(Get("/api/nonsense").status, 404);
  // A person's search is not the agent's use of what it found.
  EXPECT_EQ(Read("usage.jsonl").find("\"via\":\"search\""), std::string::npos);
  child_->Kill(SIGTERM);
  EXPECT_EQ(child_->Wait(), 0);
  child_.reset();
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
