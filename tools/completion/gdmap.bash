# bash completion for gdmap: subcommands (and those of `gdmap il`, `gdmap
# sig`), the options of the command being typed, the forms --format, --from
# and --to take, and file names. Names and options are read from the
# binary's own --help, so they follow the gdmap being completed.
# Installed as share/bash-completion/completions/gdmap.

# The words of one section of `gdmap PATH... --help`: "Subcommands" gives
# names, "Options" gives each option name, with "=" appended to the ones
# that take a value.
_gdmap_help_words() {
  local section=$1 program=$2
  shift 2
  "$program" "$@" --help 2>/dev/null | awk -v header="$section:" '
    $0 == header { on = 1; next }
    /^$/ { on = 0 }
    on && /^  [^ ]/ {
      n = split($1, names, ",")
      # "--format FORM REQUIRED": one space, then the name of its value (the
      # help text is further off, after padding).
      takes = ($0 ~ /^  [^ ]+ [A-Z][A-Z_]*( |$)/) ? "=" : ""
      for (i = 1; i <= n; ++i) print names[i] takes
    }'
}

_gdmap() {
  local program=$1 cur=${COMP_WORDS[COMP_CWORD]} prev=""
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local -a path=() subcommands options
  local word i
  # The subcommands typed so far (options and operands are passed over).
  mapfile -t subcommands < <(_gdmap_help_words Subcommands "$program")
  for ((i = 1; i < COMP_CWORD; ++i)); do
    word=${COMP_WORDS[i]}
    [ "$word" = -- ] && break
    if [ "${#subcommands[@]}" -gt 0 ] && [[ " ${subcommands[*]} " == *" $word "* ]]; then
      path+=("$word")
      mapfile -t subcommands < <(_gdmap_help_words Subcommands "$program" "${path[@]}")
    fi
  done
  mapfile -t options < <(_gdmap_help_words Options "$program" "${path[@]}")

  case $prev in
    --format | --from | --to)
      mapfile -t COMPREPLY < <(compgen -W "api nibble packed2 packed3" -- "$cur")
      return
      ;;
    -o | --output)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
  esac
  # Any other option that takes a value takes a number or a token: nothing
  # to offer.
  if [[ $prev == -* ]] && [[ " ${options[*]} " == *" $prev= "* ]]; then
    COMPREPLY=()
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "${options[*]//=/}" -- "$cur")
    return
  fi
  if [ "${#subcommands[@]}" -gt 0 ]; then
    mapfile -t COMPREPLY < <(compgen -W "${subcommands[*]}" -- "$cur")
    return
  fi
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

complete -F _gdmap gdmap
