#define _GNU_SOURCE
#include "lore_fault_paths.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int g_all = 1;
static char g_root[PATH_MAX];     /* as given, folded */
static char g_resolved[PATH_MAX]; /* realpath of the root */

/* Folds "//", "." and ".." of the absolute path `p` in place. */
static void Fold(char* p) {
  char out[PATH_MAX];
  size_t len = 0;
  const char* s = p;
  while (*s) {
    while (*s == '/') ++s;
    const char* e = s;
    while (*e && *e != '/') ++e;
    size_t n = (size_t)(e - s);
    if (n == 0 || (n == 1 && s[0] == '.')) {
    } else if (n == 2 && s[0] == '.' && s[1] == '.') {
      while (len > 0 && out[len - 1] != '/') --len;
      if (len > 0) --len;
    } else if (len + 1 + n < sizeof out) {
      out[len++] = '/';
      memcpy(out + len, s, n);
      len += n;
    }
    s = e;
  }
  if (len == 0) out[len++] = '/';
  out[len] = '\0';
  memcpy(p, out, len + 1);
}

static int Under(const char* path, const char* root) {
  size_t n = strlen(root);
  if (n == 0) return 0;
  if (n == 1) return 1; /* "/" */
  return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

void LoreFaultSetRoot(const char* root) {
  if (!root || !*root) return;
  g_all = 0;
  if (root[0] == '/') {
    snprintf(g_root, sizeof g_root, "%s", root);
  } else {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) cwd[0] = '\0';
    snprintf(g_root, sizeof g_root, "%s/%s", cwd, root);
  }
  Fold(g_root);
  if (!realpath(g_root, g_resolved)) snprintf(g_resolved, sizeof g_resolved, "%s", g_root);
}

static int FdTarget(int fd, char* out, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, out, size - 1);
  if (n < 0) return 0;
  out[n] = '\0';
  return 1;
}

int LoreFaultFdUnderRoot(int fd) {
  if (g_all) return fd > 2;
  char target[PATH_MAX];
  if (!FdTarget(fd, target, sizeof target)) return 0;
  return Under(target, g_resolved) || Under(target, g_root);
}

int LoreFaultPathUnderRoot(int dirfd, const char* path) {
  if (g_all) return 1;
  char full[PATH_MAX];
  if (path[0] == '/') {
    snprintf(full, sizeof full, "%s", path);
  } else {
    char base[PATH_MAX];
    if (dirfd == AT_FDCWD) {
      if (!getcwd(base, sizeof base)) return 0;
    } else if (!FdTarget(dirfd, base, sizeof base)) {
      return 0;
    }
    if ((size_t)snprintf(full, sizeof full, "%s/%s", base, path) >= sizeof full) return 0;
  }
  Fold(full);
  return Under(full, g_root) || Under(full, g_resolved);
}
