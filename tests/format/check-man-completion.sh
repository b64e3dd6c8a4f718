#!/usr/bin/env bash
# The man pages and shell completions written by scripts/gen-cli-docs (target ssdk-cli-docs)
# against the ssdkeeperctl of the same build, and the AppStream metainfo:
# - every command `ssdkeeperctl [PATH] --help` lists, and every option of it, has its section
#   in ssdkeeperctl(1) and its entry in the bash and zsh completions;
# - groff and man render both pages without a warning;
# - the bash completion, sourced in bash and called as bash calls it, and the zsh one, parsed by
#   zsh -n and asked the same questions, complete what they should;
# - appstreamcli validate finds no error or warning in the metainfo, whose id is the desktop
#   entry's and which has a release of this version.
# Usage: check-man-completion.sh SOURCE_DIR BUILD_DIR VERSION
set -euo pipefail
src=${1:?usage: check-man-completion.sh SOURCE_DIR BUILD_DIR VERSION}
build=${2:?usage: check-man-completion.sh SOURCE_DIR BUILD_DIR VERSION}
version=${3:?usage: check-man-completion.sh SOURCE_DIR BUILD_DIR VERSION}
ctl=$build/bin/ssdkeeperctl
docs=$build/cli-docs
man_ctl=$docs/ssdkeeperctl.1
bash_completion=$docs/ssdkeeperctl.bash
zsh_completion=$docs/_ssdkeeperctl
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for file in "$ctl" "$man_ctl" "$bash_completion" "$zsh_completion"; do
  [[ -f $file ]] || { echo "FAIL: $file is missing: build the targets ssdkeeperctl and ssdk-cli-docs"; exit 1; }
done
for tool in groff man zsh appstreamcli; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing: run scripts/setup"; exit 1; }
done

# --- every command and option of the CLI is in the man page and both completions -----------
# CLI11's help: entries of "Subcommands:" and "Options:" (an option group's are indented more).
subcommands_of() { "$ctl" "$@" --help | awk '/^Subcommands:/ {on = 1; next} /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}'; }
options_of() {
  "$ctl" "$@" --help | awk '/^Positionals:|^Subcommands:/ {on = 0} /Options:$/ {on = 1; next}
    on && /^ +-/ {n = split($1, names, ","); for (i = 1; i <= n; i++) if (names[i] != "-h" && names[i] != "--help") print names[i]}'
}
commands=0
walk() {
  local path=$*
  if [[ -n $path ]]; then
    commands=$((commands + 1))
    local section
    section=$(awk -v head=".SS \"$path\"" '$0 == head {on = 1; next} /^\.S[SH] / {on = 0} on' "$man_ctl")
    [[ -n $section ]] || fail "ssdkeeperctl.1 has no section for '$path'"
    grep -qF "_ssdkeeperctl_subcommands['ssdkeeperctl $path']=" "$bash_completion" ||
      fail "the bash completion does not know '$path'"
    grep -qF "_ssdkeeperctl_subcommands+=('ssdkeeperctl $path' " "$zsh_completion" ||
      fail "the zsh completion does not know '$path'"
    local option
    for option in $(options_of "$@"); do
      grep -qF "\\fB${option//-/\\-}\\fR" <<<"$section" || fail "ssdkeeperctl.1 lacks $option of '$path'"
      grep -qE "^_ssdkeeperctl_options\['ssdkeeperctl $path'\]='([^']* )?$option( |')" "$bash_completion" ||
        fail "the bash completion lacks $option of '$path'"
      grep -qE "^_ssdkeeperctl_options\+=\('ssdkeeperctl $path' '([^']* )?$option( |')" "$zsh_completion" ||
        fail "the zsh completion lacks $option of '$path'"
    done
  fi
  local sub key="ssdkeeperctl${path:+ $path}"
  for sub in $(subcommands_of "$@"); do
    # The parent offers it: what the completions walk down from.
    grep -qE "^_ssdkeeperctl_subcommands\['$key'\]='([^']* )?$sub( |')" "$bash_completion" ||
      fail "the bash completion does not offer '$sub' after '$key'"
    grep -qE "^_ssdkeeperctl_subcommands\+=\('$key' '([^']* )?$sub( |')" "$zsh_completion" ||
      fail "the zsh completion does not offer '$sub' after '$key'"
    walk "$@" "$sub"
  done
}
walk
for option in $(options_of); do
  grep -qF "\\fB${option//-/\\-}\\fR" "$man_ctl" || fail "ssdkeeperctl.1 lacks the global option $option"
done
((commands >= 40)) || fail "only $commands commands found in ssdkeeperctl --help: is the help parsed?"
((failures > 0)) || echo "$commands commands of ssdkeeperctl --help checked in the man page and both completions"

before=$failures
# --- the pages render without warnings -------------------------------------------------------
pages=("$man_ctl")
[[ -f $docs/ssdkeeper.1 ]] && pages+=("$docs/ssdkeeper.1")
for page in "${pages[@]}" "${pages[@]/%/.gz}"; do
  [[ -f $page ]] || { fail "$page is missing"; continue; }
  if [[ $page != *.gz ]]; then
    out=$(groff -man -ww -z "$page" 2>&1) || fail "groff fails on $page: $out"
    [[ -z $out ]] || fail "groff warns on $page: $out"
  fi
  out=$(MANWIDTH=80 man -l --warnings "$page" 2>&1 >/dev/null) || fail "man -l fails on $page: $out"
  [[ -z $out ]] || fail "man -l warns on $page: $out"
  for heading in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' FILES 'SEE ALSO'; do
    MANWIDTH=80 man -l "$page" 2>/dev/null | grep -qx "$heading" || fail "$page has no $heading section"
  done
