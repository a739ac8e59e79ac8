#include "lore/mcp/server.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "mcp/schema.h"

namespace lore::mcp {
namespace {

Server MakeServer() {
  Server s(ServerInfo{"lore", "lore memory", "0.1.0", "use it"});
  s.AddTool({"echo", "Echo", "Echoes its text",
             Json{{"type", "object"},
                  {"properties", {{"text", {{"type", "string"}, {"maxLength", 10}}}}},
                  {"required", {"text"}},
                  {"additionalProperties", false}}},
            [](const Json& a) -> Result<Json> {
              if (a["text"] == "fail")
                return Fail(ErrorCode::kNotFound, "no such thing", "x.md", 0, "try another");
              return Json{{"said", a["text"]}};
            });
  s.SetResources({[]() -> Result<std::vector<Resource>> {
                    return std::vector<Resource>{
                        {"lore://okf/index.md", "okf/index.md", "Index", "", "text/markdown"}};
                  },
                  [](const std::string& uri) -> Result<std::string> {
                    if (uri == "lore://okf/index.md") return std::string("---\n");
                    return Fail(ErrorCode::kNotFound, "no", uri);
                  }});
  return s;
}

Json Reply(Server& s, const std::string& line) { return Json::parse(s.HandleLine(line)); }

std::string Init(const std::string& revision) {
  return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")" +
         revision + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
}

TEST(Negotiate, AnswersTheRequestedRevisionOrTheLatest) {
  EXPECT_EQ(NegotiateRevision("2025-06-18"), "2025-06-18");
  EXPECT_EQ(NegotiateRevision("2024-11-05"), "2024-11-05");
  EXPECT_EQ(NegotiateRevision("2030-01-01"), "2025-11-25");
  EXPECT_TRUE(AllowsBatches("2025-03-26"));
  EXPECT_FALSE(AllowsBatches("2025-06-18"));
  EXPECT_FALSE(AllowsBatches("2025-11-25"));
}

TEST(Server, Initialize) {
  Server s = MakeServer();
  Json r = Reply(s, Init("2025-11-25"));
  EXPECT_EQ(r["id"], 1);
  EXPECT_EQ(r["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(r["result"]["serverInfo"],
            (Json{{"name", "lore"}, {"version", "0.1.0"}, {"title", "lore memory"}}));
  EXPECT_EQ(r["result"]["capabilities"]["tools"]["listChanged"], false);
  EXPECT_EQ(r["result"]["instructions"], "use it");
  EXPECT_EQ(s.revision(), "2025-11-25");
  Server old = MakeServer();
  EXPECT_FALSE(Reply(old, Init("2025-03-26"))["result"]["serverInfo"].contains("title"));
}

TEST(Server, NotificationsAndResponsesGetNoAnswer) {
  Server s = MakeServer();
  EXPECT_EQ(s.HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), "");
  EXPECT_EQ(s.HandleLine(R"({"jsonrpc":"2.0","method":"whatever"})"), "");
  EXPECT_EQ(s.HandleLine(R"({"jsonrpc":"2.0","id":5,"result":{}})"), "");
}

TEST(Server, ProtocolErrors) {
  Server s = MakeServer();
  Reply(s, Init("2025-11-25"));
  EXPECT_EQ(
      s.HandleLine("{oops"),
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not valid JSON"}})");
  EXPECT_EQ(Reply(s, "42")["error"]["code"], -32600);
  EXPECT_EQ(Reply(s, R"({"id":2,"method":"ping"})")["error"]["code"], -32600);
  EXPECT_EQ(Reply(s, R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})")["error"]["code"], -32600);
  EXPECT_EQ(Reply(s, R"({"jsonrpc":"2.0","id":3,"method":7})")["error"]["code"], -32600);
  EXPECT_EQ(Reply(s, R"({"jsonrpc":"2.0","id":4,"method":"nope"})")["error"],
            Json::parse(R"({"code":-32601,"message":"Method not found: nope"})"));
  EXPECT_EQ(Reply(s, R"({"jsonrpc":"2.0","id":5,"method":"ping","params":[1]})")["error"]["code"],
            -32602);
  EXPECT_EQ(
      Reply(s,
            R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}})")["error"],
      Json::parse(R"({"code":-32602,"message":"Unknown tool: nope"})"));
  EXPECT_EQ(Reply(s, R"({"jsonrpc":"2.0","id":"s","method":"ping"})"),
            Json::parse(R"({"jsonrpc":"2.0","id":"s","result":{}})"));
}

