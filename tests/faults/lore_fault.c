/* lore_fault: an LD_PRELOAD shim that makes the n-th write, fsync, rename or
 * open of a process fail with a chosen errno (docs/testing.md).
 *
 *   LORE_FAULT=<op>:<n>[+]:<errno>[:short]
 *     op     write  (write, pwrite, pwrite64, writev)
 *            fsync  (fsync, fdatasync, syncfs)
 *            rename (rename, renameat, renameat2)
 *            open   (open, open64, openat, openat64, creat, creat64 and the
 *                    _FORTIFY_SOURCE entry points __open_2 ...)
 *     n      the counted call that fails (1 is the first); "n+" fails that
 *            call and every later one (a disk that stays full)
 *     errno  ENOSPC, EIO, EACCES, EROFS, EDQUOT, EPERM or a number
 *     short  write only: the n-th call writes half its bytes and reports
 *            that short count, the next counted call fails (a disk that
 *            fills up in the middle of a write)
 *   LORE_FAULT_ROOT=<dir>  only calls on paths under <dir> count (for calls
 *            on a descriptor: its /proc/self/fd target); unset: every call
 *            except those on descriptors 0, 1 and 2
 *   LORE_FAULT_COUNT=<file> receives the number of counted calls made so
 *            far, rewritten at each one ("0" from the start)
 *
 * Only the process started with LORE_FAULT is faulted: the shim removes the
 * variable from the environment at start-up, so programs it executes run
 * normally, and a child forked without exec is never faulted either. A bad
 * LORE_FAULT ends the process with exit code 86 and one line on stderr. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lore_fault_paths.h"

enum { kOpNone, kOpWrite, kOpFsync, kOpRename, kOpOpen };

static int g_op = kOpNone;
static long g_n;
static int g_sticky;
static int g_short;
static int g_errno;
static pid_t g_pid;
static long g_count;
static int g_short_state; /* 0 not yet, 1 half written (next fails), 2 done */
static int g_count_fd = -1;

static ssize_t (*real_write)(int, const void*, size_t);
static ssize_t (*real_pwrite)(int, const void*, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void*, size_t, off_t);
static ssize_t (*real_writev)(int, const struct iovec*, int);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_syncfs)(int);
static int (*real_rename)(const char*, const char*);
static int (*real_renameat)(int, const char*, int, const char*);
static int (*real_renameat2)(int, const char*, int, const char*, unsigned);
static int (*real_open)(const char*, int, ...);
static int (*real_open64)(const char*, int, ...);
static int (*real_openat)(int, const char*, int, ...);
static int (*real_openat64)(int, const char*, int, ...);
static int (*real_creat)(const char*, mode_t);
static int (*real_creat64)(const char*, mode_t);
static int (*real_open_2)(const char*, int);
static int (*real_open64_2)(const char*, int);
static int (*real_openat_2)(int, const char*, int);
static int (*real_openat64_2)(int, const char*, int);
static long (*real_syscall)(long, ...);

#define READY() (real_write ? (void)0 : Resolve())
#define RESOLVE(name, sym) (name = (__typeof__(name))dlsym(RTLD_NEXT, sym))

static void Resolve(void) {
  if (real_write) return;
  RESOLVE(real_write, "write");
  RESOLVE(real_pwrite, "pwrite");
  RESOLVE(real_pwrite64, "pwrite64");
  RESOLVE(real_writev, "writev");
  RESOLVE(real_fsync, "fsync");
  RESOLVE(real_fdatasync, "fdatasync");
  RESOLVE(real_syncfs, "syncfs");
  RESOLVE(real_rename, "rename");
  RESOLVE(real_renameat, "renameat");
  RESOLVE(real_renameat2, "renameat2");
  RESOLVE(real_open, "open");
  RESOLVE(real_open64, "open64");
  RESOLVE(real_openat, "openat");
  RESOLVE(real_openat64, "openat64");
  RESOLVE(real_creat, "creat");
  RESOLVE(real_creat64, "creat64");
  RESOLVE(real_open_2, "__open_2");
  RESOLVE(real_open64_2, "__open64_2");
  RESOLVE(real_openat_2, "__openat_2");
  RESOLVE(real_openat64_2, "__openat64_2");
  RESOLVE(real_syscall, "syscall");
}

static void Die(const char* what, const char* value) {
  char line[512];
  int n = snprintf(line, sizeof line, "lore_fault: %s: %s; expected <op>:<n>[+]:<errno>[:short]\n",
                   what, value ? value : "(unset)");
  if (n > 0 && real_write) real_write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line);
  _exit(86);
}

