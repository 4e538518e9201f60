#!/usr/bin/env python3
"""Seed the fuzz corpora from real QEMU boots (docs/fuzzing.md).

Boots build/kernel.bin with `selftest=acpi_dump` (tests/guest/acpi_dump_tests.c)
in a few shapes through tools/boot, reads the hex dumps between the
`# dump_begin` / `# dump_end` lines and writes seed inputs in the formats the
harnesses read (tests/host/fuzz/fuzz_*.c):

  corpus/acpi/boot-SHAPE[-find|-fix|-cap4]   RSDP + the root table and every
      table it lists, at their real physical addresses
  corpus/bootinfo/boot-SHAPE                 the multiboot information
  corpus/cmdline/...                         the command lines of the boots,
      of the boot matrix (tests/boot/run_tests.py) and of docs/cmdline.md
  *-derived                                  real data changed to reach what
      QEMU never gives (XSDT, x2APIC, >64 SLIT localities, more entries than
      kept, over-long command lines): see docs/fuzzing.md

What the loader handed over is partly reused as memory before the self-tests
run: QEMU's multiboot1 command line (the information structure and memory map
survive: dumped as they are, the command line put back from the `# boot` line),
and GRUB's whole multiboot2 structure (rebuilt in GRUB 2.06's tag order from the
memory map and RSDP the kernel kept).  The seeds say which in their name.

Run it after changing the dump or the formats: `make fuzz-seeds`.
"""
import argparse
import hashlib
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CORPUS = os.path.join(HERE, "corpus")
BOOT = os.path.join(ROOT, "tools", "boot")

NUMA8 = ":".join("%d-%d" % (8 * n, 8 * n + 7) for n in range(8))


def dist(nodes):
    """QEMU arguments for a SLIT: 10 + 10 * how far apart two node numbers are."""
    args = []
    for i in range(nodes):
        for j in range(i + 1, nodes):
            args += ["-numa", "dist,src=%d,dst=%d,val=%d" % (i, j, 10 + 10 * (j - i))]
    return args


SHAPES = [
    ("smp1", ["--smp", "1"]),
    ("smp8-2n", ["--smp", "8", "--numa", "0-3:4-7"]),
    ("smp16-4n-smt2-slit", ["--smp", "16,sockets=4,cores=2,threads=2",
                            "--numa", "0-3:4-7:8-11:12-15", "--"] + dist(4)),
    ("smp64-8n-slit", ["--smp", "64", "--numa", NUMA8, "--mem", "512M", "--"] + dist(8)),
    ("smp2-mem5g", ["--smp", "2", "--mem", "5G"]),
    ("iso-smp8-2n", ["--iso", "--smp", "8", "--numa", "0-3:4-7"]),
]
CMDLINE = "selftest=acpi_dump"
CPUS_CAP = 600          # fuzz_acpi.c's FUZZ_MAX_CPUS: every CPU stored

MB1_MAGIC, MB2_MAGIC = 0x2BADB002, 0x36D76289


def boot(name, args, timeout):
    cmd = [sys.executable, BOOT, "--timeout", str(timeout), "--cmdline", CMDLINE] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=timeout + 120)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        sys.exit("seed_from_boot: %s: tools/boot exit %d\n%s\n%s" %
                 (name, p.returncode, out[-2000:], p.stderr.decode()[-2000:]))
    return out


def parse_dump(out):
    """Return (blocks: list of (name, phys, bytes, attrs), info: dict, regions, cmdline)."""
    blocks, info, regions, cmdline = [], {}, [], None
    cur = None
    for line in out.splitlines():
        line = line.strip()
        m = re.match(r"# dump_begin name=(\S+) phys=0x([0-9a-f]+) len=(\d+)(.*)$", line)
        if m:
            attrs = dict(kv.split("=", 1) for kv in m.group(4).split())
            cur = [m.group(1), int(m.group(2), 16), int(m.group(3)), bytearray(), attrs]
            continue
        m = re.match(r"# dump_hex ([0-9a-f]*)$", line)
        if m and cur:
            cur[3] += bytes.fromhex(m.group(1))
            continue
        m = re.match(r"# dump_end name=(\S+)$", line)
        if m and cur:
            if m.group(1) != cur[0] or len(cur[3]) != cur[2]:
                sys.exit("seed_from_boot: bad dump block %s" % cur[0])
            blocks.append((cur[0], cur[1], bytes(cur[3]), cur[4]))
            cur = None
            continue
        m = re.match(r"# dump_info region=\d+ base=0x([0-9a-f]+) len=0x([0-9a-f]+) type=(\d+)$",
                     line)
        if m:
            regions.append((int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))))
            continue
        m = re.match(r"# dump_info (.*)$", line)
        if m:
            for kv in m.group(1).split():
                k, _, v = kv.partition("=")
                info[k] = v
            continue
        m = re.match(r'# boot proto=multiboot\d cmdline="(.*)" ', line)
        if m:
            cmdline = m.group(1)
    return blocks, info, regions, cmdline


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- acpi: fuzz_acpi.c's format ----