TEST(Server, ToolCallsAndTheirErrors) {
  Server s = MakeServer();
  Reply(s, Init("2025-11-25"));
  Json list = Reply(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")["result"]["tools"];
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["name"], "echo");
  EXPECT_EQ(list[0]["title"], "Echo");
  EXPECT_EQ(list[0]["inputSchema"]["required"], Json::array({"text"}));

  Json ok = Reply(
      s,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})");
  EXPECT_EQ(ok["result"]["structuredContent"], Json::parse(R"({"said":"hi"})"));
  EXPECT_EQ(ok["result"]["content"][0]["type"], "text");
  EXPECT_EQ(Json::parse(ok["result"]["content"][0]["text"].get<std::string>()),
            Json::parse(R"({"said":"hi"})"));
  EXPECT_EQ(ok["result"]["isError"], false);

  Json fail = Reply(
      s,
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"fail"}}})");
  EXPECT_EQ(fail["result"]["isError"], true);
  EXPECT_EQ(fail["result"]["content"][0]["text"], "no such thing: x.md; try another");

  Json long_arg = Reply(
      s,
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"01234567890"}}})");
  EXPECT_EQ(long_arg["result"]["isError"], true);
  EXPECT_EQ(long_arg["result"]["content"][0]["text"],
            "Invalid arguments for tool echo: text: longer than 10 characters (11)");
  Json extra = Reply(
      s,
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"a","x":1}}})");
  EXPECT_EQ(extra["result"]["content"][0]["text"],
            "Invalid arguments for tool echo: arguments: unknown argument 'x'");
}

TEST(Server, InvalidArgumentsAreProtocolErrorsBefore20251125) {
  Server s = MakeServer();
  Reply(s, Init("2025-06-18"));
  Json r = Reply(
      s,
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}})");
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_EQ(r["error"]["message"],
            "Invalid arguments for tool echo: arguments: missing required argument 'text'");
}

TEST(Server, Batches) {
  Server s = MakeServer();
  EXPECT_EQ(Reply(s, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")["error"]["code"], -32600);
  Reply(s, Init("2025-03-26"));
  Json r = Reply(
      s,
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"x"}])");
  ASSERT_TRUE(r.is_array());
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0]["result"], Json::object());
  EXPECT_EQ(r[1]["error"]["code"], -32601);
  EXPECT_EQ(s.HandleLine(R"([{"jsonrpc":"2.0","method":"n"}])"), "");
  EXPECT_EQ(Reply(s, "[]")["error"]["code"], -32600);
  EXPECT_EQ(Reply(s, "[" + Init("2025-03-26") + "]")[0]["error"]["code"], -32600);
  Server newer = MakeServer();
  Reply(newer, Init("2025-11-25"));
  EXPECT_EQ(Reply(newer, R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")["error"]["message"],
            "Invalid Request: batches are not supported in protocol revision 2025-11-25");
}

TEST(Server, Resources) {
  Server s = MakeServer();
  Reply(s, Init("2025-11-25"));
  Json list = Reply(s, R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
  EXPECT_EQ(list["result"]["resources"][0]["uri"], "lore://okf/index.md");
  EXPECT_EQ(list["result"]["resources"][0]["mimeType"], "text/markdown");
  Json read = Reply(
      s,
      R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"lore://okf/index.md"}})");
  EXPECT_EQ(read["result"]["contents"][0]["text"], "---\n");
  Json missing =
      Reply(s, R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"lore://x"}})");
  EXPECT_EQ(missing["error"]["code"], -32002);
}

