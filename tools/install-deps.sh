#!/usr/bin/env bash
# Installs the Debian 12 packages gdmap needs that are missing.
#   tools/install-deps.sh build   compiler, CMake and the libraries
#   tools/install-deps.sh test    the same plus jq and python3-jsonschema (JSON output tests), xxd (the docs'
#                                 examples) and Mono (ilasm and the framework assemblies the corpus tests read)
set -euo pipefail
packages=(g++ make cmake nlohmann-json3-dev doctest-dev libcli11-dev zlib1g-dev)
[ "${1:-build}" = test ] && packages+=(mono-devel jq xxd python3-jsonschema)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "gdmap: missing Debian packages: ${missing[*]}" >&2
  echo "gdmap: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
  exit 2
fi
echo "gdmap: installing ${missing[*]}" >&2
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
