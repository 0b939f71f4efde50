# Opt-in: every ReadyToRun image of every .NET runtime pack the NuGet copy
# serves (3.1, 6.0, 8.0, 9.0, 10.0; each RID it serves) and of the SDK's
# own shared framework goes through `gdmap il extract`, and each method is
# cross-checked against the independent reader tests/r2r/r2r_reference.py
# (token, instantiated or not, component, code size, every bound, the
# bounds bytes re-encoded in the image's form). A sample of methods per
# image is also built with `gdmap il build --format FORM` and compared with
# the image's bytes (GDMAP_R2R_BUILD_SAMPLE per image, default 20; 0 = all,
# which is slow: one process per method). Files that are not R2R (IL-only
# facades, native libraries) must be refused by both readers.
#
# Runs only with GDMAP_R2R_PACKS=1 (else skipped, status 77). Packs missing
# from the NuGet cache (NUGET_PACKAGES, else ~/.nuget/packages) are
# restored with a throwaway project of PackageDownload items in a temp dir.
# GDMAP_R2R_PACKAGE=DIR checks the *.dll under DIR instead of the packs.
# GDMAP_R2R_PACK_LIST="rid@version ..." replaces the list of packs;
# GDMAP_R2R_SHARED=0 leaves out the SDK's shared framework.
# GDMAP_R2R_REFERENCE_ONLY=1 runs the reference alone (--check: every blob
# decodes, runtime functions in order, bounds within the code).
# Prints a table: pack, RID -> images, methods, agree; then every
# disagreement. Status 1 on any disagreement.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_R2R_PACKS:-}" = 1 ] || { echo "SKIP: set GDMAP_R2R_PACKS=1 to run (restores the runtime packs, ~40 MB each)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
reference=$root/tests/r2r/r2r_reference.py
compare=$root/tests/r2r/compare_extract.py
sample=${GDMAP_R2R_BUILD_SAMPLE:-20}
reference_only=${GDMAP_R2R_REFERENCE_ONLY:-}

