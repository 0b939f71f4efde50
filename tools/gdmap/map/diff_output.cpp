#include "map/diff_output.hpp"

#include <gdmap/internal/plural.hpp>
#include <gdmap/reader/map_compare.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::cli {
namespace {

constexpr MapDiffKind kAllKinds[] = {MapDiffKind::Header,  MapDiffKind::Added,   MapDiffKind::Removed,
                                     MapDiffKind::Changed, MapDiffKind::Sharing, MapDiffKind::Layout,
                                     MapDiffKind::Bytes};

// "dictionary 0x1040.type[1]" -> "dictionary 0x1040: type[1]".
std::string spokenPath(std::string_view path) {
  const std::string_view subject = "dictionary ";
  if (path.substr(0, subject.size()) == subject) {
    const std::size_t dot = path.find('.');
    if (dot != std::string_view::npos)
      return std::string(path.substr(0, dot)) + ": " + std::string(path.substr(dot + 1));
  }
  return std::string(path);
}

std::string valueOrNone(const std::string& v) { return v.empty() ? "(none)" : v; }

std::string entryText(const MapDiffEntry& e) {
  switch (e.kind) {
    case MapDiffKind::Added: return e.path + ": " + e.b;
    case MapDiffKind::Removed: return e.path + ": " + e.a;
    case MapDiffKind::Bytes: {
      const std::size_t at = e.offsetA ? *e.offsetA : e.offsetB.value_or(0);
      return "byte " + hex32(static_cast<std::uint32_t>(at)) + ", " + e.path + ": " + e.a + " -> " + e.b;
    }
    default: return spokenPath(e.path) + ": " + valueOrNone(e.a) + " -> " + valueOrNone(e.b);
  }
}

void optionalNumber(JsonWriter& w, std::string_view key, const std::optional<std::size_t>& v) {
  w.key(key);
  if (v) w.number(*v);
  else w.null();
}

void optionalString(JsonWriter& w, std::string_view key, const std::string& v) {
  w.key(key);
  if (v.empty()) w.null();
  else w.string(v);
}

void writeEntry(JsonWriter& w, const MapDiffEntry& e) {
  w.beginObject(JsonWriter::Layout::Inline);
  w.key("kind");
  w.string(mapDiffKindName(e.kind));
  w.key("path");
  w.string(e.path);
  w.key("rva");
  if (e.rva) w.hex32(*e.rva);
  else w.null();
  optionalString(w, "a", e.a);
  optionalString(w, "b", e.b);
  optionalNumber(w, "offsetA", e.offsetA);
  optionalNumber(w, "offsetB", e.offsetB);
  if (!e.subPath.empty()) {
    optionalString(w, "subPath", e.subPath);
    optionalString(w, "partA", e.partA);
    optionalString(w, "partB", e.partB);
  }
  if (!e.contextA.empty() || !e.contextB.empty()) {
    optionalString(w, "contextA", e.contextA);
    optionalString(w, "contextB", e.contextB);
  }
  w.endObject();
}

void writeByteSummary(JsonWriter& w, const MapByteSummary& s) {
  w.beginObject(JsonWriter::Layout::Inline);
  w.member("sizeA", s.sizeA);
  w.member("sizeB", s.sizeB);
  w.member("differingBytes", s.differingBytes);
  w.member("differingRuns", s.differingRuns);
  optionalNumber(w, "firstOffset", s.firstOffset);
  optionalString(w, "pathA", s.pathA);
  optionalString(w, "pathB", s.pathB);
  w.endObject();
}

}  // namespace

MapDiffOptions mapDiffOptions(const DiffListing& listing, const TypeNames* names) {
  MapDiffOptions options;
  if (listing.all) options.maxListed = MapDiffOptions::kUnlimited;
  options.context = listing.context;
  options.names = names;
  return options;
}

