// A raw record reduced to the fields the distiller reads, parsed without
// building a JSON tree. Internal to src/distill/.
//
// ParseFlat runs lore::json's scanner over one line (json::ForeignLogLine():
// what `lore check` accepts): it checks the whole line exactly as a full
// parse would (grammar, strict UTF-8, nothing after the value), keeps only the keys named in
// flat_record.cpp (the fields the heuristics of record_fields.h look for), and skips the values of
// other keys without storing them. Strings and numbers become text; arrays keep their strings and
// objects in order; booleans and nulls are dropped. Numbers keep their text as written (NaN and
// Infinity from a Python writer included).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lore::distill {

struct Flat;

// One element of an array: text, or the index of an object in `objects`.
struct FlatItem {
  std::string text;
  int object = -1;
};

struct FlatValue {
  bool scalar = false;  // a string or a number: `text`
  std::string text;
  bool list = false;  // an array: `items` (objects in `objects`)
  std::vector<FlatItem> items;
  std::vector<Flat> objects;
};

struct Flat {
  // A struct rather than std::pair: clang 14 with libstdc++ 12 rejects a pair
  // of the still incomplete FlatValue here (the fuzz build uses clang).
  struct Field {
    std::string_view first;  // points at static text
    FlatValue second;
  };
  std::vector<Field> fields;
  const FlatValue* Find(std::string_view key) const;
  FlatValue* Slot(std::string_view interned_key);
};

// True when `line` is one JSON object; fills `*out` (which must be empty).
bool ParseFlat(std::string_view line, Flat* out);

}  // namespace lore::distill