done
MANWIDTH=80 man -l "$man_ctl" | grep -qx COMMANDS || fail "ssdkeeperctl.1 has no COMMANDS section"
((failures > before)) || echo "${#pages[@]} man pages render without warnings"

before=$failures
# --- bash: the completion function as bash calls it -------------------------------------------
complete_bash() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}; _ssdkeeperctl; printf "%s\n" "${COMPREPLY[@]}" | sort -u | xargs' \
    _ "$bash_completion" "$@"
}
# Asserts that completing WORDS (the last one being completed) gives exactly EXPECTED.
expect_bash() {
  local expected=$1
  shift
  local got
  got=$(complete_bash "$@" 2>&1)
  [[ $got == "$expected" ]] || fail "bash: completing '$*' gave '$got', not '$expected'"
}
expect_bash "op" ssdkeeperctl o
expect_bash "apply plan recover undo" ssdkeeperctl op ''
expect_bash "btrfs exfat ext4 ntfs vfat xfs" ssdkeeperctl format /dev/x --fs ''
expect_bash "create destroy list vm" ssdkeeperctl lab ''
expect_bash "run start status stop" ssdkeeperctl --json lab vm ''
expect_bash "write-back write-through" ssdkeeperctl cache mode /dev/x ''
expect_bash "auto kvm tcg" ssdkeeperctl lab vm start --accel ''
expect_bash "cdm consistency qd-scaling slc trim-recovery" ssdkeeperctl bench --preset ''
expect_bash "--discard-first" ssdkeeperctl format --disc
expect_bash "--json" ssdkeeperctl format /dev/x --js
expect_bash "ata-security-erase ata-security-erase-enhanced" ssdkeeperctl erase --method ata-sec
expect_bash "abort long short status" ssdkeeperctl selftest /dev/x ''
# DEV arguments: block devices as /dev paths, and lab drives by name from the state directory.
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
mkdir -p "$state/ssdkeeper/lab"
touch "$state/ssdkeeper/lab/zz-completion-test.img"
export XDG_STATE_HOME=$state
expect_bash "zz-completion-test" ssdkeeperctl info zz-
expect_bash "zz-completion-test" ssdkeeperctl lab destroy zz
some_block=$(find /sys/class/block/ -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | head -n 1)
if [[ -n $some_block ]]; then
  complete_bash ssdkeeperctl health "/dev/$some_block" | grep -qw -- "/dev/$some_block" ||
    fail "bash: health does not offer /dev/$some_block"
fi
((failures > before)) || echo "bash completion answers as expected"

before=$failures
# --- zsh: parses, and its candidates (what compadd is given, matched against the word as compadd
# does) -----------------------------------------------------------------------------------------
zsh -n "$zsh_completion" || fail "zsh -n rejects $zsh_completion"
complete_zsh() {
  zsh -fc 'source "$1"; shift; local -a reply; local REPLY
    _ssdkeeperctl_candidates $# "$@"; reply=(${(M)reply:#${@[-1]}*})
    local -a sorted=(${(ou)reply}); print -r -- "${(j: :)sorted} | $REPLY"' \
    _ "$zsh_completion" "$@"
}
expect_zsh() {
  local expected=$1
  shift
  local got
  got=$(complete_zsh "$@" 2>&1)
  [[ $got == "$expected" ]] || fail "zsh: completing '$*' gave '$got', not '$expected'"
}
expect_zsh "apply plan recover undo | " ssdkeeperctl op ''
expect_zsh "btrfs exfat ext4 ntfs vfat xfs | " ssdkeeperctl format /dev/x --fs ''
expect_zsh "run start status stop | " ssdkeeperctl lab vm ''
expect_zsh "zz-completion-test | " ssdkeeperctl lab destroy zz
expect_zsh " | file" ssdkeeperctl bench compare ''
expect_zsh " | command" ssdkeeperctl lab vm run ''
complete_zsh ssdkeeperctl info '' | grep -qw zz-completion-test || fail "zsh: info does not offer lab drives"
complete_zsh ssdkeeperctl '' | grep -qw firmware || fail "zsh: the top level does not offer firmware"
((failures > before)) || echo "zsh completion parses and answers as expected"

before=$failures
# --- AppStream metainfo ------------------------------------------------------------------------
metainfo=$src/resources/desktop/io.github.ssdkeeper.SSDKeeper.metainfo.xml
desktop=$src/resources/desktop/io.github.ssdkeeper.SSDKeeper.desktop
out=$(appstreamcli validate --no-net "$metainfo" 2>&1) || fail "appstreamcli validate: $out"
if grep -E '^(E|W):' <<<"$out"; then fail "appstreamcli validate reports errors or warnings"; fi
id=$(sed -n 's#.*<id>\(.*\)</id>.*#\1#p' "$metainfo")
[[ $(basename "$desktop" .desktop) == "$id" ]] || fail "metainfo id $id is not the desktop entry's"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
  fail "the metainfo does not launch $id.desktop"
grep -qE "<release version=\"$version\" date=\"[0-9]{4}-[0-9]{2}-[0-9]{2}\"" "$metainfo" ||
  fail "the metainfo has no dated release $version"
while read -r shot; do
  [[ -f $src/$shot ]] || fail "the metainfo shows $shot, which is not in the repository"
done < <(sed -n 's#.*<image>https://raw.githubusercontent.com/ssdkeeper/ssdkeeper/main/\(.*\)</image>.*#\1#p' "$metainfo")
((failures > before)) || echo "metainfo valid: $(grep -c '<image>' "$metainfo") screenshots, release $version"

((failures == 0)) || { echo "$failures failures"; exit 1; }
