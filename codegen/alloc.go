package codegen

// allocC is the generated code's allocator for arrays, part of every file's runtime.
//
// Small arrays come from malloc. An array of 4 MB or more lies on 2 MB pages where Linux offers
// them (transparent huge pages, madvise): a loop streaming an array on 4 KB pages misses the TLB
// every 4 KB, which cost the fused loop of bench/pipeline.cnf a third of its time
// (docs/performance.md, "Behind the code", G1). Such blocks are mapped with mmap, aligned to 2
// MB, and kept for reuse when freed: repeated calls (cnf bench's runs) then neither fault nor
// zero fresh pages. glibc's posix_memalign was tried first and did not reuse its aligned chunks:
// the heap grew by the working set on every run and each run paid for fresh huge pages
// (docs/performance.md, "Behind the code", G2).
//
// cnf_free frees any array: a block of its own table goes back to it, anything else (what
// malloc gave, including arrays host functions return) to free.
const allocC = `
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define CNF_HUGE_PAGE ((size_t)2 << 20)
#define CNF_HUGE_BLOCKS 256
/* The large blocks mapped so far: in use or free for reuse. */
typedef struct { char *p; size_t size; bool used; } cnf_block;
CNF_STATE(cnf_block cnf_blocks[CNF_HUGE_BLOCKS], );
CNF_STATE(int cnf_nblocks, );

/* cnf_huge_locked is cnf_huge for whole bytes (a multiple of the page), under the lock. */
static void *cnf_huge_locked(size_t whole) {
	int best = -1;
	for (int i = 0; i < cnf_nblocks; i++) {
		if (!cnf_blocks[i].used && cnf_blocks[i].size >= whole && (best < 0 || cnf_blocks[i].size < cnf_blocks[best].size)) best = i;
	}
	if (best >= 0) {
		cnf_blocks[best].used = true;
		return cnf_blocks[best].p;
	}
	if (cnf_nblocks == CNF_HUGE_BLOCKS) return NULL;
	char *m = mmap(NULL, whole + CNF_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) return NULL;
	char *p = (char *)(((uintptr_t)m + CNF_HUGE_PAGE - 1) & ~(uintptr_t)(CNF_HUGE_PAGE - 1));
	if (p > m) munmap(m, (size_t)(p - m));
	if (p + whole < m + whole + CNF_HUGE_PAGE) munmap(p + whole, (size_t)(m + whole + CNF_HUGE_PAGE - (p + whole)));
	madvise(p, whole, MADV_HUGEPAGE);
	cnf_blocks[cnf_nblocks].p = p;
	cnf_blocks[cnf_nblocks].size = whole;
	cnf_blocks[cnf_nblocks].used = true;
	cnf_nblocks++;
	return p;
}

/* cnf_huge allocates bytes (at least 2 pages) on huge pages, or returns NULL. */
static void *cnf_huge(size_t bytes) {
	size_t whole = (bytes + CNF_HUGE_PAGE - 1) & ~(CNF_HUGE_PAGE - 1);
	CNF_LOCK();
	void *p = cnf_huge_locked(whole);
	CNF_UNLOCK();
	return p;
}

static CNF_OUTLINED void cnf_free(void *p) {
	CNF_UNTRACK(p);
	CNF_LOCK();
	for (int i = 0; i < cnf_nblocks; i++) {
		if ((char *)p >= cnf_blocks[i].p && (char *)p < cnf_blocks[i].p + 64) { /* cnf_alloc_made's off */
			cnf_blocks[i].used = false;
			CNF_UNLOCK();
			return;
		}
	}
	CNF_UNLOCK();
	free(p);
}
#else
static void *cnf_huge(size_t bytes) { (void)bytes; return NULL; }
static CNF_OUTLINED void cnf_free(void *p) { CNF_UNTRACK(p); free(p); }
#endif

/* cnf_alloc_made allocates n elements of size bytes for the array of binding w, of which made
 * count towards the run's limit (a store slot past an array's bound, where a conditional push
 * stores before it knows whether the element counts, and the inputs are not elements the run
 * makes, as the reference interpreter counts them); a large block starts off bytes (less than
 * 64) past a 64-byte boundary (cnf_alloc_slack_at). */
static CNF_OUTLINED void *cnf_alloc_made(int64_t made, int64_t n, size_t size, const char *w, size_t off) {
	if (n < 0) n = 0;
	if (made < 0) made = 0;
	if (made > cnf_limit - cnf_made) cnf_fail(w, "the run would make more than %lld array elements, cnf run's limit", (long long)cnf_limit);
	cnf_made += made;
	if ((uint64_t)n > SIZE_MAX / size) cnf_fail(w, "cannot allocate %lld elements", (long long)n);
	size_t bytes = n == 0 ? 1 : (size_t)n * size;
	if (bytes > cnf_max_bytes) cnf_fail(w, "cannot allocate %lld elements (%lld bytes): more than %s", (long long)n, (long long)n * (long long)size, cnf_max_why);
	void *p = bytes >= ((size_t)4 << 20) && bytes < SIZE_MAX / 2 ? cnf_huge(bytes + off) : NULL;
	if (p != NULL) p = (char *)p + off;
	if (p == NULL) p = malloc(bytes);
	if (p == NULL) cnf_fail(w, "cannot allocate %lld elements (%lld bytes)", (long long)n, (long long)n * (long long)size);
	CNF_TRACK(p);
	return p;
}

/* cnf_alloc allocates n elements of size bytes for the array of binding w, all counted. */
static CNF_OUTLINED void *cnf_alloc(int64_t n, size_t size, const char *w) { return cnf_alloc_made(n, n, size, w, 0); }

/* cnf_alloc_slack allocates the n elements of an array's bound and one store slot past it. */
static CNF_OUTLINED void *cnf_alloc_slack(int64_t n, size_t size, const char *w) {
	return cnf_alloc_made(n, cnf_bound_add(n, 1, w), size, w, 0);
}

/* cnf_alloc_slack_at is cnf_alloc_slack for an array that a loop writes as it reads the array
 * at: a large block starts as far past a 64-byte boundary as at does, so that the loop's stores
 * and loads lie alike across cache lines, and one peel (cnf_peel) aligns them all. */
static CNF_OUTLINED void *cnf_alloc_slack_at(int64_t n, size_t size, const char *w, const void *at) {
	size_t off = (uintptr_t)at % 64;
	if (off % (size < 8 ? size : 8) != 0) off = 0; /* an element must stay aligned */
	return cnf_alloc_made(n, cnf_bound_add(n, 1, w), size, w, off);
}
`
