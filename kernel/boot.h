/* What kmain learned at boot, for the rest of the kernel and its tests. */
#ifndef KERNEL_BOOT_H
#define KERNEL_BOOT_H

#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"

extern struct bootinfo boot_info;
extern struct boot_options boot_opts;

#endif
