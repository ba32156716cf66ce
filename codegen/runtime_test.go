package codegen

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The divider (division by a loop-invariant scalar by multiplication) agrees with the runtime's
// plain division, remainder, div and mod on edge cases (0, ±1, the extremes, powers of two) and
// on two million random pairs with divisors of every magnitude.
func TestDividerAgreesWithDivision(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := runtimeC + `
static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static long bad;
static void check(int64_t a, int64_t d) {
	if (d == 0) return;
	cnf_divider v = cnf_divider_for(d);
	if (cnf_quot_by(a, v, "q") != cnf_quot(a, d, "q") || cnf_rem_by(a, v, "r") != cnf_rem(a, d, "r") ||
	    cnf_div_by(a, v, "d") != cnf_div(a, d, "d") || cnf_mod_by(a, v, "m") != cnf_mod(a, d, "m")) {
		if (bad++ < 5) printf("differs at %lld / %lld\n", (long long)a, (long long)d);
	}
}
int main(void) {
	int64_t edge[] = {0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 641, 6700417, INT64_MAX, INT64_MIN, INT64_MIN + 1,
		INT64_MAX - 1, (int64_t)1 << 62, -((int64_t)1 << 62), ((int64_t)1 << 32) + 1, 1000000007};
	int n = sizeof edge / sizeof edge[0];
	for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) check(edge[i], edge[j]);
	for (long k = 0; k < 2000000; k++) {
		int64_t a = (int64_t)next(), d = (int64_t)next();
		check(a, d >> (next() % 64));
		check(a >> (next() % 64), d >> (next() % 64));
	}
	printf("%ld differ\n", bad);
	return bad != 0;
}
`
	runC(t, src, "0 differ")
}

// The allocator puts arrays of 4 MB and more on 2 MB-aligned blocks that a free returns for
// reuse (the same block again for the same size, a new one while it is in use), smaller ones
// and host arrays (malloc) go through malloc and free, and every byte of a block is writable.
func TestAllocatorReusesLargeBlocks(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := runtimeC + allocC + `
int main(void) {
	int64_t n = 1 << 20; /* 8 MB of Ints */
	int64_t *a = cnf_alloc(n, 8, "a"), *b = cnf_alloc(n, 8, "b");
	for (int64_t i = 0; i < n; i++) a[i] = b[i] = i;
	int ok = 1;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	ok &= ((uintptr_t)a % ((uintptr_t)2 << 20)) == 0 && a != b;
	cnf_free(a);
	int64_t *c = cnf_alloc(n, 8, "c");
	ok &= c == a;                            /* the freed block, reused */
	int64_t *d = cnf_alloc(n / 2 + 1, 8, "d"); /* 4 MB and a bit: a block of its own */
	ok &= d != a && d != b;
	cnf_free(b);
	int64_t *e = cnf_alloc(n / 2 + 1, 8, "e"); /* the smallest free block that fits: b's */
	ok &= e == b;
	cnf_free(c); cnf_free(d); cnf_free(e);
#else
	cnf_free(a); cnf_free(b);
#endif
	char *s = cnf_alloc(100, 1, "s");
	memset(s, 1, 100);
	cnf_free(s);
	char *h = malloc(10 << 20); /* as a host function returns */
	h[(10 << 20) - 1] = 1;
	cnf_free(h);
	printf("%s\n", ok ? "ok" : "wrong");
	return !ok;
}
`
	runC(t, src, "ok")
}

