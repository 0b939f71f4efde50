# Opt-in: every ReadyToRun image of every .NET runtime pack the NuGet copy
# serves (3.1, 6.0, 8.0, 9.0, 10.0, 11.0; each RID it serves), of the
# ASP.NET Core shared framework packs of 11.0 and of the SDK's own shared
# framework goes through `gdmap il extract`, and each method is
# cross-checked against the independent reader tests/r2r/r2r_reference.py
# (token, instantiated or not, async variant, resumption stub, component,
# code size, code ranges, every bound, the bounds bytes re-encoded in the
# image's form). A sample of methods per image is also built with `gdmap il
# build --format FORM` and compared with the image's bytes
# (GDMAP_R2R_BUILD_SAMPLE per image, default 20; 0 = all, which is slow:
# one process per method). Files that are not R2R (IL-only facades) must
# be refused by both readers. A pack's images are its
# runtimes/<rid>/lib/<tfm>/*.dll and runtimes/<rid>/native/*.dll (the 3.1
# packs keep System.Private.CoreLib.dll there; the native .so are no .dll).
# A composite image is extracted whole in one run (every component's
# methods, each naming its component); a component stub through its
# composite image beside it.
#
# Runs only with GDMAP_R2R_PACKS=1 (else skipped, status 77). Packs missing
# from the NuGet cache (NUGET_PACKAGES, else ~/.nuget/packages) are
# restored with a throwaway project of PackageDownload items in a temp dir.
# GDMAP_R2R_PACKAGE=DIR checks the *.dll under DIR instead of the packs.
# GDMAP_R2R_PACK_LIST="rid@version aspnet:rid@version ..." replaces the
# list of packs: rid@version (or netcore:rid@version) is
# Microsoft.NETCore.App.Runtime.<rid>, aspnet:rid@version
# Microsoft.AspNetCore.App.Runtime.<rid>.
# GDMAP_R2R_SHARED=0 leaves out the SDK's shared framework.
# GDMAP_R2R_REFERENCE_ONLY=1 runs the reference alone (--check: every blob
# decodes, runtime functions in order and each claimed by one body, bounds
# within the code, resumption stubs after their async variant and named by
# its fixups).
# Prints a table: pack, RID -> images, methods, agree, refused, async
# variants, resumption stubs; then every disagreement. Status 1 on any
# disagreement.
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

