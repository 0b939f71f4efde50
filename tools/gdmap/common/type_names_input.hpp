#pragma once
// `--names ASSEMBLY`: the type names of an assembly, for the commands that
// print or read type text.
#include "common/report.hpp"

#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/type_names.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace gdmap::cli {

// The names of the assembly at `path`; on failure (unreadable, not a PE
// image with metadata) the error is added to `report` and null returned.
std::unique_ptr<TypeNames> loadTypeNames(const std::string& path, Report& report);

// The names of the assembly `bytes`, the input `file`; when its metadata
// cannot be read, a names-not-assembly error where it stops being an
// assembly, its message after `what` ("--names needs an assembly: "), is
// added to `report` and null returned.
// That error for the metadata error `error` (AssemblyTypeNames::open's).
void reportNotAssembly(const Error& error, const std::string& file, std::string_view what, Report& report);

std::unique_ptr<metadata::AssemblyTypeNames> assemblyNames(ByteSpan bytes, const std::string& file,
                                                           std::string_view what, Report& report);

}  // namespace gdmap::cli
