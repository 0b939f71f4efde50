// Document name blobs (Portable PDB v1.0, "Document Name Blob"): a
// separator, then parts that are #Blob heap indexes of UTF-8 text, over a
// hand-made #Blob heap; and a located pdb-invalid error for each rule.
#include "reader/pdb/document_name_blob.hpp"

#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace pdb = gdmap::pdb;

namespace {

constexpr std::size_t kHeapAt = 500;   // where the heap lies in its (imagined) PDB
constexpr std::size_t kNameCell = 40;  // where the Document row's Name column lies

// A #Blob heap: index 0 is the empty blob.
struct Heap {
  gdmap::Bytes bytes{0};
  std::uint32_t add(const gdmap::Bytes& blob) {
    const auto index = static_cast<std::uint32_t>(bytes.size());
    REQUIRE(gdmap::appendCompressedUInt(bytes, static_cast<std::uint32_t>(blob.size())));
    bytes.insert(bytes.end(), blob.begin(), blob.end());
    return index;
  }
  std::uint32_t text(const std::string& s) { return add(gdmap::Bytes(s.begin(), s.end())); }
  // A name blob: the separator's bytes, then the parts' indexes.
  std::uint32_t name(const std::string& separator, const std::vector<std::uint32_t>& parts) {
    gdmap::Bytes blob(separator.begin(), separator.end());
    for (const std::uint32_t part : parts) REQUIRE(gdmap::appendCompressedUInt(blob, part));
    return add(blob);
  }
  gdmap::Expected<std::string> decode(std::uint32_t index) const {
    return pdb::decodeDocumentName(gdmap::metadata::Stream{bytes, kHeapAt}, index, 3, kNameCell);
  }
};

void checkError(const gdmap::Expected<std::string>& name, std::size_t offset, const std::string& path,
                const std::string& words) {
  REQUIRE_FALSE(name.ok());
  CHECK(name.error().rule == "pdb-invalid");
  CHECK(name.error().offset == offset);
  CHECK(name.error().path == path);
  CHECK_MESSAGE(name.error().message.find(words) != std::string::npos, name.error().message);
}

}  // namespace

TEST_CASE("pdb document names: parts joined by the separator") {
  Heap heap;
  const std::uint32_t home = heap.text("home"), user = heap.text("user"), file = heap.text("Program.cs");
  CHECK(*heap.decode(heap.name("/", {0, home, user, file})) == "/home/user/Program.cs");  // an empty first part
  CHECK(*heap.decode(heap.name(std::string(1, '\0'), {home, user})) == "homeuser");       // no separator
  CHECK(*heap.decode(heap.name("\\", {heap.text("C:"), file})) == "C:\\Program.cs");
  CHECK(*heap.decode(heap.name("\xE2\x86\x92", {home, user})) == "home\xE2\x86\x92user");  // a UTF-8 separator
  CHECK(heap.decode(heap.name(std::string(1, '\0'), {0})).value().empty());  // an empty name: one empty part
  CHECK(*heap.decode(heap.name("/", {home, 0, 0})) == "home//");
}

TEST_CASE("pdb document names: a broken name blob is located (pdb-invalid)") {
  Heap heap;
  const std::uint32_t home = heap.text("home");
  SUBCASE("nil") { checkError(heap.decode(0), kNameCell, "Document[3].Name", "nil"); }
  SUBCASE("outside the heap") {
    checkError(heap.decode(9999), kHeapAt + heap.bytes.size(), "Document[3].Name", "#Blob[9999]");
  }
  SUBCASE("empty") {
    const std::uint32_t empty = heap.add({});
    checkError(heap.decode(empty), kHeapAt + empty + 1, "Document[3].Name", "no separator");
  }
  SUBCASE("a separator that is no UTF-8 character") {
    const std::uint32_t bad = heap.name("\x80", {home});
    checkError(heap.decode(bad), kHeapAt + bad + 1, "Document[3].Name", "no UTF-8 character");
    const std::uint32_t cut = heap.add({0xE2, 0x86});  // a 3-byte lead with one continuation byte
    checkError(heap.decode(cut), kHeapAt + cut + 1, "Document[3].Name", "no UTF-8 character");
  }
  SUBCASE("no part") {
    const std::uint32_t bare = heap.name("/", {});
    checkError(heap.decode(bare), kHeapAt + bare + 2, "Document[3].Name", "no part");
  }
  SUBCASE("a part outside the heap") {
    const std::uint32_t far = heap.name("/", {home, 5000});
    checkError(heap.decode(far), kHeapAt + heap.bytes.size(), "Document[3].Name.parts[1]", "#Blob[5000]");
  }
  SUBCASE("a part that is no compressed integer") {
    const std::uint32_t bad = heap.add({'/', 0xFF});
    checkError(heap.decode(bad), kHeapAt + bad + 2, "Document[3].Name.parts[0]", "111xxxxx");
  }
  SUBCASE("a name over 64 KiB made of a few bytes") {
    const std::uint32_t big = heap.text(std::string(40000, 'a'));
    const std::uint32_t twice = heap.name("/", {big, big});
    checkError(heap.decode(twice), kHeapAt + twice + 3, "Document[3].Name", "over 64 KiB");
  }
}
