// Internal to lore::consolidate: parsed records of a run, read lazily from a
// Workspace and written back (re-rendered) when flushed.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "lore/consolidate/workspace.h"
#include "lore/doc/record.h"
#include "lore/error.h"

namespace lore::consolidate::detail {

class RecordSet {
 public:
  explicit RecordSet(Workspace& ws) : ws_(ws) {}

  // The record `slug` of `kind`, or nullptr when it does not exist. A file
  // that does not parse, or has ill-typed fields, is an error naming it (the
  // run would otherwise rewrite what it cannot read).
  Result<doc::Record*> Get(doc::Kind kind, std::string_view slug);
  // Adds a record that does not exist yet; returns it.
  doc::Record* Create(doc::Kind kind, std::string_view slug, doc::Record record);
  // Marks a record returned by Get as changed.
  void Touch(doc::Kind kind, std::string_view slug);
  // Renders every changed record into the workspace.
  Status Flush();

 private:
  struct Item {
    doc::Record record;
    bool present = false;
    bool dirty = false;
  };
  Workspace& ws_;
  std::map<std::string, Item> items_;  // by store-relative path
};

}  // namespace lore::consolidate::detail