def acpi_seeds(shape, blocks, info):
    rsdp = next(b for b in blocks if b[0] == "RSDP")
    tables = [b for b in blocks
              if b[0] not in ("RSDP", "BIOS_RSDP", "MBI") and not b[0].startswith("MB1_")]
    lo = min(b[1] for b in tables)
    hi = max(b[1] + len(b[2]) for b in tables)
    image = bytearray(hi - lo)
    for _, phys, data, _ in tables:
        image[phys - lo:phys - lo + len(data)] = data
    rsdp_bytes = rsdp[2].ljust(36, b"\0")
    rsdp_phys = int(info["rsdp_phys"], 16)
    ebda = int(info["ebda_seg"], 16)
    slot = (rsdp_phys - 0xE0000) // 16

    def seed(flags, cap, rsdp_len=len(rsdp[2])):
        return struct.pack("<BBHHHQ", flags, rsdp_len, cap, slot, ebda, lo) + \
            rsdp_bytes + bytes(image)
    write("acpi", "boot-%s" % shape, seed(0, CPUS_CAP))
    names = [b[0] for b in tables]
    if "SRAT" in names:
        write("acpi", "boot-%s-xsdt-x2apic-derived" % shape,
              relocated(tables, lo, image, rsdp_bytes, slot, ebda, x2apic()))
        write("acpi", "boot-%s-xsdt-crowded-derived" % shape,
              relocated(tables, lo, image, rsdp_bytes, slot, ebda, crowded))
    if "SLIT" in names:
        write("acpi", "boot-%s-xsdt-x2apic-slit70-derived" % shape,
              relocated(tables, lo, image, rsdp_bytes, slot, ebda, x2apic(slit_n=70)))
    write("acpi", "boot-%s-fix" % shape, seed(2, CPUS_CAP))
    write("acpi", "boot-%s-find" % shape, seed(3, CPUS_CAP))
    write("acpi", "boot-%s-cap4" % shape, seed(0, 4))
    return len(image)


def checksum(t, at):
    t[at] = 0
    t[at] = -sum(t) & 0xff
    return t


def relocated(tables, lo, image, rsdp, slot, ebda, transform):
    """A seed whose tables @transform(name, data) rewrites (None: keep) are
    placed after the image, behind a new XSDT listing every table and an
    ACPI 2.0 RSDP pointing at it."""
    image = bytearray(image)
    entries = []

    def place(t):
        image.extend(b"\0" * (-len(image) % 8))
        entries.append(lo + len(image))
        image.extend(t)

    for name, phys, data, _ in tables:
        if name in ("RSDT", "XSDT"):
            continue
        t = transform(name, data)
        if t is None:
            entries.append(phys)
            continue
        t = bytearray(t)
        struct.pack_into("<I", t, 4, len(t))
        place(checksum(t, 9))
    rsdt = next(b for b in tables if b[0] == "RSDT")[2]
    x = bytearray(b"XSDT" + rsdt[4:36]) + b"".join(struct.pack("<Q", e) for e in entries)
    struct.pack_into("<I", x, 4, len(x))
    place(checksum(x, 9))
    xsdt = entries.pop()
    r = bytearray(rsdp[:20]) + struct.pack("<IQ", 36, xsdt) + b"\0" * 4
    r[15] = 2
    r[8] = 0
    r[8] = -sum(r[:20]) & 0xff
    r[32] = 0
    r[32] = -sum(r) & 0xff
    return struct.pack("<BBHHHQ", 0, 36, CPUS_CAP, slot, ebda, lo) + bytes(r) + bytes(image)


def subtables(data, start):
    off = start
    while off + 2 <= len(data):
        ln = max(data[off + 1], 2)
        yield data[off], data[off:off + ln]
        off += ln