// runC compiles and runs a C program and checks that it prints want.
func runC(t *testing.T, src, want string) {
	t.Helper()
	exe, err := Build(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Exec(context.Background(), exe, nil)
	if err != nil || strings.TrimSpace(string(out)) != want {
		t.Fatalf("%v\n%s", err, out)
	}
}

// The streaming stores' threshold is the level-3 cache's size as Linux's sysfs says it (the
// first cache of cpu0 whose level is 3), not glibc's sysconf, which said ten times the L3 on a
// VM; the runtime reads it so (cnf_l3_bytes) and cnf_stream_worth streams from it on.
func TestLastLevelCacheFromSysfs(t *testing.T) {
	var want int64
	for i := 0; i < 16 && want == 0; i++ {
		dir := fmt.Sprintf("/sys/devices/system/cpu/cpu0/cache/index%d/", i)
		level, err := os.ReadFile(dir + "level")
		if err != nil {
			break
		}
		if strings.TrimSpace(string(level)) != "3" {
			continue
		}
		size, err := os.ReadFile(dir + "size")
		if err != nil {
			break
		}
		s := strings.TrimSpace(string(size))
		mult := int64(1)
		switch {
		case strings.HasSuffix(s, "K"):
			mult, s = 1<<10, strings.TrimSuffix(s, "K")
		case strings.HasSuffix(s, "M"):
			mult, s = 1<<20, strings.TrimSuffix(s, "M")
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%ssize: %q", dir, size)
		}
		want = v * mult
	}
	if want == 0 {
		t.Skip("no level-3 cache in sysfs here")
	}
	t.Setenv("CNF_CACHE", t.TempDir())
	src := runtimeC + fmt.Sprintf(`
int main(void) {
	const long l3 = cnf_l3_bytes();
	int ok = l3 == %dL;
#if defined(__AVX512F__) || defined(__AVX__)
	ok &= !cnf_stream_worth(l3 - 1) && cnf_stream_worth(l3);
#endif
	printf("%%s %%ld\n", ok ? "ok" : "wrong", l3);
	return !ok;
}
`, want)
	runC(t, src, fmt.Sprintf("ok %d", want))
}

// A streamed loop's blocks hold at most 4 KB of each output and 16 KB of all (cnf_stream_step),
// a multiple of 64 elements, never more than the buffers' block nor fewer than 64.
func TestStreamStepKeepsBlocksSmall(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := runtimeC + `
int main(void) {
	struct { int64_t elem, row, block, want; } c[] = {
		{8, 8, 1024, 512},    /* one output of Ints: 4 KB */
		{8, 16, 1024, 512},   /* two: 8 KB a block in all */
		{8, 24, 1024, 512},   /* three: 4 KB of each */
		{8, 56, 1024, 256},   /* seven: 16 KB at most, 292 rounded down to 256 */
		{8, 40, 1024, 384},   /* five: 409 rounded down to 384 */
		{1, 1, 1024, 1024},   /* Bools: the buffers' block */
		{16, 16, 1024, 256},  /* pairs */
		{8, 4096, 1024, 64},  /* many outputs: never fewer than 64 */
		{8, 8, 256, 256},     /* a smaller block */
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int64_t got = cnf_stream_step(c[i].elem, c[i].row, c[i].block);
		if (got != c[i].want) {
			printf("step(%lld, %lld, %lld) = %lld, want %lld\n", (long long)c[i].elem, (long long)c[i].row, (long long)c[i].block, (long long)got, (long long)c[i].want);
			bad++;
		}
	}
	printf("%d wrong\n", bad);
	return bad != 0;
}
`
	runC(t, src, "0 wrong")
}

// A loop that moves more than the cache learns its stores on its first calls: streaming and
// plain in turn, cnf_stream_tries each, then the faster by its fastest call, streaming where
// they are within 3%; it learns again on another number of threads; a loop below the cache
// writes plain stores and one under CNF_STREAM_MIN's fixed rule streams without learning.
func TestLoopsLearnTheirStores(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := runtimeC + `
static int bad;
static void want(const char *what, int got, int w) {
	if (got != w) { printf("%s: %d, want %d\n", what, got, w); bad++; }
}
/* learn runs a loop's learning calls, streaming ones taking s seconds and plain ones p. */
static void learn(cnf_tune *t, double s, double p) {
	for (int k = 0; k < 2 * cnf_stream_tries; k++) {
		const int pick = cnf_stream_pick(t, 1000);
		want("learning call", pick, 2 | (k % 2 == 0));
		cnf_stream_took(t, pick, 1000, cnf_now() - ((pick & 1) ? s : p) - 0.01 * k);
	}
}
int main(void) {
#if defined(__AVX512F__) || defined(__AVX__)
	cnf_stream_min = 100;
	cnf_threads = 1;
	cnf_tune slow = {0}, fast = {0}, tie = {0}, small = {0}, fixed = {0};
	learn(&slow, 2.0, 1.0);
	want("unsettled while learning", cnf_stream_unsettled, 1);
	want("streaming slower: plain", cnf_stream_pick(&slow, 1000), 0);
	want("and it stays", cnf_stream_pick(&slow, 1000), 0);
	learn(&fast, 1.0, 2.0);
	want("streaming faster: streaming", cnf_stream_pick(&fast, 1000), 1);
	learn(&tie, 1.02, 1.0);
	want("within 3%: streaming", cnf_stream_pick(&tie, 1000), 1);
	cnf_threads = 2;
	want("other threads: learning again", cnf_stream_pick(&slow, 1000), 3);
	want("below the cache: plain", cnf_stream_pick(&small, 99), 0);
	cnf_stream_fixed = 1;
	want("a fixed rule: streaming", cnf_stream_pick(&fixed, 1000), 1);
	want("a fixed rule, below: plain", cnf_stream_pick(&fixed, 99), 0);
#endif
	printf("%d wrong\n", bad);
	return bad != 0;
}
`
	runC(t, src, "0 wrong")
}
