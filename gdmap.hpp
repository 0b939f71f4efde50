#pragma once
// Everything a program linking gdmap::gdmap may use.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/compressed_int.hpp>
#include <gdmap/writer/type_encoder.hpp>
#include <gdmap/reader/compressed_int.hpp>
#include <gdmap/reader/type_decoder.hpp>