def x2apic(slit_n=0):
    """QEMU (7.2, TCG) never gives an XSDT or x2APIC entries below 256 CPUs:
    the MADT's local APICs become x2APIC entries (type 9) and the SRAT's CPU
    entries x2APIC affinity (type 2).  With @slit_n, the SLIT is replaced by
    one of that many localities (more than ACPI_SLIT_MAX: the kept corner)."""
    def transform(name, data):
        if name == "APIC":
            t = bytearray(data[:44])
            for typ, e in subtables(data, 44):
                if typ == 0:    # uid, id, flags -> x2APIC id, flags, uid
                    t += struct.pack("<BBHIII", 9, 16, 0, e[3],
                                     struct.unpack_from("<I", e, 4)[0], e[2])
                else:
                    t += e
            return t
        if name == "SRAT":
            t = bytearray(data[:48])
            for typ, e in subtables(data, 48):
                if typ == 0:    # domain bytes 2 and 9-11, id 3, flags 4
                    dom = e[2] | e[9] << 8 | e[10] << 16 | e[11] << 24
                    flags, = struct.unpack_from("<I", e, 4)
                    t += struct.pack("<BBHIIII", 2, 24, 0, dom, e[3], flags, 0) + b"\0" * 4
                else:
                    t += e
            return t
        if name == "SLIT" and slit_n:
            return bytearray(data[:36]) + struct.pack("<Q", slit_n) + bytes(
                10 if i == j else 20 + (i + j) % 200 for i in range(slit_n)
                for j in range(slit_n))
        return None
    return transform


def crowded(name, data):
    """More entries than the parser keeps: 10 I/O APICs (8 kept), 20
    interrupt source overrides (16), 40 SRAT memory ranges (32), and a Local
    APIC Address Override (type 5), which QEMU never gives."""
    if name == "APIC":
        t = bytearray(data)
        t += struct.pack("<BBHQ", 5, 12, 0, 0xfee00000)
        for i in range(10):
            t += struct.pack("<BBBBII", 1, 12, 10 + i, 0, 0xfec00000 + 0x1000 * i, 24 * i)
        for i in range(20):
            t += struct.pack("<BBBBIH", 2, 10, 0, i % 16, i, 0xd)
        return t
    if name == "SRAT":
        t = bytearray(data)
        for i in range(40):
            t += struct.pack("<BBIHQQIIQ", 1, 40, i % 4, 0, (4 + i) << 30, 1 << 30, 0, 1 | 2, 0)
        return t
    return None


# ---- bootinfo: fuzz_bootinfo.c's format ----

def chunk(phys, data):
    return struct.pack("<QH", phys, len(data)) + data


def bootinfo_header(sel, info_phys):
    return struct.pack("<B3xIQ", sel, 0, info_phys)


def mb1_seed(blocks, info, cmdline):
    mbi = next(b for b in blocks if b[0] == "MBI")
    phys = int(info["mbi_phys"], 16)
    out = bootinfo_header(0, phys) + chunk(mbi[1], mbi[2])
    for b in blocks:
        if b[0] == "MB1_MMAP":
            out += chunk(b[1], b[2])
    flags, = struct.unpack_from("<I", mbi[2], 0)
    have_cmdline = any(b[0] == "MB1_CMDLINE" for b in blocks)
    for b in blocks:
        if b[0] == "MB1_CMDLINE":
            out += chunk(b[1], b[2])
    if flags & 4 and not have_cmdline:
        # QEMU passes "IMAGE ARGS"; the kernel printed ARGS
        ptr, = struct.unpack_from("<I", mbi[2], 16)
        out += chunk(ptr, ("/kernel.bin " + cmdline).encode() + b"\0")
    return out, "" if have_cmdline else "-cmdline-rebuilt"


def mb2_tag(t, payload):
    tag = struct.pack("<II", t, 8 + len(payload)) + payload
    return tag + b"\0" * (-len(tag) % 8)


