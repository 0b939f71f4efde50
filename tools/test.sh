#!/usr/bin/env bash
# The whole test suite: installs what is missing, then configures, builds and
# runs every test through a CMake workflow preset.
#   tools/test.sh            the release build (the default)
#   tools/test.sh sanitize   address + undefined sanitizers
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh test
cmake --workflow --preset "${1:-release}" --fresh
