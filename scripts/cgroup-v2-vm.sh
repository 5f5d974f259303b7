#!/usr/bin/env bash
# Runs the sandbox's hostile checks on a real cgroup v2 kernel, for developers whose machine
# has cgroup v1 (the project's own machines do; most users' machines have v2).
#
# It boots Debian 12's kernel (6.1) in QEMU with a tiny initramfs, shares /usr, /etc, /root
# and this checkout read-only over 9p, mounts cgroup2 with the memory, pids and cpu
# controllers, and runs `sudojudge run --json` on programs of tests/hostile/ whose verdict
# does not depend on speed (QEMU without KVM is 10-50x slower, so time-sensitive
# integration tests are not run here; KVM inside this project's own VMs does not boot). A fork
# bomb may end on either limit, as on v1 (docs/sandbox.md). Each line `CHECK name expected got` is compared on the
# host; afterwards the guest must hold no sudojudge cgroup but the parent, no process of a
# slot uid and no box folder. Exit 0 when everything matches.
#
# Needs root, `cargo build --release` done, and Debian's package registry (qemu-system-x86,
# busybox-static, cpio, linux-image-amd64). Takes about 5 minutes on a 2-core machine.
#   bash scripts/cgroup-v2-vm.sh            # WORK=/tmp/sudojudge-v2-vm by default
set -euo pipefail
cd "$(dirname "$0")/.."
PROJECT=$(pwd)
WORK=${WORK:-/tmp/sudojudge-v2-vm}
mkdir -p "$WORK"

[ -x target/release/sudojudge ] || { echo "build first: cargo build --release" >&2; exit 2; }
if ! command -v qemu-system-x86_64 >/dev/null || [ ! -x /bin/busybox ] || ! command -v cpio >/dev/null; then
  apt-get install -y -qq qemu-system-x86 busybox-static cpio >/dev/null
fi

# The kernel and the modules the initramfs needs (virtio, 9p).
if [ ! -d "$WORK/kernel/boot" ]; then
  pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
  (cd "$WORK" && apt-get download "$pkg" 2>/dev/null && dpkg -x "$pkg"_*.deb kernel)
fi
vmlinuz=$(ls "$WORK"/kernel/boot/vmlinuz-* | head -1)
moddir=$(ls -d "$WORK"/kernel/lib/modules/*/kernel | head -1)
declare -A seen=()
modules=()
add_module() { # depth-first, so dependencies load first
  local file
  file=$(find "$moddir" -name "$1.ko" | head -1)
  [ -n "$file" ] || { echo "module $1 not found" >&2; exit 2; }
  [ -z "${seen[$1]:-}" ] || return 0
  seen[$1]=1
  local dep
  for dep in $(strings "$file" | sed -n 's/^depends=//p' | head -1 | tr ',' ' '); do
    add_module "$dep"
  done
  modules+=("$1")
}
add_module virtio_pci
add_module 9pnet_virtio
add_module 9p

# The initramfs: loads the modules, builds a tmpfs root (pivot_root refuses the initramfs
# itself), mounts the 9p shares and hands over to the guest script.
ird="$WORK/initramfs"
rm -rf "$ird"
mkdir -p "$ird/mods"
cp /bin/busybox "$ird/busybox"
for m in "${modules[@]}"; do cp "$(find "$moddir" -name "$m.ko" | head -1)" "$ird/mods/"; done
cat > "$ird/init" <<EOF
#!/busybox sh
B=/busybox
\$B mkdir -p /proc /sys /dev /nr
\$B mount -t proc proc /proc
\$B mount -t sysfs sys /sys
\$B mount -t devtmpfs dev /dev
for m in ${modules[*]}; do \$B insmod /mods/\$m.ko || echo "insmod \$m failed"; done
\$B mount -t tmpfs -o size=64m,mode=755 tmpfs /nr
for d in proc sys dev tmp usr etc root project vm; do \$B mkdir /nr/\$d; done
for l in bin lib lib64 sbin; do \$B ln -s usr/\$l /nr/\$l; done
\$B cp /busybox /nr/busybox
for t in usr etc root project vm; do
  \$B mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 \$t /nr/\$t || echo "9p \$t failed"
done
\$B mount -t tmpfs -o size=4g,mode=1777 tmpfs /nr/tmp
\$B umount /proc /sys
\$B mount --move /dev /nr/dev
exec \$B switch_root /nr /busybox sh -c '/busybox mount -t proc proc /proc; /busybox mount -t sysfs sys /sys; exec /busybox sh /vm/guest.sh'
EOF
chmod +x "$ird/init"
(cd "$ird" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$WORK/initrd.gz")

# The guest's checks. Compiles get generous limits (the emulated CPU is slow).
printf '[compile]\ntime_limit_ms = 300000\nwall_limit_ms = 400000\n' > "$WORK/slow-compile.toml"
for n in 180 200 220; do echo "$n" > "$WORK/in$n"; done
cat > "$WORK/guest.sh" <<'EOF'
#!/busybox sh
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mount -t cgroup2 none /sys/fs/cgroup
ip link set lo up
echo "+memory +pids +cpu" > /sys/fs/cgroup/cgroup.subtree_control
echo "GUEST kernel $(uname -r), controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
cd /project
S=./target/release/sudojudge
H=tests/hostile
check() {
  name=$1 expected=$2; shift 2
  out=$($S --config /vm/slow-compile.toml run --json "$@" 2>&1)
  got=$(echo "$out" | sed -n 's/.*"status":"\([a-z_]*\)".*/\1/p')
  kib=$(echo "$out" | sed -n 's/.*"memory_kib":\([0-9]*\).*/\1/p')
  echo "CHECK $name $expected ${got:-none} ${kib:-0}"
  [ -n "$got" ] || echo "$out" | head -c 600
}
$S doctor | sed 's/^/GUEST /'
check membomb-64MiB memory_limit $H/membomb.c --memory-limit 64 --time-limit 30000
check touch-200-of-512MiB ok $H/touch_mem.c --stdin /vm/in200 --memory-limit 512 --time-limit 30000
check touch-180-of-200MiB ok $H/touch_mem.c --stdin /vm/in180 --memory-limit 200 --time-limit 30000
check touch-220-of-200MiB memory_limit $H/touch_mem.c --stdin /vm/in220 --memory-limit 200 --time-limit 30000
check busy-loop time_limit $H/busy.c --time-limit 1000
check eight-threads time_limit $H/threads.c --time-limit 1000
check sleeper time_limit $H/sleep.c --time-limit 1000
check output-flood output_limit $H/flood.c --time-limit 10000
check setsid-grandchild ok $H/detach.c --time-limit 10000
check fork-bomb time_limit/memory_limit $H/forkbomb.c --time-limit 3000
check segfault runtime_error $H/segv.c --time-limit 10000
check python-membomb memory_limit $H/membomb.py --memory-limit 64 --time-limit 60000
check urandom-include compile_error $H/urandom_include.c
# The program starts in its run's own cgroup (clone3(CLONE_INTO_CGROUP), seen by strace;
# its first action reads /proc/self/cgroup: a run's cgroup is named slot<N>-<pid>-<i>-<seq>).
out=$(strace -f -qq -e trace=clone3 -o /tmp/clone3.trace $S --config /vm/slow-compile.toml run --json $H/own_cgroup.c --time-limit 10000 2>&1)
cg=$(echo "$out" | sed -n 's/.*"stdout":"\([^"]*\)".*/\1/p' | sed 's/\\n$//')
case "$cg" in
  */slot[0-9]*-[0-9]*-[0-9]*-[0-9]*) echo "CHECK first-instruction-cgroup per-run per-run 0" ;;
  *) echo "CHECK first-instruction-cgroup per-run ${cg:-none} 0"; echo "$out" | head -c 600 ;;
