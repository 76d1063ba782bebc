// Reading the rank table (see rank_table.h): a small JSON reader that keeps each value's line,
// then the table's fields.
#include "hccl/rank_table.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utility>

#include "common/error.h"

namespace ascendc_sim {
namespace hccl {
namespace {

struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  std::string text;  // a string's value, a number's or a literal's spelling
  std::vector<std::pair<std::string, Json>> members;  // an object's, in order
  std::vector<Json> items;                            // an array's
  int line = 0;

  const Json* Find(const char* key) const {
    for (const auto& m : members) {
      if (m.first == key) return &m.second;
    }
    return nullptr;
  }
};

class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}

  bool Document(Json* out) {
    if (!Value(out, 0)) return false;
    Space();
    return at_ == text_.size() || Error("text after the end of the table");
  }
  const std::string& error() const { return error_; }
  int line() const { return line_; }

 private:
  bool Error(const std::string& what) {
    if (error_.empty()) error_ = what;
    return false;
  }

  void Space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\r' || text_[at_] == '\n')) {
      if (text_[at_] == '\n') ++line_;
      ++at_;
    }
  }

  bool Value(Json* out, int depth) {
    if (depth > 32) return Error("values nested too deeply");
    Space();
    out->line = line_;
    if (at_ == text_.size()) return Error("the file ends where a value should be");
    const char c = text_[at_];
    if (c == '{') return Object(out, depth);
    if (c == '[') return Array(out, depth);
    if (c == '"') {
      out->kind = Json::kString;
      return String(&out->text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      out->kind = Json::kNumber;
      const size_t start = at_;
      while (at_ < text_.size() && strchr("+-.eE0123456789", text_[at_]) != nullptr) ++at_;
      out->text = text_.substr(start, at_ - start);
      return true;
    }
    for (const char* word : {"true", "false", "null"}) {
      const size_t n = strlen(word);
      if (text_.compare(at_, n, word) == 0) {
        out->kind = word[0] == 'n' ? Json::kNull : Json::kBool;
        out->text = word;
        at_ += n;
        return true;
      }
    }
    return Error(StrFormat("'%c' where a value should be", c));
  }

  bool String(std::string* out) {
    ++at_;  // the opening quote
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c == '\n') return Error("a string runs past the end of its line");
      if (c == '\\') {
        if (at_ == text_.size()) break;
        c = text_[at_++];
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u': return Error("\\u escapes are not expected in a rank table");
          default: break;  // \" \\ \/
        }
      }
      out->push_back(c);
    }
    if (at_ == text_.size()) return Error("a string is not closed");
    ++at_;
    return true;
  }

  bool Array(Json* out, int depth) {
    out->kind = Json::kArray;
    ++at_;
    Space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return true;
    }
    while (true) {
      out->items.emplace_back();
      if (!Value(&out->items.back(), depth + 1)) return false;
      Space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return true;
      }
      return Error("expected ',' or ']' in a list");
    }
  }

  bool Object(Json* out, int depth) {
    out->kind = Json::kObject;
    ++at_;
    Space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return true;
    }
    while (true) {
      Space();
      if (at_ == text_.size() || text_[at_] != '"') return Error("expected a quoted key");
      std::string key;
      if (!String(&key)) return false;
      Space();
      if (at_ == text_.size() || text_[at_] != ':') return Error(StrFormat("expected ':' after \"%s\"", key.c_str()));
      ++at_;
      out->members.emplace_back(key, Json{});
      if (!Value(&out->members.back().second, depth + 1)) return false;
      Space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return true;
      }
      return Error("expected ',' or '}' in an object");
    }
  }

  const std::string& text_;
  size_t at_ = 0;
  int line_ = 1;
  std::string error_;
};

