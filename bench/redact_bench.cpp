// The redactor in process (src/redact/, docs/secrets.md):
//   - a typical 2 KB review record through capture::MakeRecordLine with and
//     without redaction's share (the JSON compaction alone is the floor), and
//     redact::Clean on its text, in microseconds per call;
//   - throughput on 16 MiB of prose and code, clean and with a secret every
//     4 KiB, and on adversarial texts made of one trigger repeated (each must
//     stay linear: MB/s of the same order as prose).
//
//   redact_bench [--mib N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "json/compact.h"
#include "lore/capture/capture.h"
#include "redact/redact.h"

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// A review record of about 2 KB with ordinary text, paths and code.
std::string Record() {
  std::string finding =
      "The retry loop in src/net/client.cc re-sends the request after a timeout without "
      "checking whether the server already applied it; with idempotency keys missing this "
      "doubles payments. See the failing test payments_test.cc:212 and the log excerpt: "
      "2026-03-01T10:22:03Z WARN retry=3 status=504 url=https://api.example.com/v1/pay "
      "elapsed_ms=30012. Fix: pass the key through Request::Builder and assert on it. ";
  std::string rec =
      "{\"ticket_id\":\"PAY-1182\",\"verdict\":\"fix\",\"files\":[\"src/net/client.cc\","
      "\"src/pay/payments_test.cc\"],\"finding\":\"";
  while (rec.size() < 1900) rec += finding;
  rec += "\",\"lesson\":\"Retries need idempotency keys: config key: retry_max = 3.\"}";
  return rec;
}

std::string Fill(size_t bytes, const std::string& unit) {
  std::string s;
  s.reserve(bytes + unit.size());
  while (s.size() < bytes) s += unit;
  return s;
}

void Throughput(const char* label, const std::string& text) {
  auto start = Clock::now();
  std::vector<lore::redact::Finding> found;
  std::string out = lore::redact::Clean(text, &found);
  double s = Seconds(start);
  std::printf("  %-34s %8.1f MB/s  %8.1f ms  %zu findings\n", label, text.size() / 1e6 / s, s * 1e3,
              found.size());
}

template <class F>
double MicrosPerCall(int runs, F f) {
  auto start = Clock::now();
  for (int i = 0; i < runs; ++i) f();
  return Seconds(start) / runs * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  size_t mib = 16;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--mib") == 0) mib = std::strtoul(argv[++i], nullptr, 10);
  }
  const std::string rec = Record();
  const auto now = std::chrono::system_clock::now();
  const int runs = 20000;
  volatile size_t sink = 0;
  std::printf("a %zu-byte review record, %d calls each:\n", rec.size(), runs);
  const double clean = MicrosPerCall(runs, [&] { sink += lore::redact::Clean(rec).size(); });
  const double scan = MicrosPerCall(runs, [&] { sink += lore::redact::Scan(rec).size(); });
  const double line = MicrosPerCall(runs, [&] {
    sink += lore::capture::MakeRecordLine(rec, lore::capture::Kind::kReview, now)->size();
  });
  const double compact = MicrosPerCall(
      runs, [&] { sink += lore::json::Compact(rec, lore::capture::CaptureLimits())->size(); });
  std::printf("  redact::Clean on the text       %7.2f us\n", clean);
  std::printf("  redact::Scan on the text        %7.2f us\n", scan);
  std::printf("  capture::MakeRecordLine         %7.2f us (redaction included)\n", line);
  std::printf("  json::Compact alone             %7.2f us (the floor without redaction)\n",
              compact);

  const size_t bytes = mib << 20;
  std::printf("%zu MiB texts:\n", mib);
  Throughput("prose and code, no secret", Fill(bytes, rec));
  Throughput("a secret every 4 KiB",
             Fill(bytes, rec + rec + " token=Zx8kq2LmP0wR7tYv AKIAIOSFODNN7EXAMPLE "));
  Throughput("':' repeated", std::string(bytes, ':'));
  Throughput("'=' repeated", std::string(bytes, '='));
  Throughput("\"password:\" repeated", Fill(bytes, "password:"));
  Throughput("\"token=\\\"\" repeated", Fill(bytes, "token=\""));
  Throughput("\"a://\" repeated", Fill(bytes, "a://"));
  Throughput("\"a://b:c\" repeated", Fill(bytes, "a://b:c"));
  Throughput("\"sk-\" repeated", Fill(bytes, "sk-"));
  Throughput("\"eyJabcdefghijk.\" repeated", Fill(bytes, "eyJabcdefghijk."));
  Throughput("\"-----BEGIN \" repeated", Fill(bytes, "-----BEGIN "));
  Throughput("\"-----BEGIN PRIVATE KEY-----\" rep.", Fill(bytes, "-----BEGIN PRIVATE KEY-----"));
  Throughput("\"<private>\" repeated", Fill(bytes, "<private>"));
  Throughput("\"<private\" repeated", Fill(bytes, "<private"));
  Throughput("'A' repeated", std::string(bytes, 'A'));
  // The triggers of the rules added for issue 25.
  Throughput("\"--password \" repeated", Fill(bytes, "--password "));
  Throughput("\"mysql -pAb12Cd34Ef \" repeated", Fill(bytes, "mysql -pAb12Cd34Ef "));
  Throughput("\"curl -u a:Ab12Cd34Ef \" repeated", Fill(bytes, "curl -u a:Ab12Cd34Ef "));
  Throughput("\"-p\" repeated", Fill(bytes, "-p"));
  Throughput("\"Authorization: \" repeated", Fill(bytes, "Authorization: "));
  Throughput("\"x://\" then \"a@\" repeated", "x://" + Fill(bytes, "a@"));
  Throughput("\"12345:A\" repeated", Fill(bytes, "12345:A"));
  Throughput("\"1Q~\" repeated", Fill(bytes, "1Q~"));
  Throughput("\".atlasv1.\" repeated", Fill(bytes, ".atlasv1."));
  Throughput("\"SG.\" repeated", Fill(bytes, "SG."));
  Throughput("\"fm2_/\" repeated", Fill(bytes, "fm2_/"));
  Throughput("\"0123456789abcdef-us1 \" repeated", Fill(bytes, "0123456789abcdef-us1 "));
  Throughput("\"sk_live_ \" repeated", Fill(bytes, "sk_live_ "));
  return sink == 42 ? 1 : 0;
}
