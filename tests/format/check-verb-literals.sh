#!/usr/bin/env bash
# check-verb-literals.sh SOURCE_DIR: fails naming each place outside an area's verbs header
# (core/<area>/verbs.{h,cpp}) that spells a helper verb's name as a string literal, or that
# reads a JSON member by a literal key in the programs (app/, cli/, helper/): requests,
# results and events are read through their area's typed fromJson (DESIGN.md: "the helper, the
# CLI and the GUI use those, never string literals"). Comments are not code and are skipped.
# The allowlist names the reads that are not of a verb's JSON, with why; it can only shrink: a
# listed line that no longer matches fails too, until it is deleted.
set -euo pipefail
cd "$1"

programs=()
for dir in app cli helper; do
    [ -d "$dir" ] && programs+=("$dir")
done
[ -d core ] && [ ${#programs[@]} -gt 0 ] || { echo "no source directories found in $1"; exit 1; }

# file:code with comments removed (// to the end of the line; block comments are not used).
code_of() {
    find "$@" -type f \( -name '*.cpp' -o -name '*.h' \) -not -path 'core/*/verbs.h' \
        -not -path 'core/*/verbs.cpp' -print0 | sort -z |
        xargs -0 -r awk '{ line = $0; sub(/\/\/.*$/, "", line); print FILENAME ":" FNR ": " line }'
}

status=0
mapfile -t verbs < <(grep -ho 'kVerb[A-Za-z]* = "[a-z]*\.[a-z_.]*"' core/*/verbs.h | grep -o '"[^"]*"')
[ ${#verbs[@]} -gt 10 ] || { echo "found only ${#verbs[@]} verb names in core/*/verbs.h"; exit 1; }
code=$(code_of core "${programs[@]}")
for verb in "${verbs[@]}"; do
    hits=$(grep -F -- "$verb" <<<"$code" || true)
    if [ -n "$hits" ]; then
        echo "the verb name $verb is spelled outside its verbs header (use its kVerb constant):"
        sed 's/^/    /' <<<"$hits"
        status=1
    fi
done

# path <TAB> the key read <TAB> why it is not a verb's JSON
allowlist="$(printf '%s\t%s\t%s\n' \
    cli/health_commands.cpp '"health"' \
    "health status --json picks parts of smart::toJson(DriveHealth), the CLI's own output" \
    cli/health_commands.cpp '"self_test"' \
    "health status --json picks parts of smart::toJson(DriveHealth), the CLI's own output" \
    helper/helper_service.cpp '"device"' \
    "the polkit dialog's device detail, read from any verb's arguments before the verb parses them")"
# A read: .value("k", .at("k"), .contains("k"), or ["k"] that is not assigned to.
key_read='\.(value|at|contains|find)\("[A-Za-z_]+"|\["[A-Za-z_]+"\](?!\s*=[^=])'
reads=$(code_of "${programs[@]}" | grep -P "$key_read" || true)
declare -A seen=()
while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    file=${hit%%:*}
    key=$(grep -oP "$key_read" <<<"${hit#*: }" | head -1 | grep -oE '"[A-Za-z_]+"')
    allowed=
    while IFS=$'\t' read -r path listed _; do
        if [ "$path" = "$file" ] && [ "$listed" = "$key" ]; then
            allowed=1
            seen["$path $listed"]=1
        fi
    done <<<"$allowlist"
    if [ -z "$allowed" ]; then
        echo "a JSON member read by a literal key outside the verbs headers (read it through"
        echo "its area's typed fromJson):"
        echo "    $hit"
        status=1
    fi
done <<<"$reads"
while IFS=$'\t' read -r path listed _; do
    [ -n "$path" ] || continue
    if [ -z "${seen["$path $listed"]:-}" ]; then
        echo "$path $listed is on the allowlist of $0 but is not read there (any more):"
        echo "    delete its line"
        status=1
    fi
done <<<"$allowlist"

if [ $status -eq 0 ]; then
    echo "${#verbs[@]} verb names, each spelled only in its verbs header; no JSON member read" \
        "by a literal key in ${programs[*]} ($(grep -c . <<<"$allowlist" || true) allowlisted)"
fi
exit $status