TEST(Server, TooLargeFindsTheIdInTheTail) {
  Server s = MakeServer();
  EXPECT_EQ(Json::parse(s.TooLarge(R"(yyyy"}},"jsonrpc":"2.0","id":17})", 2000000))["id"], 17);
  EXPECT_EQ(Json::parse(s.TooLarge(R"(yy","id":"abc"})", 2000000))["id"], "abc");
  Json none = Json::parse(s.TooLarge("yyyyyyy", 2000000));
  EXPECT_TRUE(none["id"].is_null());
  EXPECT_EQ(none["error"]["code"], -32600);
  EXPECT_EQ(none["error"]["message"],
            "Invalid Request: message of 2000000 bytes is over the limit of 1048576 bytes");
}

TEST(Serve, LinesFromAPipeIncludingAnOverLongOne) {
  Server s = MakeServer();
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  std::string input =
      Init("2025-11-25") + "\n\n" + R"({"jsonrpc":"2.0","id":2,"method":"ping"})" + "\r\n" +
      R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":")" +
      std::string(kMaxMessageBytes, 'y') + R"("}},"id":3})" + "\n" +
      R"({"jsonrpc":"2.0","id":4,"method":"ping"})";
  std::thread writer([&] {
    size_t off = 0;
    while (off < input.size()) {
      ssize_t n = ::write(in[1], input.data() + off, std::min<size_t>(65536, input.size() - off));
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(in[1]);
  });
  std::string replies;
  std::thread reader([&] {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(out[0], buf, sizeof buf)) > 0) replies.append(buf, static_cast<size_t>(n));
  });
  ASSERT_TRUE(Serve(s, in[0], out[1]));
  ::close(out[1]);
  writer.join();
  reader.join();
  ::close(in[0]);
  ::close(out[0]);
  std::vector<Json> lines;
  size_t pos = 0;
  while (pos < replies.size()) {
    size_t nl = replies.find('\n', pos);
    lines.push_back(Json::parse(replies.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(lines.size(), 4u) << replies.substr(0, 500);
  EXPECT_EQ(lines[1]["id"], 2);
  EXPECT_EQ(lines[2]["id"], 3);
  EXPECT_EQ(lines[2]["error"]["code"], -32600);
  EXPECT_EQ(lines[3]["id"], 4);  // the last line has no newline: still answered
}

TEST(Schema, ChecksTypesEnumsAndBounds) {
  Json schema = Json::parse(R"({"type":"object","properties":{
      "n":{"type":"integer","minimum":1,"maximum":20},
      "c":{"type":"number","minimum":0,"maximum":1},
      "k":{"type":"string","enum":["a","b"]},
      "l":{"type":"array","maxItems":2,"items":{"type":"string","maxLength":3}},
      "o":{"type":"object"}}})");
  EXPECT_FALSE(CheckSchema(schema, Json::parse(R"({"n":3,"c":0.5,"k":"a","l":["x"],"o":{}})")));
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"n":0})")), "n: below the minimum 1");
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"n":1.5})")), "n: expected integer, got number");
  EXPECT_FALSE(CheckSchema(schema, Json::parse(R"({"n":2.0})")));
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"c":2})")), "c: above the maximum 1");
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"k":"z"})")), R"(k: not one of ["a","b"])");
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"l":["a","b","c"]})")), "l: more than 2 items");
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"l":["abcd"]})")),
            "l[0]: longer than 3 characters (4)");
  EXPECT_EQ(*CheckSchema(schema, Json::parse(R"({"o":[]})")), "o: expected object, got array");
}

}  // namespace
}  // namespace lore::mcp