# What the NuGet copy served (Microsoft.NETCore.App.Runtime.<rid>, and
# Microsoft.AspNetCore.App.Runtime.<rid> as aspnet:), one version per major
# line and RID. 11.0.0 restores for linux-x64, linux-arm64 and
# linux-musl-x64 only (win-*, osx-*, linux-arm and linux-musl-arm64 did not).
packs=${GDMAP_R2R_PACK_LIST:-"linux-x64@3.1.3 linux-x64@8.0.34 linux-x64@9.0.23 linux-x64@10.0.12
  win-x64@6.0.13 win-x64@8.0.33 win-x64@9.0.22 win-x64@10.0.12 win-x86@10.0.12
  linux-arm64@9.0.23 linux-arm64@10.0.12 osx-arm64@10.0.12 osx-x64@10.0.12
  linux-musl-x64@8.0.34 linux-musl-x64@10.0.12
  linux-x64@11.0.0 linux-arm64@11.0.0 linux-musl-x64@11.0.0
  aspnet:linux-x64@11.0.0 aspnet:linux-musl-x64@11.0.0"}
cache=${NUGET_PACKAGES:-$HOME/.nuget/packages}

# A pack's NuGet id, its RID, version and table label ("version rid", the
# RID prefixed with aspnet: for the ASP.NET Core packs).
pack_id() {
  local p=$1 kind=netcore
  case $p in
    aspnet:*) kind=aspnet p=${p#aspnet:} ;;
    netcore:*) p=${p#netcore:} ;;
  esac
  rid=${p%@*} version=${p#*@}
  if [ "$kind" = aspnet ]; then
    id=Microsoft.AspNetCore.App.Runtime.$rid label="$version aspnet:$rid"
  else
    id=Microsoft.NETCore.App.Runtime.$rid label="$version $rid"
  fi
  folder=$cache/$(printf '%s' "$id" | tr '[:upper:]' '[:lower:]')/$version
}

rows=()    # the folders of images of each row, one per line
labels=()  # "version rid" of each
if [ -n "${GDMAP_R2R_PACKAGE:-}" ]; then
  rows+=("${GDMAP_R2R_PACKAGE%/}/")
  labels+=("$(basename "$GDMAP_R2R_PACKAGE") -")
else
  # Missing packs, as "id version" lines: one PackageDownload item per id
  # with all its versions ("[a];[b]"; an item per version would restore one
  # of them only, NU1505).
  : >"$work/missing"
  for p in $packs; do
    pack_id "$p"
    [ -d "$folder" ] || echo "$id $version" >>"$work/missing"
  done
  if [ -s "$work/missing" ]; then
    if command -v dotnet >/dev/null 2>&1; then
      {
        echo '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup><ItemGroup>'
        for id in $(cut -d' ' -f1 "$work/missing" | sort -u); do
          versions=$(awk -v id="$id" '$1 == id { printf "%s[%s]", sep, $2; sep = ";" }' "$work/missing")
          echo "<PackageDownload Include=\"$id\" Version=\"$versions\" />"
        done
        echo '</ItemGroup></Project>'
      } >"$work/restore.csproj"
      dotnet restore "$work/restore.csproj" >"$work/restore.log" 2>&1 ||
        { tail -5 "$work/restore.log"; echo "note: some packs could not be restored; checking the others"; }
    else
      echo "note: dotnet not found; $(wc -l <"$work/missing") packs missing from $cache are left out"
    fi
  fi
  for p in $packs; do
    pack_id "$p"
    found=
    for d in "$folder"/runtimes/"$rid"/lib/*/ "$folder"/runtimes/"$rid"/native/; do
      [ -d "$d" ] && found+="$d"$'\n'
    done
    if [ -n "$found" ]; then
      rows+=("$found")
      labels+=("$label")
    else
      echo "note: $p: not in $cache (not restored); left out"
    fi
  done
  # The SDK's own shared framework (the machine's runtime); GDMAP_R2R_SHARED=0 leaves it out.
  if [ "${GDMAP_R2R_SHARED:-1}" != 0 ] && command -v dotnet >/dev/null 2>&1; then
    while read -r name version path; do
      [ "$name" = Microsoft.NETCore.App ] || continue
      path=${path#[}
      path=${path%]}
      rows+=("$path/$version/")
      labels+=("$version shared")
    done < <(dotnet --list-runtimes 2>/dev/null)
  fi
fi
[ "${#rows[@]}" -gt 0 ] || { echo "SKIP: no runtime pack found"; exit 77; }

disagreements=$work/disagreements
: >"$disagreements"
total_images=0 total_methods=0 total_agree=0 total_async=0 total_stubs=0
printf '%-10s %-22s %7s %9s %7s %8s %6s %6s\n' pack RID images methods agree refused async stubs
for i in "${!rows[@]}"; do
  mapfile -t folders <<<"${rows[$i]}"
  label=${labels[$i]}
  images=0 methods=0 agree=0 refused=0 async=0 stubs=0
  for dir in "${folders[@]}"; do
    [ -n "$dir" ] || continue
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
      read -r a s < <(sed -n -E 's/.*, ([0-9]+) async variants, ([0-9]+) resumption stubs.*/\1 \2/p' "$work/ref") || true
      async=$((async + ${a:-0}))
      stubs=$((stubs + ${s:-0}))
      a='' s=''
      if [ -n "$reference_only" ]; then
        agree=$((agree + 1))
        continue
      fi
      bounded=$(sed -E 's/.* ([0-9]+) with bounds.*/\1/' "$work/ref")
      if grep -q 'composite of' "$work/ref"; then
        # A composite image: one run extracts every component's methods,
        # each naming its component; they must cover every body.
        if ! "$gdmap" il extract "$image" -o "$work/x.json" 2>"$work/err"; then
          echo "$label $base: gdmap il extract failed: $(head -2 "$work/err" | tr '\n' ' ')" >>"$disagreements"
        elif ! python3 "$compare" "$image" "$work/x.json" --gdmap "$gdmap" --workdir "$work" --sample "$sample" >"$work/cmp" 2>&1; then
          sed "s|^|$label |" "$work/cmp" >>"$disagreements"
        elif covered=$(sed -E 's/.*: ([0-9]+) methods agree.*/\1/' "$work/cmp") && [ "$covered" != "$bounded" ]; then
          echo "$label $base: the composite image's extract has $covered bodies, the reference $bounded" >>"$disagreements"
        else
          agree=$((agree + 1))
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
  done
  printf '%-10s %-22s %7d %9d %7d %8d %6d %6d\n' "${label% *}" "${label#* }" "$images" "$methods" "$agree" "$refused" \
    "$async" "$stubs"
  total_images=$((total_images + images))
  total_methods=$((total_methods + methods))
  total_agree=$((total_agree + agree))
  total_async=$((total_async + async))
  total_stubs=$((total_stubs + stubs))
done
printf '%-33s %7d %9d %7d %8s %6d %6d\n' total "$total_images" "$total_methods" "$total_agree" "" "$total_async" "$total_stubs"
if [ -s "$disagreements" ]; then
  echo "disagreements:"
  cat "$disagreements"
  exit 1
fi
if [ -n "$reference_only" ]; then
  echo "r2r_packs: $total_images ReadyToRun images, $total_methods methods, the reference reads all with --check clean"
else
  echo "r2r_packs: $total_images ReadyToRun images, $total_methods methods, all agree with the reference"
fi