uint64_t Digest(const std::string& bytes) {  // FNV-1a
  uint64_t h = 1469598103934665603ull;
  for (const char c : bytes) {
    h ^= static_cast<uint8_t>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// The table's fields, each error naming the file and the line of the value that is wrong.
class Fields {
 public:
  Fields(const char* path, std::string* error) : path_(path), error_(error) {}

  bool Fail(const Json& at, const std::string& what) {
    *error_ = StrFormat("%s:%d: %s", path_, at.line, what.c_str());
    return false;
  }

  const Json* Member(const Json& object, const char* key, Json::Kind kind, const char* kindName) {
    const Json* v = object.Find(key);
    if (v == nullptr) {
      Fail(object, StrFormat("\"%s\" is missing", key));
      return nullptr;
    }
    if (v->kind != kind) {
      Fail(*v, StrFormat("\"%s\" must be %s", key, kindName));
      return nullptr;
    }
    return v;
  }

  // A whole number written as a JSON number or a string ("3" as CANN's tools write it).
  bool Count(const Json& object, const char* key, long* out) {
    const Json* v = object.Find(key);
    if (v == nullptr) return Fail(object, StrFormat("\"%s\" is missing", key));
    char* end = nullptr;
    const long n = (v->kind == Json::kNumber || v->kind == Json::kString) ? strtol(v->text.c_str(), &end, 10) : -1;
    if (end == nullptr || end == v->text.c_str() || *end != '\0' || n < 0) {
      return Fail(*v, StrFormat("\"%s\" must be a whole number, not %s", key,
                                v->kind == Json::kString ? ("\"" + v->text + "\"").c_str() : v->text.c_str()));
    }
    *out = n;
    return true;
  }

  bool Table(const Json& root, RankTable* table) {
    if (root.kind != Json::kObject) return Fail(root, "a rank table is a JSON object");
    if (const Json* status = root.Find("status"); status != nullptr && status->text != "completed") {
      return Fail(*status, StrFormat("\"status\" is \"%s\": the table is not complete", status->text.c_str()));
    }
    const Json* servers = Member(root, "server_list", Json::kArray, "a list of servers");
    if (servers == nullptr) return false;
    std::vector<const Json*> byRank;
    std::vector<RankTableEntry> entries;
    for (const Json& server : servers->items) {
      if (server.kind != Json::kObject) return Fail(server, "a server is a JSON object");
      const Json* id = Member(server, "server_id", Json::kString, "a string");
      const Json* devices = id != nullptr ? Member(server, "device", Json::kArray, "a list of devices") : nullptr;
      if (devices == nullptr) return false;
      const Json* hostIp = server.Find("host_ip");
      const Json& where = hostIp != nullptr ? *hostIp : *id;
      in_addr address{};
      if (where.kind != Json::kString || inet_pton(AF_INET, where.text.c_str(), &address) != 1) {
        return Fail(where, StrFormat("server \"%s\": \"%s\" is not an IPv4 address", id->text.c_str(),
                                     where.text.c_str()));
      }
      for (const Json& device : devices->items) {
        if (device.kind != Json::kObject) return Fail(device, "a device is a JSON object");
        long rank = 0, deviceId = 0;
        if (!Count(device, "rank_id", &rank) || !Count(device, "device_id", &deviceId)) return false;
        if (static_cast<size_t>(rank) >= byRank.size()) {
          byRank.resize(rank + 1, nullptr);
          entries.resize(rank + 1);
        }
        if (byRank[rank] != nullptr) {
          return Fail(device, StrFormat("rank %ld is given twice (also on line %d)", rank, byRank[rank]->line));
        }
        byRank[rank] = &device;
        entries[rank] = RankTableEntry{static_cast<int32_t>(deviceId), id->text, address.s_addr};
      }
    }
    for (size_t r = 0; r < byRank.size(); ++r) {
      if (byRank[r] == nullptr) return Fail(*servers, StrFormat("no device holds rank %zu", r));
    }
    if (entries.empty()) return Fail(*servers, "the table names no device");
    table->ranks = std::move(entries);
    return true;
  }

 private:
  const char* path_;
  std::string* error_;
};

}  // namespace

bool ReadRankTable(const char* path, RankTable* table, std::string* error) {
  FILE* f = fopen(path, "rb");
  if (f == nullptr) {
    *error = StrFormat("cannot open the rank table %s (%s)", path, strerror(errno));
    return false;
  }
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
  fclose(f);
  Reader reader(text);
  Json root;
  if (!reader.Document(&root)) {
    *error = StrFormat("%s:%d: %s", path, reader.line(), reader.error().c_str());
    return false;
  }
  table->digest = Digest(text);
  return Fields(path, error).Table(root, table);
}

}  // namespace hccl
}  // namespace ascendc_sim
