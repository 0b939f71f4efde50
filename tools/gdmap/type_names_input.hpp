#pragma once
// `--names ASSEMBLY`: the type names of an assembly, for the commands that
// print or read type text.
#include "report.hpp"

#include <gdmap/schema/type_names.hpp>

#include <memory>
#include <string>

namespace gdmap::cli {

// The names of the assembly at `path`; on failure (unreadable, not a PE
// image with metadata) the error is added to `report` and null returned.
std::unique_ptr<TypeNames> loadTypeNames(const std::string& path, Report& report);

}  // namespace gdmap::cli
