/* Test-only faults on demand (fault_test= on the command line). */
#ifndef KERNEL_FAULT_TEST_H
#define KERNEL_FAULT_TEST_H

/* Every online CPU reads an unmapped address at once; never returns. */
__attribute__((noreturn)) void fault_test_allcpus(void);

#endif
