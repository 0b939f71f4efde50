#pragma once
// What `check` and `il check` say alike about a CheckReport: the counts,
// the note a capped list ends with, and the verdict on the canonical form.
#include "common/json_object.hpp"

#include <gdmap/schema/check_report.hpp>
#include <gdmap/schema/diagnostic.hpp>

#include <string>
#include <vector>

namespace gdmap::cli {

// A checker stops listing at --max-diagnostics but counts on: the list
// closes with the note every capped list ends with (docs/errors.md), unless
// the checker said it itself.
void closeTruncatedList(CheckReport& checked);

// The JSON fields valid, errors, warnings and truncated.
void writeCheckCounts(const CheckReport& checked, JsonObject& out);

// "2 errors, 1 warning".
std::string checkCounts(const CheckReport& checked);

// "; canonical", or "; not canonical: PATH: MESSAGE" for the first reason,
// or nothing when not canonical for no reason given.
std::string canonicalVerdict(bool canonical, const std::vector<Diagnostic>& reasons);

}  // namespace gdmap::cli
