// The terminal side of the interactive review: raw mode, keys in, screens
// out. The picker's logic is lore::app::ReviewPicker.
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/proposal_cli.h"
#include "lore/fs/fd.h"

namespace lore::cli {
namespace {

struct termios g_saved;
volatile sig_atomic_t g_raw = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGPIPE};
struct sigaction g_old[sizeof kSignals / sizeof kSignals[0]];

void Restore() {
  if (!g_raw) return;
  ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
  static const char kShowCursor[] = "\x1b[?25h";
  (void)!::write(STDOUT_FILENO, kShowCursor, sizeof kShowCursor - 1);
  g_raw = 0;
}

// Restores the terminal, then lets the signal do what it would have done.
void OnSignal(int sig) {
  const int saved_errno = errno;
  Restore();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
  errno = saved_errno;
}

// Raw mode for the lifetime of the object, restored on every way out.
class RawMode {
 public:
  static Result<RawMode> Enter() {
    if (::tcgetattr(STDIN_FILENO, &g_saved) != 0) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot read terminal settings", "<stdin>"));
    }
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = OnSignal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
      ::sigaction(kSignals[i], &sa, &g_old[i]);
    struct termios raw = g_saved;
    raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO | ISIG | IEXTEN);
    raw.c_iflag &= ~static_cast<tcflag_t>(IXON | ICRNL | INLCR);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    g_raw = 1;
    if (::tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) {
      int err = errno;
      RawMode undo;
      return tl::unexpected(fs::ErrnoError(err, "cannot set terminal to raw mode", "<stdin>"));
    }
    return RawMode();
  }
  RawMode(RawMode&& o) noexcept { o.active_ = false; }
  ~RawMode() {
    if (!active_) return;
    Restore();
    for (size_t i = 0; i < sizeof kSignals / sizeof kSignals[0]; ++i)
      ::sigaction(kSignals[i], &g_old[i], nullptr);
  }

 private:
  RawMode() = default;
  bool active_ = true;
};

// The terminal's width (80 when it does not say), one column spared so that
// a full line never wraps on its own.
size_t Columns() {
  struct winsize ws {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col < 40) return 80;
  return static_cast<size_t>(ws.ws_col) - 1;
}

void Draw(const app::ReviewPicker& s) {
  std::string screen = "\x1b[H\x1b[2J\x1b[?25l" + s.Render(Columns());
  (void)fs::WriteAll(STDOUT_FILENO, screen, "<stdout>");
}

}  // namespace

Status RunPicker(app::ReviewPicker* picker) {
  LORE_ASSIGN(RawMode raw, RawMode::Enter());
  Draw(*picker);
  char buf[64];
  while (picker->active()) {
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // the terminal went away: stop without changing anything
      picker->Quit();
      break;
    }
    picker->Feed(std::string_view(buf, static_cast<size_t>(n)));
    Draw(*picker);
  }
  (void)fs::WriteAll(STDOUT_FILENO, "\x1b[H\x1b[2J", "<stdout>");
  return Ok();
}

}  // namespace lore::cli
