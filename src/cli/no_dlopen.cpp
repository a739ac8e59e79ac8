// lore loads no shared library: it is linked fully static
// (cmake/LoreSources.cmake), and a static program that dlopen(3)s one would
// run two C libraries side by side. The one caller is SQLite's extension
// loading, which lore never enables. The static link wraps dlopen with this
// refusal (-Wl,--wrap=dlopen), so that no code path can load one.
extern "C" void* __wrap_dlopen(const char* /*file*/, int /*mode*/) { return nullptr; }
