#!/bin/sh
# fake_pi.sh MODEL COMMAND...: run COMMAND where /proc/device-tree/model is MODEL (a Raspberry Pi
# model string, "Raspberry Pi 5 Model B Rev 1.0" say): how `make service-test`
# lets systemd/install.sh accept its container, which has no device tree. It only lives in a
# private mount namespace (run it under `unshare --mount --propagation private`): there /proc
# becomes a tmpfs of links to the real procfs, plus the fake model. install.sh itself is
# unchanged, and nothing outside this namespace sees the fake.
set -eu
model=$1
shift
real=/run/service-test-proc
mkdir -p "$real"
mount --rbind /proc "$real"
mount -t tmpfs -o mode=0555 service-test-proc /proc
for entry in "$real"/* "$real"/.[!.]*; do
    if [ -e "$entry" ] || [ -L "$entry" ]; then
        ln -s "$entry" "/proc/${entry##*/}"
    fi
done
mkdir /proc/device-tree
printf '%s\000' "$model" >/proc/device-tree/model
exec "$@"
