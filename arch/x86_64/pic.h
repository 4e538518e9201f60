#ifndef ARCH_X86_64_PIC_H
#define ARCH_X86_64_PIC_H

/* Re-base the 8259As off the exception vectors and mask every line. */
void pic_disable(void);

#endif
