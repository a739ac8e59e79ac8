#include "cli/record_flags.h"

#include "cli/io.h"

namespace lore::cli {

void AddRecordFlags(CLI::App* sub, app::RecordEdits& f, bool edit) {
  sub->add_option("--set", f.set,
                  "KEY=VALUE: set a frontmatter field (text fields take VALUE as is; others a "
                  "YAML value such as true or [a, b]); repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--source", f.source,
                  "SESSION:FROM-TO: a source of this change (appended to sources; replaces a "
                  "knowledge page's last_sources); repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  auto* body = sub->add_option_function<std::string>(
      "--body",
      [&f](const std::string& v) { f.body = v.empty() || v.back() == '\n' ? v : v + '\n'; },
      "The body (Markdown after the frontmatter; a final newline is added)");
  sub->add_option("--body-file", f.body_file, "Read the body from a file ('-': standard input)")
      ->excludes(body);
  if (!edit) return;
  sub->add_option("--unset", f.unset, "KEY: remove a frontmatter field; repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--append", f.append, "Append a paragraph to the body");
  sub->add_flag("--no-touch", f.no_touch, "Keep updated_at as it is");
}

}  // namespace lore::cli
