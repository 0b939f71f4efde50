# Shared by the corpus scripts (sourced, not run): checks the metadata-blob
# extractor (the test driver CTest passes as the third argument), and finds
# the Mono assemblies to read.
#   find_blobs_tool PATH        sets blobs_tool, or fails the test
#   find_mono_assemblies        sets assemblies (array), or skips the test (77)
# GDMAP_MONO_ASSEMBLIES overrides where assemblies are looked for (a
# space-separated list of directories).

find_blobs_tool() {
  blobs_tool=$1
  [[ -x $blobs_tool ]] && return 0
  echo "FAIL: gdmap-metadata-blobs not found at '$1' (tests/tools/metadata-blobs builds it)" >&2
  exit 1
}

find_mono_assemblies() {
  local search_dirs dir file
  read -r -a search_dirs <<<"${GDMAP_MONO_ASSEMBLIES:-/usr/lib/mono/4.5 /usr/lib/mono/gac}"
  assemblies=()
  for dir in "${search_dirs[@]}"; do
    [[ -d $dir ]] || continue
    while IFS= read -r -d '' file; do assemblies+=("$file"); done \
      < <(find "$dir" -name '*.dll' -type f -print0 | sort -z)
  done
  if [[ ${#assemblies[@]} -eq 0 ]]; then
    echo "SKIP: no Mono assemblies under ${search_dirs[*]} (Debian: apt-get install mono-devel)"
    exit 77
  fi
}