static int ParseOp(const char* s, size_t len) {
  static const struct {
    const char* name;
    int op;
  } kOps[] = {{"write", kOpWrite}, {"fsync", kOpFsync}, {"rename", kOpRename}, {"open", kOpOpen}};
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; ++i) {
    if (strlen(kOps[i].name) == len && strncmp(s, kOps[i].name, len) == 0) return kOps[i].op;
  }
  return kOpNone;
}

static int ParseErrno(const char* s, size_t len) {
  static const struct {
    const char* name;
    int err;
  } kErrs[] = {{"ENOSPC", ENOSPC}, {"EIO", EIO},       {"EACCES", EACCES},
               {"EROFS", EROFS},   {"EDQUOT", EDQUOT}, {"EPERM", EPERM}};
  for (size_t i = 0; i < sizeof kErrs / sizeof kErrs[0]; ++i) {
    if (strlen(kErrs[i].name) == len && strncmp(s, kErrs[i].name, len) == 0) return kErrs[i].err;
  }
  char* end = NULL;
  long v = strtol(s, &end, 10);
  return end == s + len && v > 0 && v < 4096 ? (int)v : 0;
}

static void Parse(const char* spec) {
  const char* a = strchr(spec, ':');
  const char* b = a ? strchr(a + 1, ':') : NULL;
  if (!a || !b) Die("bad LORE_FAULT", spec);
  const char* c = strchr(b + 1, ':');
  g_op = ParseOp(spec, (size_t)(a - spec));
  if (g_op == kOpNone) Die("unknown operation in LORE_FAULT", spec);
  char* end = NULL;
  g_n = strtol(a + 1, &end, 10);
  if (end < b && *end == '+') g_sticky = 1, ++end;
  if (end != b || g_n < 1) Die("bad call number in LORE_FAULT", spec);
  g_errno = ParseErrno(b + 1, c ? (size_t)(c - b - 1) : strlen(b + 1));
  if (!g_errno) Die("unknown errno in LORE_FAULT", spec);
  if (c) {
    if (strcmp(c + 1, "short") != 0 || g_op != kOpWrite) Die("bad modifier in LORE_FAULT", spec);
    g_short = 1;
  }
}

static void WriteCount(void) {
  if (g_count_fd < 0) return;
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%20ld\n", g_count);
  if (n > 0) real_pwrite(g_count_fd, buf, (size_t)n, 0);
}

