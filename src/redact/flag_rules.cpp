// Secrets given as shell flags: --password X, --token 'X', mysql -pX,
// sshpass -p X, curl -u user:X.
#include <cstring>

#include "redact/rules.h"

namespace lore::redact::internal {
namespace {

constexpr size_t kMaxName = 64;

// What ends one shell command and starts the next.
bool IsCommandBreak(unsigned char c) { return c && std::strchr("\n;|&(`", c) != nullptr; }

}  // namespace

// The program of the command at `i`: the last of the words mysql,
// mysqldump, mysqladmin, mariadb, sshpass and curl (after a blank, a quote,
// a '/' or a command break) since the last command break before `i`. Reads
// the text once however often it is asked, positions growing.
ContextRules::Program ContextRules::CommandAt(size_t i) {
  for (size_t p = command_scanned_; p < i && p < s_.size(); ++p) {
    const unsigned char c = ByteAt(s_, p);
    if (IsCommandBreak(c)) {
      program_ = Program::kOther;
      continue;
    }
    if (!IsLower(c)) continue;
    const unsigned char before = p > 0 ? ByteAt(s_, p - 1) : ' ';
    if (!IsWhite(before) && before != '/' && before != '"' && before != '\'' &&
        !IsCommandBreak(before)) {
      continue;
    }
    size_t e = p;
    while (e < s_.size() && e - p < 11 && IsLower(ByteAt(s_, e))) ++e;
    const unsigned char after = ByteAt(s_, e);
    if (after && !IsWhite(after) && after != '"' && after != '\'' && !IsCommandBreak(after)) {
      continue;
    }
    const std::string_view word = s_.substr(p, e - p);
    if (word == "mysql" || word == "mysqldump" || word == "mysqladmin" || word == "mariadb") {
      program_ = Program::kMysql;
    } else if (word == "sshpass") {
      program_ = Program::kSshpass;
    } else if (word == "curl") {
      program_ = Program::kCurl;
    }
  }
  if (i > command_scanned_) command_scanned_ = i;
  return program_;
}

bool ContextRules::Flag(size_t i, Match* m) {
  if (i > 0 && IsTok(ByteAt(s_, i - 1))) return false;
  return ByteAt(s_, i + 1) == '-' ? LongFlag(i, m) : ShortFlag(i, m);
}

// --<name> <value> with a secret's name and a value that passes the value
// test (--<name>=<value> is an assignment); curl's --user <user>:<password>.
bool ContextRules::LongFlag(size_t i, Match* m) {
  size_t end = i + 2;
  while (end < s_.size() && end - i - 2 <= kMaxName && IsTok(ByteAt(s_, end))) ++end;
  const std::string_view name = s_.substr(i + 2, end - i - 2);
  if (name.empty() || name.size() > kMaxName || !IsSpace(ByteAt(s_, end))) return false;
  const bool user = name == "user";
  if (!user && !IsSecretName(name)) return false;
  size_t begin, stop;
  bool quoted;
  if (!Value(end, &begin, &stop, &quoted)) return false;
  if (!quoted && ByteAt(s_, begin) == '-') return false;  // the next flag
  if (user) {
    if (CommandAt(i) != Program::kCurl) return false;
    const void* colon = std::memchr(s_.data() + begin, ':', stop - begin);
    if (!colon) return false;
    begin = static_cast<size_t>(static_cast<const char*>(colon) - s_.data()) + 1;
  } else if (TryTokenRules(s_, begin, m) && m->end <= stop) {
    return true;  // a known token is named by its own rule
  }
  if (stop <= begin || !LooksSecret(s_.substr(begin, stop - begin), quoted)) return false;
  *m = Match{Rule::kSecretFlag, begin, stop};
  return true;
}

// -p<password> (no blank: mysql's own form) of mysql and its tools, -p
// <password> of sshpass, -u <user>:<password> of curl.
bool ContextRules::ShortFlag(size_t i, Match* m) {
  const unsigned char letter = ByteAt(s_, i + 1);
  if (letter != 'p' && letter != 'u') return false;
  const bool joined = !IsWhite(ByteAt(s_, i + 2)) && ByteAt(s_, i + 2) != 0;
  size_t begin, stop;
  bool quoted;
  if (!Value(i + 2, &begin, &stop, &quoted)) return false;
  if (!quoted && ByteAt(s_, begin) == '-') return false;
  if (letter == 'p') {
    const Program p = CommandAt(i);
    if (!(p == Program::kMysql && joined) && p != Program::kSshpass) return false;
  } else {
    if (CommandAt(i) != Program::kCurl) return false;
    const void* colon = std::memchr(s_.data() + begin, ':', stop - begin);
    if (!colon) return false;
    begin = static_cast<size_t>(static_cast<const char*>(colon) - s_.data()) + 1;
  }
  if (stop <= begin || !LooksSecret(s_.substr(begin, stop - begin), quoted)) return false;
  *m = Match{Rule::kSecretFlag, begin, stop};
  return true;
}

}  // namespace lore::redact::internal