def mb2_rebuilt(regions, rsdp, cmdline, phys):
    """GRUB 2.06's order: load base, cmdline, loader name, meminfo, bootdev,
    mmap, ACPI (old for an ACPI 1.0 RSDP, new otherwise), end."""
    low = sum(l for b, l, t in regions if t == 1 and b < 0x100000) // 1024
    high = sum(l for b, l, t in regions if t == 1 and b >= 0x100000) // 1024
    mmap = struct.pack("<II", 24, 0) + b"".join(
        struct.pack("<QQII", b, l, t, 0) for b, l, t in regions)
    tags = (mb2_tag(21, struct.pack("<I", 0x100000)) +
            mb2_tag(1, cmdline.encode() + b"\0") +
            mb2_tag(2, b"GRUB 2.06-13+deb12u1\0") +
            mb2_tag(4, struct.pack("<II", low, high)) +
            mb2_tag(5, struct.pack("<III", 0xe0, 0xffffffff, 0xffffffff)) +
            mb2_tag(6, mmap) +
            mb2_tag(14 if len(rsdp) == 20 else 15, rsdp) +
            mb2_tag(0, b""))
    mbi = struct.pack("<II", 8 + len(tags), 0) + tags
    return bootinfo_header(1, phys) + chunk(phys, mbi)


def bootinfo_seeds(shape, blocks, info, regions, cmdline):
    phys = int(info["mbi_phys"], 16)
    if info.get("magic") == "0x%x" % MB1_MAGIC:
        if info.get("mbi") != "intact":
            sys.exit("seed_from_boot: %s: multiboot1 information clobbered" % shape)
        data, note = mb1_seed(blocks, info, cmdline)
        write("bootinfo", "boot-%s-mb1%s" % (shape, note), data)
        if shape == "smp1":     # past BOOTINFO_CMDLINE_MAX: truncation
            data, _ = mb1_seed(blocks, info, cmdline + " " + "x" * 600)
            write("bootinfo", "boot-%s-mb1-longcmdline-derived" % shape, data)
        return
    mbi = [b for b in blocks if b[0] == "MBI"]
    if mbi:
        write("bootinfo", "boot-%s-mb2" % shape,
              bootinfo_header(1, phys) + chunk(phys, mbi[0][2]))
        return
    rsdp = next(b for b in blocks if b[0] == "RSDP")[2]
    write("bootinfo", "boot-%s-mb2-rebuilt" % shape,
          mb2_rebuilt(regions, rsdp, cmdline, phys))
    # past BOOTINFO_MAX_REGIONS and BOOTINFO_CMDLINE_MAX: truncation
    write("bootinfo", "boot-%s-mb2-crowded-derived" % shape,
          mb2_rebuilt(regions * 10, rsdp, cmdline + " " + "x" * 600, phys))


# ---- cmdline ----

# Paths neither the boots, the matrix nor the docs take.
EXTRA_LINES = [
    "scenario=all_idle,busy=1",
    "scenario=one_busy,busy=0-70",
    "nohz selftest=" + "a" * 130,
    "isolcpus=0-3,8 expect_cpus=4 expect_nodes=1 clockevent=oneshot",
]


def cmdline_seeds(boot_cmdlines):
    lines = set(boot_cmdlines) | set(EXTRA_LINES)
    sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
    try:
        import run_tests
        for _, args, _, _ in run_tests.MATRIX:
            if "--cmdline" in args:
                lines.add(args[args.index("--cmdline") + 1])
    finally:
        sys.path.pop(0)
    doc = os.path.join(ROOT, "docs", "cmdline.md")
    if os.path.exists(doc):
        for m in re.finditer(r"`([a-z_]+=[^`]*)`", open(doc).read()):
            lines.add(m.group(1))
    for line in sorted(lines):
        name = "line-" + hashlib.sha1(line.encode()).hexdigest()[:12]
        write("cmdline", name, line.encode())
    return len(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", default=[], help="shape names")
    ap.add_argument("--timeout", type=int, default=180)
    a = ap.parse_args()
    cmdlines = []
    for shape, args in SHAPES:
        if a.only and shape not in a.only:
            continue
        out = boot(shape, args, a.timeout)
        blocks, info, regions, cmdline = parse_dump(out)
        n = acpi_seeds(shape, blocks, info)
        if n > 65536:
            sys.exit("seed_from_boot: %s: tables span %d bytes" % (shape, n))
        bootinfo_seeds(shape, blocks, info, regions, cmdline)
        cmdlines.append(cmdline)
        print("seed %s: %d blocks, acpi image %d bytes, mbi %s" %
              (shape, len(blocks), n, info.get("mbi")), flush=True)
    print("seed cmdline: %d lines" % cmdline_seeds(cmdlines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
