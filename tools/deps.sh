#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those that are missing,
# so a prepared machine skips apt entirely. Needs root (or sudo) only when it installs.
#   build: pkg-config, ALSA (sound, via cpal) and libudev (gamepads, via gilrs)
#   tests: tmux (terminal mode), Xvfb + xdotool + xwd + ImageMagick (window screenshots)
set -euo pipefail
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists alsa 2>/dev/null || need+=(libasound2-dev)
pkg-config --exists libudev 2>/dev/null || need+=(libudev-dev)
if [ "${1:-}" = "--test" ]; then
    command -v tmux >/dev/null 2>&1 || need+=(tmux)
    command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
    command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
    command -v xwd >/dev/null 2>&1 || need+=(x11-apps)
    convert -version 2>/dev/null | grep -q ImageMagick || need+=(imagemagick)
    python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
fi
if ((${#need[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need[@]}"
fi