std::string diffCounts(const MapDiff& d) {
  std::string text;
  for (const MapDiffKind kind : kAllKinds) {
    if (d.count(kind) == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(d.count(kind)) + " " + std::string(mapDiffKindName(kind));
  }
  return text.empty() ? "none" : text;
}

std::string diffSummary(const MapDiff& d) {
  const std::string n = plural(d.total, "difference", "differences");
  if (d.structural && d.sameContent) return "same content, different layout: " + n + " (" + diffCounts(d) + ")";
  if (!d.structural)
    return "compared byte by byte: " + plural(d.bytes.differingBytes, "differing byte", "differing bytes") + " in " +
           plural(d.bytes.differingRuns, "run", "runs") + "; sizes " + std::to_string(d.bytes.sizeA) + " and " +
           std::to_string(d.bytes.sizeB);
  return n + " (" + diffCounts(d) + ")";
}

void appendDiffLines(const MapDiff& d, std::string_view indent, std::string& out) {
  for (const MapDiffEntry& e : d.differences) {
    out += indent;
    const std::string_view kind = mapDiffKindName(e.kind);
    out += kind;
    out.append(kind.size() < 9 ? 9 - kind.size() : 1, ' ');
    out += entryText(e);
    out += '\n';
    const std::string pad = std::string(indent) + std::string(11, ' ');
    // Where inside the type they differ, as `verify` names a field.
    if (!e.subPath.empty()) {
      out += pad;
      const std::size_t dot = e.path.find('.');
      out += "at " + (dot == std::string::npos ? e.path : e.path.substr(dot + 1)) + e.subPath + ": " + e.partA +
             " -> " + e.partB + '\n';
    }
    if (!e.contextA.empty() || !e.contextB.empty()) {
      for (const auto& [side, context] : {std::pair{"A: ", &e.contextA}, std::pair{"B: ", &e.contextB}}) {
        out += pad;
        out += side;
        out += valueOrNone(*context);
        out += '\n';
      }
    }
  }
  if (d.notListed() > 0) {
    out += indent;
    out += "... " + plural(d.notListed(), "more difference", "more differences") + " (--all lists them)\n";
  }
}

std::string diffCause(const MapDiff& d, std::string_view a, std::string_view b) {
  const std::string sa(a), sb(b);
  if (d.identical || d.differences.empty()) return {};
  const MapDiffEntry& e = d.differences.front();
  // A dictionary removed and one added with the same types: most likely
  // one dictionary whose RVA changed.
  if (e.kind == MapDiffKind::Added || e.kind == MapDiffKind::Removed) {
    const bool added = e.kind == MapDiffKind::Added;
    const std::string& types = added ? e.b : e.a;
    for (const MapDiffEntry& other : d.differences) {
      if (other.kind != (added ? MapDiffKind::Removed : MapDiffKind::Added)) continue;
      if ((added ? other.a : other.b) != types) continue;
      const MapDiffEntry& inA = added ? other : e;
      const MapDiffEntry& inB = added ? e : other;
      std::string cause = inA.path;
      cause += " (";
      cause += types;
      cause += ") in ";
      cause += sa;
      cause += " is at RVA ";
      cause += hex32(inB.rva.value_or(0));
      cause += " in ";
      cause += sb;
      return cause;
    }
  }
  switch (e.kind) {
    case MapDiffKind::Header: return sa + " has header " + e.a + ", " + sb + " has " + e.b;
    case MapDiffKind::Removed: return sa + " has " + e.path + " (" + e.a + "), " + sb + " has none";
    case MapDiffKind::Added: return sb + " has " + e.path + " (" + e.b + "), " + sa + " has none";
    case MapDiffKind::Changed:
      if (!e.subPath.empty())
        return spokenPath(e.path + e.subPath) + " is " + e.partA + " in " + sa + ", " + e.partB + " in " + sb;
      return spokenPath(e.path) + " is " + valueOrNone(e.a) + " in " + sa + ", " + valueOrNone(e.b) + " in " + sb;
    case MapDiffKind::Sharing: return spokenPath(e.path) + " is " + e.a + " in " + sa + ", " + e.b + " in " + sb;
    case MapDiffKind::Layout:
      return "the same dictionaries laid out differently: " + spokenPath(e.path) + " is " + e.a + " in " + sa + ", " +
             e.b + " in " + sb;
    case MapDiffKind::Bytes: {
      const std::optional<Error>& why = d.unreadableB ? d.unreadableB : d.unreadableA;
      const std::string& side = d.unreadableB ? sb : sa;
      return side + " does not read as a map (" + (why ? why->message : std::string("?")) + ")";
    }
  }
  return {};
}

void writeDiffJson(const MapDiff& d, JsonObject& out) {
  out.boolean("structural", d.structural);
  out.boolean("sameContent", d.sameContent);
  out.number("total", d.total);
  out.number("listed", d.differences.size());
  JsonWriter& counts = out.value("counts");
  counts.beginObject(JsonWriter::Layout::Inline);
  for (const MapDiffKind kind : kAllKinds) {
    counts.stringKey(mapDiffKindName(kind));
    counts.number(d.count(kind));
  }
  counts.endObject();
  out.beginArray("differences");
  for (const MapDiffEntry& e : d.differences) writeEntry(out.element(), e);
  out.endArray();
  writeByteSummary(out.value("bytes"), d.bytes);
}

Diagnostic byteLevelNote(const Error& why, ByteSpan bytes, const std::string& file) {
  Diagnostic note;
  note.severity = Severity::Note;
  note.rule = rules::kDiffByteLevel;
  note.file = file;
  note.offset = why.offset;
  note.path = why.offset < bytes.size() ? mapFieldPath(bytes, why.offset) : "";
  note.message = "does not read as a map (" + why.message + (why.rule.empty() ? "" : " [" + why.rule + "]") +
                 "); compared byte by byte";
  return note;
}

}  // namespace gdmap::cli
