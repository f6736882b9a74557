#!/usr/bin/env bash
# Side-by-side speed of our engine and meta_nestris (MPL-2.0, github.com/negative-seven/
# meta_nestris) over meta_nestris's own FCEUX movies, both built from their sources.
#
#   tools/bench_meta.sh [META_NESTRIS_DIR] [bench-meta args...]     time both, alternating
#                                          (--run: ours given each movie in one Game::run call)
#   tools/bench_meta.sh callgrind [META_NESTRIS_DIR]                instructions per frame
#
# META_NESTRIS_DIR (argument or environment) is a checkout of meta_nestris; nothing of it is
# committed here. Its crate asks for a 2022 nightly: it is built with our stable toolchain,
# with RUSTC_BOOTSTRAP for that crate alone and one line added to a copy of its source (the
# `ConstParamTy` derive today's compilers require of a const-generic parameter type).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
proj="$here/bench-meta"
mode=time
if [[ "${1:-}" == callgrind ]]; then
    mode=callgrind
    shift
fi
if [[ $# -gt 0 && "${1:0:1}" != - ]]; then
    META_NESTRIS_DIR="$1"
    shift
fi
dir="${META_NESTRIS_DIR:-}"
if [[ -z "$dir" || ! -f "$dir/src/lib.rs" || ! -f "$dir/tests/movies/metadata.yaml" ]]; then
    echo "meta_nestris not present (give a checkout of it as the argument or META_NESTRIS_DIR; got '${dir}'): nothing compared" >&2
    exit 1
fi

copy="$proj/target/meta_nestris"
rm -rf "$copy"
mkdir -p "$copy"
cp -r "$dir/src" "$dir/Cargo.toml" "$copy/"
# Today's compilers want the const parameter's type to derive `ConstParamTy`.
sed -i 's/^#\[derive(Clone, Debug, Eq, PartialEq)\]$/#[derive(Clone, Debug, Eq, PartialEq, core::marker::ConstParamTy)]/' "$copy/src/modifier.rs"
grep -q ConstParamTy "$copy/src/modifier.rs" || { echo "meta_nestris's modifier.rs changed: cannot build it on stable" >&2; exit 1; }

export RUSTUP_TOOLCHAIN=stable RUSTC_BOOTSTRAP=meta_nestris
cargo build --quiet --release --manifest-path "$proj/Cargo.toml"
# (Where cargo put it: its own target directory unless CARGO_TARGET_DIR says otherwise.)
bin="${CARGO_TARGET_DIR:-$proj/target}/release/bench-meta"
movies="$dir/tests/movies"

echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p')"
echo "meta_nestris: $(git -C "$dir" log -1 --format='%h %cs' 2>/dev/null || echo "$dir")"
echo "nestris: $(git -C "$here/.." log -1 --format='%h %s' | cut -c1-80)"
pin=()
if command -v taskset >/dev/null; then
    pin=(taskset -c "$(( $(nproc) - 1 ))")
    echo "pinned to core $(( $(nproc) - 1 ))"
fi

if [[ $mode == time ]]; then
    "${pin[@]}" "$bin" "$movies" "$@"
    exit
fi

command -v valgrind >/dev/null || { echo "valgrind not installed: no instruction counts" >&2; exit 1; }
out="$(mktemp -d)"
for set in tas b_type death menuing all; do
    line="$set"
    # ours a step a frame, ours given each movie in one Game::run call, meta_nestris.
    for engine in ours ours-run meta; do
        args=(--only "${engine%-run}" --set "$set")
        [[ $engine == ours-run ]] && args+=(--run)
        frames=$(valgrind --tool=callgrind --callgrind-out-file="$out/$engine-$set" \
            --toggle-collect="*play_${engine%-run}*" "$bin" "$movies" "${args[@]}" 2>/dev/null |
            sed -n 's/^frames //p')
        ir=$(sed -n 's/^summary: //p' "$out/$engine-$set")
        line="$line   $engine $(awk -v i="$ir" -v f="$frames" 'BEGIN { printf "%.1f", i / f }') instr/frame"
    done
    echo "$line   ($frames frames)"
done
rm -rf "$out"