# What the NuGet copy served (Microsoft.NETCore.App.Runtime.<rid>), one
# version per major line and RID.
packs=${GDMAP_R2R_PACK_LIST:-"linux-x64@3.1.3 linux-x64@8.0.34 linux-x64@9.0.23 linux-x64@10.0.12
  win-x64@6.0.13 win-x64@8.0.33 win-x64@9.0.22 win-x64@10.0.12 win-x86@10.0.12
  linux-arm64@9.0.23 linux-arm64@10.0.12 osx-arm64@10.0.12 osx-x64@10.0.12
  linux-musl-x64@8.0.34 linux-musl-x64@10.0.12"}
cache=${NUGET_PACKAGES:-$HOME/.nuget/packages}

dirs=()    # folders of images
labels=()  # "version rid" of each
if [ -n "${GDMAP_R2R_PACKAGE:-}" ]; then
  dirs+=("${GDMAP_R2R_PACKAGE%/}/")
  labels+=("$(basename "$GDMAP_R2R_PACKAGE") -")
else
  missing=()
  for p in $packs; do
    rid=${p%@*} version=${p#*@}
    [ -d "$cache/microsoft.netcore.app.runtime.$rid/$version" ] || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    if command -v dotnet >/dev/null 2>&1; then
      {
        echo '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup><ItemGroup>'
        for p in "${missing[@]}"; do
          echo "<PackageDownload Include=\"Microsoft.NETCore.App.Runtime.${p%@*}\" Version=\"[${p#*@}]\" />"
        done
        echo '</ItemGroup></Project>'
      } >"$work/restore.csproj"
      dotnet restore "$work/restore.csproj" >"$work/restore.log" 2>&1 ||
        { tail -5 "$work/restore.log"; echo "note: some packs could not be restored; checking the others"; }
    else
      echo "note: dotnet not found; ${#missing[@]} packs missing from $cache are left out"
    fi
  fi
  for p in $packs; do
    rid=${p%@*} version=${p#*@}
    for d in "$cache/microsoft.netcore.app.runtime.$rid/$version"/runtimes/"$rid"/lib/*/; do
      [ -d "$d" ] && { dirs+=("$d"); labels+=("$version $rid"); }
    done
  done
  # The SDK's own shared framework (the machine's runtime); GDMAP_R2R_SHARED=0 leaves it out.
  if [ "${GDMAP_R2R_SHARED:-1}" != 0 ] && command -v dotnet >/dev/null 2>&1; then
    while read -r name version path; do
      [ "$name" = Microsoft.NETCore.App ] || continue
      path=${path#[}
      path=${path%]}
      dirs+=("$path/$version/")
      labels+=("$version shared")
    done < <(dotnet --list-runtimes 2>/dev/null)
  fi
fi
[ "${#dirs[@]}" -gt 0 ] || { echo "SKIP: no runtime pack found"; exit 77; }

disagreements=$work/disagreements
: >"$disagreements"
total_images=0 total_methods=0 total_agree=0
printf '%-10s %-16s %7s %9s %7s %8s\n' pack RID images methods agree refused
for i in "${!dirs[@]}"; do
  dir=${dirs[$i]} label=${labels[$i]}
  images=0 methods=0 agree=0 refused=0
  for image in "$dir"*.dll; do
    [ -f "$image" ] || continue
    base=$(basename "$image")
    if ! python3 "$reference" "$image" --summary --check >"$work/ref" 2>"$work/referr"; then
      if grep -q -E 'not a ReadyToRun image|not a \.NET image|not a PE file' "$work/referr"; then
        refused=$((refused + 1))
        [ -n "$reference_only" ] && continue
        status=0
        "$gdmap" il extract "$image" -o "$work/x.json" 2>"$work/err" || status=$?
        [ "$status" -eq 1 ] ||
          echo "$label $base: the reference refuses it ($(cat "$work/referr")), gdmap il extract exited $status" >>"$disagreements"
      else
        echo "$label $base: the reference fails: $(head -3 "$work/referr" | tr '\n' ' ')" >>"$disagreements"
      fi
      continue
    fi
    images=$((images + 1))
    n=$(sed -E 's/.*: ([0-9]+) methods,.*/\1/' "$work/ref")
    methods=$((methods + n))
    if [ -n "$reference_only" ]; then
      agree=$((agree + 1))
      continue
    fi
    bounded=$(sed -E 's/.* ([0-9]+) with bounds.*/\1/' "$work/ref")
    if grep -q 'composite of' "$work/ref"; then
      # A composite image: gdmap extracts one component at a time (it names
      # them when none is chosen); together they must cover every body.
      names=$("$gdmap" il extract "$image" -o "$work/x.json" 2>&1 | sed -n 's/.*--component NAME: //p' |
        sed -E 's/ \([0-9]+ bodies\)//g; s/,//g; s/ \[.*//' || true)
      covered=0 ok=1
      for name in $names; do
        if "$gdmap" il extract "$image" --component "$name" -o "$work/x.json" 2>"$work/err" &&
          python3 "$compare" "$image" "$work/x.json" --gdmap "$gdmap" --workdir "$work" --sample "$sample" >"$work/cmp" 2>&1; then
          covered=$((covered + $(sed -E 's/.*: ([0-9]+) methods agree.*/\1/' "$work/cmp")))
        else
          ok=0
          { head -2 "$work/err"; cat "$work/cmp"; } | sed "s|^|$label $base --component $name: |" >>"$disagreements"
        fi
      done
      if [ "$ok" = 1 ] && [ "$covered" = "$bounded" ]; then
        agree=$((agree + 1))
      elif [ "$ok" = 1 ]; then
        echo "$label $base: components [$names] extract $covered bodies, the reference $bounded" >>"$disagreements"
      fi
      continue
    fi
    # Nothing to extract: no code (a component stub's code is its composite
    # image's, checked there; gdmap reads it through the stub too).
    if [ "$bounded" = 0 ] && ! grep -q 'component of' "$work/ref"; then
      agree=$((agree + 1))
      continue
    fi
    if ! "$gdmap" il extract "$image" -o "$work/x.json" 2>"$work/err"; then
      echo "$label $base: gdmap il extract failed: $(head -2 "$work/err" | tr '\n' ' ')" >>"$disagreements"
      continue
    fi
    if python3 "$compare" "$image" "$work/x.json" --gdmap "$gdmap" --workdir "$work" --sample "$sample" >"$work/cmp" 2>&1; then
      agree=$((agree + 1))
    else
      sed "s|^|$label |" "$work/cmp" >>"$disagreements"
    fi
  done
  printf '%-10s %-16s %7d %9d %7d %8d\n' "${label% *}" "${label#* }" "$images" "$methods" "$agree" "$refused"
  total_images=$((total_images + images))
  total_methods=$((total_methods + methods))
  total_agree=$((total_agree + agree))
done
printf '%-27s %7d %9d %7d\n' total "$total_images" "$total_methods" "$total_agree"
if [ -s "$disagreements" ]; then
  echo "disagreements:"
  cat "$disagreements"
  exit 1
fi
echo "r2r_packs: $total_images ReadyToRun images, $total_methods methods, all agree with the reference"