__attribute__((constructor)) static void Init(void) {
  Resolve();
  const char* spec = getenv("LORE_FAULT");
  if (!spec || !*spec) return;
  Parse(spec);
  LoreFaultSetRoot(getenv("LORE_FAULT_ROOT"));
  const char* count = getenv("LORE_FAULT_COUNT");
  if (count && *count) {
    g_count_fd = real_open(count, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (g_count_fd < 0) Die("cannot open LORE_FAULT_COUNT", count);
    WriteCount();
  }
  g_pid = getpid();
  unsetenv("LORE_FAULT");
}

/* Counts a call of `op`; returns 1 when this call must fail. */
static int Hit(int op) {
  if (g_op != op || getpid() != g_pid) return 0;
  long k = __atomic_add_fetch(&g_count, 1, __ATOMIC_SEQ_CST);
  WriteCount();
  if (g_short_state == 1) {
    g_short_state = 2;
    return 1;
  }
  return g_sticky ? k >= g_n : k == g_n;
}

static int FdCounts(int op, int fd) {
  READY();
  return g_op == op && LoreFaultFdUnderRoot(fd);
}
static int PathCounts(int op, int dirfd, const char* path) {
  READY();
  return g_op == op && path && LoreFaultPathUnderRoot(dirfd, path);
}

#define FAIL_WITH(ret) \
  do {                 \
    errno = g_errno;   \
    return ret;        \
  } while (0)

/* ---- write ---- */

static ssize_t ShortOrFail(int fd, const void* buf, size_t len, off_t off, int positioned,
                           ssize_t (*pw)(int, const void*, size_t, off_t)) {
  if (g_short && len > 1 && g_short_state == 0) {
    g_short_state = 1;
    return positioned ? pw(fd, buf, len / 2, off) : real_write(fd, buf, len / 2);
  }
  FAIL_WITH(-1);
}

ssize_t write(int fd, const void* buf, size_t len) {
  if (FdCounts(kOpWrite, fd) && Hit(kOpWrite)) return ShortOrFail(fd, buf, len, 0, 0, NULL);
  return real_write(fd, buf, len);
}

ssize_t pwrite(int fd, const void* buf, size_t len, off_t off) {
  if (FdCounts(kOpWrite, fd) && Hit(kOpWrite))
    return ShortOrFail(fd, buf, len, off, 1, real_pwrite);
  return real_pwrite(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void* buf, size_t len, off_t off) {
  if (FdCounts(kOpWrite, fd) && Hit(kOpWrite))
    return ShortOrFail(fd, buf, len, off, 1, real_pwrite64);
  return real_pwrite64(fd, buf, len, off);
}

ssize_t writev(int fd, const struct iovec* iov, int iovcnt) {
  if (FdCounts(kOpWrite, fd) && Hit(kOpWrite)) {
    if (g_short && iovcnt > 0 && iov[0].iov_len > 1 && g_short_state == 0) {
      g_short_state = 1;
      return real_write(fd, iov[0].iov_base, iov[0].iov_len / 2);
    }
    FAIL_WITH(-1);
  }
  return real_writev(fd, iov, iovcnt);
}

/* ---- fsync ---- */

int fsync(int fd) {
  if (FdCounts(kOpFsync, fd) && Hit(kOpFsync)) FAIL_WITH(-1);
  return real_fsync(fd);
}

int fdatasync(int fd) {
  if (FdCounts(kOpFsync, fd) && Hit(kOpFsync)) FAIL_WITH(-1);
  return real_fdatasync(fd);
}

int syncfs(int fd) {
  if (FdCounts(kOpFsync, fd) && Hit(kOpFsync)) FAIL_WITH(-1);
  return real_syncfs(fd);
}

/* ---- rename ---- */

static int RenameCounts(int olddir, const char* from, int newdir, const char* to) {
  return PathCounts(kOpRename, olddir, from) || PathCounts(kOpRename, newdir, to);
}

int rename(const char* from, const char* to) {
  if (RenameCounts(AT_FDCWD, from, AT_FDCWD, to) && Hit(kOpRename)) FAIL_WITH(-1);
  return real_rename(from, to);
}

int renameat(int olddir, const char* from, int newdir, const char* to) {
  if (RenameCounts(olddir, from, newdir, to) && Hit(kOpRename)) FAIL_WITH(-1);
  return real_renameat(olddir, from, newdir, to);
}

int renameat2(int olddir, const char* from, int newdir, const char* to, unsigned flags) {
  if (RenameCounts(olddir, from, newdir, to) && Hit(kOpRename)) FAIL_WITH(-1);
  return real_renameat2(olddir, from, newdir, to, flags);
}

/* ---- open ---- */

static mode_t ModeArg(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define OPEN_AT(dirfd, path)                                             \
  do {                                                                   \
    if (PathCounts(kOpOpen, dirfd, path) && Hit(kOpOpen)) FAIL_WITH(-1); \
  } while (0)

int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  OPEN_AT(AT_FDCWD, path);
  return real_open(path, flags, mode);
}

int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  OPEN_AT(AT_FDCWD, path);
  return real_open64(path, flags, mode);
}

int openat(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  OPEN_AT(dirfd, path);
  return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = ModeArg(flags, ap);
  va_end(ap);
  OPEN_AT(dirfd, path);
  return real_openat64(dirfd, path, flags, mode);
}

int creat(const char* path, mode_t mode) {
  OPEN_AT(AT_FDCWD, path);
  return real_creat(path, mode);
}

int creat64(const char* path, mode_t mode) {
  OPEN_AT(AT_FDCWD, path);
  return real_creat64(path, mode);
}

int __open_2(const char* path, int flags) {
  OPEN_AT(AT_FDCWD, path);
  return real_open_2(path, flags);
}

int __open64_2(const char* path, int flags) {
  OPEN_AT(AT_FDCWD, path);
  return real_open64_2(path, flags);
}

int __openat_2(int dirfd, const char* path, int flags) {
  OPEN_AT(dirfd, path);
  return real_openat_2(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char* path, int flags) {
  OPEN_AT(dirfd, path);
  return real_openat64_2(dirfd, path, flags);
}

/* openat2(2) has no glibc wrapper: lore's fs::OpenBeneath calls it through
 * syscall(2), so the shim sees it here. Every other system call passes through
 * with its six argument registers, as glibc's own syscall() reads them. */
long syscall(long number, ...) {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; ++i) a[i] = va_arg(ap, long);
  va_end(ap);
#ifdef SYS_openat2
  if (number == SYS_openat2) OPEN_AT((int)a[0], (const char*)a[1]);
#endif
  if (!real_syscall) Resolve();
  return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