esac
into=$(grep -c 'CLONE_INTO_CGROUP' /tmp/clone3.trace || true)
refused=$(grep -c 'clone3.*= -1' /tmp/clone3.trace || true)
echo "CHECK clone3-into-cgroup yes $([ "${into:-0}" -gt 0 ] && [ "${refused:-0}" = 0 ] && echo yes || echo no) 0"
[ "${refused:-0}" = 0 ] || grep 'clone3' /tmp/clone3.trace | head -5
echo "LEFT cgroups $(find /sys/fs/cgroup -mindepth 2 -type d -path '*sudojudge*' | tr '\n' ' ')"
echo "LEFT processes $(ps -eo uid= | awk '$1 >= 1879048192' | wc -l)"
echo "LEFT boxes $(ls /tmp/sudojudge-boxes 2>/dev/null | tr '\n' ' ')"
echo "GUEST DONE"
echo o > /proc/sysrq-trigger
EOF

log="$WORK/console.log"
timeout 1500 qemu-system-x86_64 -cpu max -m 6G -smp 2 -nographic -no-reboot \
  -kernel "$vmlinuz" -initrd "$WORK/initrd.gz" -nic none \
  -append "console=ttyS0 quiet panic=-1 cgroup_no_v1=all" \
  -virtfs local,path=/usr,mount_tag=usr,security_model=passthrough,readonly=on \
  -virtfs local,path=/etc,mount_tag=etc,security_model=passthrough,readonly=on \
  -virtfs local,path=/root,mount_tag=root,security_model=passthrough,readonly=on \
  -virtfs "local,path=$PROJECT,mount_tag=project,security_model=passthrough,readonly=on" \
  -virtfs "local,path=$WORK,mount_tag=vm,security_model=passthrough,readonly=on" \
  > "$log" 2>&1 || true
tr -d '\r' < "$log" | grep -E '^(GUEST|CHECK|LEFT)' || true

fail=0
grep -q '^GUEST DONE' <(tr -d '\r' < "$log") || { echo "the guest did not finish; see $log"; exit 1; }
while read -r _ name expected got kib; do
  # `expected` may list several statuses, separated by slashes.
  case "/$expected/" in
    *"/$got/"*) ;;
    *) echo "FAIL $name: expected $expected, got $got"; fail=1 ;;
  esac
  case $name in
    touch-200-of-512MiB)
      if [ "$kib" -lt $((180 * 1024)) ] || [ "$kib" -gt $((220 * 1024)) ]; then
        echo "FAIL $name: measured $kib KiB, not within 10% of 200 MiB"; fail=1
      fi ;;
  esac
done < <(tr -d '\r' < "$log" | grep '^CHECK ')
while read -r _ what rest; do
  case $what in
    processes) [ "$rest" = 0 ] || { echo "FAIL $rest boxed processes left"; fail=1; } ;;
    *) [ -z "$rest" ] || { echo "FAIL $what left: $rest"; fail=1; } ;;
  esac
done < <(tr -d '\r' < "$log" | grep '^LEFT ')
[ "$fail" = 0 ] && echo "cgroup v2: every check as expected" || exit 1
