/*
 * inspect/semaphores.c - whether the kernel can set a binary's
 * semaphore for a tracer, decided from its segments as the kernel maps
 * them (--check's error, --list's remark).  Reads only what notes.c
 * gathered.
 */
#include "compiler/naming.h"
#include "inspect/inspect.h"

/* The kernel finds a uprobe's reference counter by file offset, in a
 * private writable mapping of the file (kernel/events/uprobes.c,
 * valid_ref_ctr_vma); when it is mapped after the probe is registered,
 * the first such mapping wins, and segments are mapped in order (by
 * the kernel for a program, by ld.so for a library).  A page is the
 * largest the target's kernels use. */
int binary_semaphore_trapped(const struct binary *b, unsigned long long sem,
			     struct buf *why)
{
	const struct target *tg = target_by_name(b->arch);
	unsigned long long page = tg ? tg->page : PAGE_LARGEST, off, start, end;
	int i, j;

	for (i = 0; i < b->nsegments; i++)
		if (sem >= b->segments[i].vaddr &&
		    sem - b->segments[i].vaddr < b->segments[i].filesz)
			break;
	if (b->is_object || i == b->nsegments)
		return 0;
	off = b->segments[i].offset + (sem - b->segments[i].vaddr);
	for (j = 0; j < i; j++) {
		const struct bin_segment *e = &b->segments[j];

		start = e->offset & ~(page - 1);
		end = (e->offset + e->filesz + page - 1) & ~(page - 1);
		if (!e->writable || !e->filesz || off < start || off >= end)
			continue;
		buf_printf(why,
			   "its file page (offset 0x%llx, %llu bytes) is also mapped by %s"
			   "(LOAD %d), mapped before its own and writable then",
			   off & ~(page - 1), page,
			   e->is_relro ? "the RELRO segment " : "the segment ",
			   j + 1);
		return 1;
	}
	return 0;
}
