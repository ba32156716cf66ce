package codegen

import "github.com/cnf-tools/cnf/internal/numeric"

// runtimeC is the part of every generated file that does not depend on the program: integer
// division and powers as the reference interpreter defines them (fuse's arith: division by zero
// is an error, MinInt64 / -1 wraps), comparison of Floats as the interpreter compares them (NaN
// is neither smaller nor larger, so it compares equal), Float to Int conversion as Go's on
// amd64 (NaN and out-of-range values give MinInt64), and failing with a located message.
// Generated code is compiled with -fwrapv, so Int arithmetic wraps as Go's does. Powers, exp,
// log, sin, cos and ** are internal/numeric's C, the interpreter's algorithms, not libm's.
var runtimeC = runtimeIncludes + stateC + numeric.C() + failExitC + runtimeBody

// libraryRuntimeC is runtimeC for a library (cnf build --lib): a run-time error returns from
// the entry point instead of ending the process (failLibraryC), and the state a call changes
// is the calling thread's.
var libraryRuntimeC = runtimeIncludes + stateC + numeric.C() + failLibraryC + runtimeBody

const runtimeIncludes = `#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-label"
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <math.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif
#if defined(__AVX512F__) || defined(__AVX__)
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#include <sched.h>
#endif
/* CNF_IVDEP before a blocked loop's loop over a block (codegen/blocked.go): the arrays it
 * reads and writes do not overlap. */
#if defined(__clang__)
#define CNF_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define CNF_IVDEP _Pragma("GCC ivdep")
#else
#define CNF_IVDEP
#endif
/* CNF_OUTLINED on a runtime function that a loop calls once a call of the loop, a tile or a
 * block (allocation, the team's bookkeeping, copies out): gcc inlined each at every call, and
 * compiling those copies was a third of a 100-binding program's compile time; a call costs
 * nothing beside what the function does (docs/performance.md, "Runtime calls not inlined"). */
#if defined(__GNUC__)
#define CNF_OUTLINED __attribute__((noinline))
#else
#define CNF_OUTLINED
#endif
`

// stateC defines CNF_STATE, which declares each variable of the runtime's mutable state: static
// in a file compiled alone (cnf build's C, a library); in a program that Build compiles in
// parts, in parallel (parts.go), defined in part 0 and declared in the others, so that the
// parts share one state. It is not in runtimeIncludes: the precompiled header (pch.go) holds
// those lines as compiled without CNF_PART.
const stateC = `/* CNF_STATE(declaration, initialiser) declares a variable of the runtime's mutable state:
 * static here; in a program compiled in parts (CNF_PART, codegen/parts.go), defined in part 0
 * and declared in the others. */
#if !defined(CNF_PART)
#define CNF_STATE(decl, init) static decl init
#elif CNF_PART == 0
#define CNF_STATE(decl, init) decl init
#else
#define CNF_STATE(decl, init) extern decl
#endif
`

// failExitC is how a program fails: a message on standard error and exit status 3.
const failExitC = `
#include <setjmp.h>

/* cnf_team_jump is where a failure in a chunk or tile of a team jumps back to, on the chunk's
 * own thread (codegen/parallel.go), with its message in cnf_team_message: the loop then runs
 * again on one thread, which reports the first failure in order (cnf_refail). NULL outside a
 * team. */
CNF_STATE(__thread jmp_buf *cnf_team_jump, );
CNF_STATE(__thread char cnf_team_message[1024], );

/* cnf_fail reports a run-time error at a binding and ends the program (exit status 3). */
static void cnf_fail(const char *where, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3), cold));
static void cnf_fail(const char *where, const char *fmt, ...) {
	va_list ap;
	if (cnf_team_jump) {
		int n = snprintf(cnf_team_message, sizeof cnf_team_message, "%s: ", where);
		if (n < 0 || n >= (int)sizeof cnf_team_message) n = 0;
		va_start(ap, fmt);
		vsnprintf(cnf_team_message + n, sizeof cnf_team_message - (size_t)n, fmt, ap);
		va_end(ap);
		longjmp(*cnf_team_jump, 1);
	}
	fflush(stdout);
	fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(3);
}

/* cnf_refail reports the failure that a loop run on a team of one thread caught (its message in
 * this thread's cnf_team_message), as cnf_fail outside the team would have. */
static void cnf_refail(void) __attribute__((noreturn, cold));
static void cnf_refail(void) {
	fflush(stdout);
	fputs(cnf_team_message, stderr);
	fputc('\n', stderr);
	exit(3);
}

/* cnf_limit bounds the elements a run allocates in all (cnf run --compiled sets it to the
 * reference interpreter's limit, fuse.MaxElements, and fails with its message); cnf_made
 * counts them. */
CNF_STATE(int64_t cnf_limit, = INT64_MAX);
CNF_STATE(int64_t cnf_made, );
/* cnf_max_bytes bounds one array's bytes: cnf bench's harness sets it to half of the machine's
 * memory, so that an array the data sizes past it (a generate as long as an element squared)
 * fails as an allocation, not by the kernel's out-of-memory killer after the memory is full. */
CNF_STATE(size_t cnf_max_bytes, = SIZE_MAX);
/* cnf_max_why says what set cnf_max_bytes, for the message of an array past it. */
CNF_STATE(const char *cnf_max_why, = "half of this machine's memory");
#define CNF_LOCK()
#define CNF_UNLOCK()
#define CNF_TRACK(p)
#define CNF_UNTRACK(p)
`

// failLibraryC is how a library call fails: cnf_fail writes the message into the calling
// thread's error buffer and jumps back to the entry point (which frees what the call had
// allocated and returns an error status). Everything a call changes is the calling thread's
// (cnf_call, cnf_made), except the table of large blocks, which a lock guards: calls from
// several threads at once do not share state.
const failLibraryC = `
#include <setjmp.h>
#include <pthread.h>

/* cnf_call is the state of the calling thread's call into the library: where cnf_fail jumps
 * back to, and the arrays the call has allocated and not freed (freed if it fails). */
typedef struct { jmp_buf back; void **live; int64_t nlive, cap; } cnf_call;
static __thread cnf_call cnf_this;
static __thread char cnf_message[1024];

/* cnf_team_jump is where a failure in a chunk or tile of a team jumps back to, on the chunk's
 * own thread (codegen/parallel.go), with its message in cnf_team_message: the loop then runs
 * again on a team of the caller's thread alone, which reports the first failure in order
 * (cnf_refail). NULL outside a team. */
static __thread jmp_buf *cnf_team_jump;
static __thread char cnf_team_message[sizeof cnf_message];

/* cnf_fail records a run-time error at a binding and returns from the entry point. */
static void cnf_fail(const char *where, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3), cold));
static void cnf_fail(const char *where, const char *fmt, ...) {
	va_list ap;
	char *m = cnf_team_jump ? cnf_team_message : cnf_message;
	int n = snprintf(m, sizeof cnf_message, "%s: ", where);
	if (n < 0 || n >= (int)sizeof cnf_message) n = 0;
	va_start(ap, fmt);
	vsnprintf(m + n, sizeof cnf_message - (size_t)n, fmt, ap);
	va_end(ap);
	if (cnf_team_jump) longjmp(*cnf_team_jump, 1);
	longjmp(cnf_this.back, 1);
}

/* cnf_refail returns from the entry point with the failure that a loop run on a team of the
 * caller's thread alone caught (its message in this thread's cnf_team_message). */
static void cnf_refail(void) __attribute__((noreturn, cold));
static void cnf_refail(void) {
	memcpy(cnf_message, cnf_team_message, sizeof cnf_message);
	longjmp(cnf_this.back, 1);
}

/* A library has no element limit but memory; cnf_made counts the call's elements. */
static const int64_t cnf_limit = INT64_MAX;
static const size_t cnf_max_bytes = SIZE_MAX;
static const char *const cnf_max_why = "";
static __thread int64_t cnf_made;
static pthread_mutex_t cnf_lock = PTHREAD_MUTEX_INITIALIZER;
#define CNF_LOCK() pthread_mutex_lock(&cnf_lock)
#define CNF_UNLOCK() pthread_mutex_unlock(&cnf_lock)

/* cnf_track records an array the call allocated; cnf_untrack forgets a freed one. */
static void cnf_track(void *p) {
	if (cnf_this.nlive == cnf_this.cap) {
		int64_t cap = cnf_this.cap ? 2 * cnf_this.cap : 16;
		void **live = realloc(cnf_this.live, (size_t)cap * sizeof *live);
		if (live == NULL) { free(p); snprintf(cnf_message, sizeof cnf_message, "out of memory"); longjmp(cnf_this.back, 1); }
		cnf_this.live = live;
		cnf_this.cap = cap;
	}
	cnf_this.live[cnf_this.nlive++] = p;
}
static void cnf_untrack(void *p) {
	for (int64_t i = cnf_this.nlive - 1; i >= 0; i--) {
		if (cnf_this.live[i] == p) {
			cnf_this.live[i] = cnf_this.live[--cnf_this.nlive];
			return;
		}
	}
}
#define CNF_TRACK(p) cnf_track(p)
#define CNF_UNTRACK(p) cnf_untrack(p)
`

const runtimeBody = `
/* Threads (codegen/parallel.go): a loop that can be split takes cnf_team(n) threads: at most
 * cnf_threads, none for fewer than cnf_min_chunk elements each, and one while another loop's
 * team runs (an entry called from several threads does not multiply threads). Compiled with
 * -fopenmp, chunks run on threads; without it, one after another on the caller's thread.
 * cnf_threads starts at CNF_THREADS_DEFAULT (cnf build --threads, or -D when compiling). */
#define CNF_MAX_THREADS 64
#ifndef CNF_THREADS_DEFAULT
#define CNF_THREADS_DEFAULT 1
#endif
CNF_STATE(int cnf_threads, = CNF_THREADS_DEFAULT);
CNF_STATE(int64_t cnf_min_chunk, = 16384); /* measured: docs/performance.md, "Parallel loops" */
/* cnf_min_peel: the fewest elements a loop (a team's chunk) must have to peel (cnf_peel). */
CNF_STATE(int64_t cnf_min_peel, = 4096);
CNF_STATE(int cnf_teams, );
static CNF_OUTLINED int cnf_team(int64_t n) {
	int64_t t = cnf_threads < CNF_MAX_THREADS ? cnf_threads : CNF_MAX_THREADS;
	if (cnf_min_chunk > 0 && n / cnf_min_chunk < t) t = n / cnf_min_chunk;
	if (t < 2) return 1;
	if (__atomic_fetch_add(&cnf_teams, 1, __ATOMIC_ACQ_REL) != 0) {
		__atomic_fetch_sub(&cnf_teams, 1, __ATOMIC_ACQ_REL);
		return 1;
	}
	return (int)t;
}
static void cnf_team_done(int t) {
	if (t > 1) __atomic_fetch_sub(&cnf_teams, 1, __ATOMIC_ACQ_REL);
}
static inline int cnf_thread_num(void) {
#ifdef _OPENMP
	return omp_get_thread_num();
#else
	return 0;
#endif
}
static inline int cnf_num_threads(void) {
#ifdef _OPENMP
	return omp_get_num_threads();
#else
	return 1;
#endif
}
/* cnf_tile is the elements of a tile: a team runs a loop with filtered outputs a tile at a
 * time, in order of a shared counter (codegen/parallel.go); twice the fewest a thread gets. */
static inline int64_t cnf_tile(void) { return cnf_min_chunk > 0 ? 2 * cnf_min_chunk : 32768; }
/* cnf_wait returns once another thread of the team has set *flag (with release order): the
 * tile before a thread's has published where its outputs end. It is set soon after, as tiles
 * are taken in order; after a few hundred pauses the thread yields its core. */
static CNF_OUTLINED void cnf_wait(const int *flag) {
	for (int spins = 0; !__atomic_load_n(flag, __ATOMIC_ACQUIRE); spins++) {
#if defined(__x86_64__) || defined(__i386__)
		if (spins < 256) {
			__builtin_ia32_pause();
			continue;
		}
#endif
#ifdef _OPENMP
		sched_yield();
#endif
	}
}
/* cnf_copy_out copies a tile's output from a thread's buffer (in cache) to its place in the
 * output array (in memory). Plain stores first read each line of the destination they
 * write; streaming stores do not, and a copy at the end of each tile does not overlap with the
 * loop's reads as the loop's own stores do: with memcpy a tiled filter ran 8% slower than
 * writing in place and moving afterwards (docs/performance.md, "Behind the code", P2).
 */
static CNF_OUTLINED void cnf_copy_out(void *dst, const void *src, size_t bytes) {
#if defined(__AVX512F__)
	if (bytes >= 4096) {
		const size_t head = (64 - (uintptr_t)dst % 64) % 64;
		memcpy(dst, src, head);
		char *d = (char *)dst + head;
		const char *s = (const char *)src + head;
		size_t n = bytes - head;
		for (; n >= 64; n -= 64, d += 64, s += 64) _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
		memcpy(d, s, n);
		_mm_sfence(); /* streaming stores are ordered before what follows */
		return;
	}
#endif
	memcpy(dst, src, bytes);
}
/* Streaming stores for a loop's outputs (blocked.go): a loop that moves more bytes than the
 * last-level cache holds writes each block of an output of its input's rate into a buffer (in
 * L1) and copies it out with streaming stores, which do not first read each line they write
 * as plain stores do: a loop that reads 2 arrays and writes 5 ran 1.6 times faster on one
 * thread and on two (docs/performance.md, "Streaming stores"). Below that size the outputs
 * may still be in cache for the loop that reads them, where streaming stores would evict them.
 * cnf_stream_min is that size in bytes (0 until known; CNF_STREAM_MIN sets it). Above it, a
 * loop still measures whether streaming pays on this machine (cnf_tune, below). */
CNF_STATE(int64_t cnf_stream_min, );
/* cnf_l3_bytes is the size of the level-3 cache cpu0 shares, as Linux reports it (sysfs), or
 * 0 where it does not: glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) said 320 MiB on a VM whose L3
 * is 32 MiB (the host's, or its CPUID read another way), so a loop moving 320 MB there wrote
 * plain stores and one moving 480 MB streamed, and two clusterings of one program were timed
 * under different rules (docs/performance.md, "Unseen seeds 200-204, and the last-level cache, from sysfs"). */
static long cnf_l3_bytes(void) {
#if defined(__linux__)
	for (int i = 0; i < 16; i++) {
		char path[80];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		FILE *f = fopen(path, "r");
		if (f == NULL) return 0;
		int level = 0;
		if (fscanf(f, "%d", &level) != 1) level = 0;
		fclose(f);
		if (level != 3) continue;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if ((f = fopen(path, "r")) == NULL) return 0;
		long size = 0;
		char unit = 0;
		const int got = fscanf(f, "%ld%c", &size, &unit);
		fclose(f);
		if (got < 1 || size <= 0) return 0;
		return unit == 'M' ? size << 20 : unit == 'K' ? size << 10 : size;
	}
#endif
	return 0;
}
static CNF_OUTLINED int cnf_stream_worth(int64_t bytes) {
#if defined(__AVX512F__) || defined(__AVX__)
	int64_t m = __atomic_load_n(&cnf_stream_min, __ATOMIC_RELAXED);
	if (m == 0) {
		m = (int64_t)32 << 20;
		long l3 = cnf_l3_bytes();
#if defined(_SC_LEVEL3_CACHE_SIZE)
		if (l3 <= 0) l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
		if (l3 > 0) m = l3;
		__atomic_store_n(&cnf_stream_min, m, __ATOMIC_RELAXED);
	}
	return bytes >= m;
#else
	(void)bytes;
	return 0;
#endif
}
/* cnf_tune is what a loop has learnt about its stores on this machine (cnf_stream_pick): where
 * streaming stores pay is not the cache's size alone. On the Zen 1 VM of "Streaming stores" they
 * made a loop 1.6 times faster; on a Zen 4 VM they made a loop that writes two outputs 1.4 times
 * slower and one that writes one 1.2 times faster (docs/performance.md, "Stores chosen by
 * measuring them"). So a loop that moves more bytes than the cache tries both on its first
 * calls, streaming and plain in turn (cnf_stream_tries each), and keeps the one whose fastest
 * call took less time a byte. Results are the same either way: only where the stores go
 * differs. A loop's learning starts again when the threads it runs on change. */
typedef struct { int calls, choice, threads; double best[2]; } cnf_tune;
enum { cnf_stream_tries = 2 };
/* cnf_stream_fixed is set where CNF_STREAM_MIN fixes the rule (the harnesses, the tests):
 * stream exactly the loops that move at least cnf_stream_min bytes, no learning. */
CNF_STATE(int cnf_stream_fixed, );
/* cnf_stream_unsettled is set by a call of a loop still learning its stores: cnf bench's
 * harness warms up until no loop is, so that its timed runs are of the stores kept. */
CNF_STATE(int cnf_stream_unsettled, );
static double cnf_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
/* cnf_stream_pick says how a loop moving bytes writes its outputs on this call: bit 0 set for
 * streaming stores, bit 1 set while the loop is learning which (then cnf_stream_took records
 * the call's time). */
static CNF_OUTLINED int cnf_stream_pick(cnf_tune *t, int64_t bytes) {
	if (!cnf_stream_worth(bytes)) return 0;
	if (__atomic_load_n(&cnf_stream_fixed, __ATOMIC_RELAXED)) return 1;
	CNF_LOCK();
	if (t->threads != cnf_threads) {
		t->threads = cnf_threads;
		t->calls = t->choice = 0;
	}
	int pick = t->choice;
	if (pick == 0) pick = 2 | (t->calls % 2 == 0); /* streaming first, as the rule alone would */
	else pick--;
	CNF_UNLOCK();
	if (pick & 2) __atomic_store_n(&cnf_stream_unsettled, 1, __ATOMIC_RELAXED);
	return pick;
}
/* cnf_stream_took records a learning call (pick, from cnf_stream_pick) that started at t0 and
 * moved bytes; after cnf_stream_tries calls each way the loop keeps plain stores where their
 * fastest call was faster by 3% or more (streaming stores leave the cache to other work), else
 * streaming ones. */
static CNF_OUTLINED void cnf_stream_took(cnf_tune *t, int pick, int64_t bytes, double t0) {
	const double perByte = (cnf_now() - t0) / (double)(bytes > 0 ? bytes : 1);
	CNF_LOCK();
	if (t->choice == 0 && t->threads == cnf_threads) {
		const int k = t->calls / 2, way = pick & 1;
		if (k == 0 || perByte < t->best[way]) t->best[way] = perByte;
		if (++t->calls == 2 * cnf_stream_tries) t->choice = 1 + (t->best[1] <= 1.03 * t->best[0]);
	}
	CNF_UNLOCK();
}
/* CNF_BLOCK(row) is the elements of a blocked loop's block whose buffers and inputs take row
 * bytes an element: as many as fill CNF_BLOCK_BYTES (half of a 32 KB first-level cache), a
 * multiple of 64 from 64 to 1024. Buffers of 1024 Ints each, 8 KB apart, put the same part of
 * every buffer in the same sets of that cache, and a loop of nine ran at two thirds of its
 * speed in blocks that fit (docs/performance.md, "A block that fits the cache"). */
#ifndef CNF_BLOCK_BYTES
#define CNF_BLOCK_BYTES 16384
#endif
#define CNF_BLOCK_FIT_(row) (CNF_BLOCK_BYTES / ((row) > 0 ? (row) : 1) / 64 * 64)
#define CNF_BLOCK(row) (CNF_BLOCK_FIT_(row) > 1024 ? 1024 : CNF_BLOCK_FIT_(row) < 64 ? 64 : CNF_BLOCK_FIT_(row))
/* cnf_stream_step is the elements of a block of a loop whose outputs are streamed, the
 * largest of them elem bytes an element and all of them together row bytes: at most 4 KB of
 * each output and 16 KB of all at a time, at most block (the buffers' length), a multiple of 64
 * (so that blocks after the peel stay aligned). A streaming store leaves the core at memory
 * speed; a block's copy out of 8 KB or more stalled the loop's next reads on a Zen 4 VM, where
 * 4 KB ones overlapped with them (one read and two outputs: 10.8 ms in blocks of 1024 Ints, 6.4
 * ms in blocks of 512, 8.5 ms by plain stores: docs/performance.md, "Streaming 4 KB at a time"). */
static inline int64_t cnf_stream_step(int64_t elem, int64_t row, int64_t block) {
	int64_t s = 4096 / (elem > 0 ? elem : 1);
	const int64_t t = 16384 / (row > 0 ? row : 1);
	if (t < s) s = t;
	if (s > block) s = block;
	s -= s % 64;
	return s < 64 ? 64 : s;
}
/* cnf_stream_carry writes a block of an output (bytes from its buffer src, to their place dst)
 * with streaming stores, whole 64-byte lines only: the block's last partial line waits in the
 * output's carry c and goes out with the next block's first bytes, and cnf_stream_flush
 * writes what is left when the loop (or a team's chunk) is done. Blocks at a filter's rate
 * start anywhere in a line; written line by line with plain stores at both ends, as before,
 * such outputs moved at half the speed of those at the input's rate (a loop writing five of
 * them ran 1.8 times slower than with a carry: docs/performance.md, "Outputs at a filter's
 * rate, a line at a time"). Only the output's first bytes up to a line's start are plain
 * stores. cnf_stream_fence orders the streaming stores before what follows. */
typedef struct { unsigned char b[64]; size_t n; } cnf_carry;
static inline void cnf_stream_line(char *d, const char *s) {
#if defined(__AVX512F__)
	_mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
#elif defined(__AVX__)
	_mm256_stream_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
	_mm256_stream_si256((__m256i *)(d + 32), _mm256_loadu_si256((const __m256i *)(s + 32)));
#else
	memcpy(d, s, 64);
#endif
}
static CNF_OUTLINED void cnf_stream_carry(cnf_carry *c, void *dst, const void *src, size_t bytes) {
	char *d = (char *)dst;
	const char *s = (const char *)src;
	if (c->n > 0) {
		/* the carry holds the line that starts c->n bytes before d */
		const size_t k = 64 - c->n < bytes ? 64 - c->n : bytes;
		memcpy(c->b + c->n, s, k);
		c->n += k, d += k, s += k, bytes -= k;
		if (c->n < 64) return;
		cnf_stream_line(d - 64, (const char *)c->b);
		c->n = 0;
	} else if ((uintptr_t)d % 64 != 0) {
		/* the output's first bytes, up to a line's start */
		size_t head = 64 - (uintptr_t)d % 64;
		if (head > bytes) head = bytes;
		memcpy(d, s, head);
		d += head, s += head, bytes -= head;
	}
	for (; bytes >= 64; bytes -= 64, d += 64, s += 64) cnf_stream_line(d, s);
	memcpy(c->b, s, bytes);
	c->n = bytes;
}
/* cnf_stream_flush writes an output's carry c, the bytes before end (the output's end). */
static CNF_OUTLINED void cnf_stream_flush(cnf_carry *c, void *end) {
	memcpy((char *)end - c->n, c->b, c->n);
	c->n = 0;
}
static inline void cnf_stream_fence(void) {
#if defined(__AVX512F__) || defined(__AVX__)
	_mm_sfence();
#endif
}
/* cnf_chunk is where chunk i of t starts in n elements. */
static inline int64_t cnf_chunk(int64_t n, int t, int i) { return (int64_t)((__int128)n * i / t); }
static inline int64_t cnf_max_i64_(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t cnf_min_i64_(int64_t a, int64_t b) { return a < b ? a : b; }
/* cnf_team_move puts each chunk's piece of a filter's output after the pieces before it: chunk
 * c's cnt[c] elements of size bytes, written at the start of its chunk of n, move down to the
 * sum of the counts before it, in chunk order. The team copies each piece in steps no longer
 * than the distance it moves (a step never overwrites what it reads), a barrier after each; a
 * piece that can move only in steps of fewer than cnf_min_chunk / 4 elements (a filter that
 * keeps nearly everything) is moved by one thread. It returns the output's length. */
static CNF_OUTLINED int64_t cnf_team_move(char *data, size_t size, const int64_t *cnt, int64_t n, int T) {
	int64_t total = 0, moves = 0;
	for (int c = 0; c < T; c++) {
		moves += cnt[c] > 0 && cnf_chunk(n, T, c) != total;
		total += cnt[c];
	}
	if (T < 2 || moves == 0) return total; /* a map's output: every piece in place */
	const int64_t least = cnf_min_chunk / 4;
	#pragma omp parallel num_threads(T)
	{
		const int t = cnf_thread_num(), nt = cnf_num_threads();
		int64_t at = cnt[0];
		for (int c = 1; c < T; c++) {
			const int64_t lo = cnf_chunk(n, T, c), k = cnt[c], d = lo - at;
			if (k > 0 && d > 0) {
				const int64_t step = k < d ? k : d;
				if (step < least || nt < 2) {
					if (t == 0) memmove(data + (size_t)at * size, data + (size_t)lo * size, (size_t)k * size);
					#pragma omp barrier
				} else {
					for (int64_t s = 0; s < k; s += step) {
						const int64_t len = k - s < step ? k - s : step;
						const int64_t a0 = cnf_chunk(len, nt, t), a1 = cnf_chunk(len, nt, t + 1);
						if (a1 > a0) memcpy(data + (size_t)(at + s + a0) * size, data + (size_t)(lo + s + a0) * size, (size_t)(a1 - a0) * size);
						#pragma omp barrier
					}
				}
			}
			at += k;
		}
	}
	return total;
}
/* cnf_threads_from_env sets the threads from CNF_THREADS, CNF_MIN_CHUNK, CNF_MIN_PEEL and
 * CNF_STREAM_MIN (the harnesses). */
static void cnf_threads_from_env(void) {
	const char *t = getenv("CNF_THREADS"), *m = getenv("CNF_MIN_CHUNK"), *pl = getenv("CNF_MIN_PEEL"), *sm = getenv("CNF_STREAM_MIN");
	if (t && atoi(t) > 0) cnf_threads = atoi(t);
	if (m && atoll(m) >= 0) cnf_min_chunk = atoll(m);
	if (pl && atoll(pl) >= 0) cnf_min_peel = atoll(pl);
	if (sm && atoll(sm) > 0) {
		cnf_stream_min = atoll(sm);
		cnf_stream_fixed = 1;
	}
}

/* cnf_peel is how many of a loop's n elements of size bytes at p come before p's first 64-byte
 * boundary: the loop runs them as a first, short block (blocked.go), and the rest with vector
 * loads that never straddle two cache lines. A 64-byte load across a line costs two; on
 * NumPy's arrays, 16 bytes past a boundary, that was a fifth of a memory-bound loop's time
 * (docs/performance.md). 0: no peel (aligned, too short, or elements that do not tile 64
 * bytes). */
static inline int64_t cnf_peel(const void *p, size_t size, int64_t n) {
	const size_t off = (uintptr_t)p % 64;
	if (off == 0 || n < cnf_min_peel || n < 2 || 64 % size != 0 || off % size != 0) return 0;
	const int64_t k = (int64_t)((64 - off) / size);
	return k < n ? k : 0;
}


/* cnf_too_large fails for an array whose size overflows an Int. */
static void cnf_too_large(const char *w) __attribute__((noreturn, cold));
static void cnf_too_large(const char *w) {
	if (cnf_limit < INT64_MAX) cnf_fail(w, "the run would make more than %lld array elements, cnf run's limit", (long long)cnf_limit);
	cnf_fail(w, "the array would have more than 2^63 elements");
}

static inline int64_t cnf_quot(int64_t a, int64_t b, const char *w) {
	if (__builtin_expect(b == 0, 0)) cnf_fail(w, "division by zero");
	if (b == -1) return (int64_t)(0 - (uint64_t)a);
	return a / b;
}

static inline int64_t cnf_rem(int64_t a, int64_t b, const char *w) {
	if (__builtin_expect(b == 0, 0)) cnf_fail(w, "division by zero");
	if (b == -1) return 0;
	return a % b;
}

/* cnf_run_clamp is v, a place in a block of n elements, clamped to [lo, n]: where the run a slice
 * keeps of the block starts (lo 0) or ends (lo its start) (codegen/blocked.go, sliceRun), from
 * positions that may lie past an int64_t's range (a start plus a count). */
static inline int64_t cnf_run_clamp(__int128 v, int64_t lo, int64_t n) { return v < lo ? lo : v > n ? n : (int64_t)v; }

/* div and mod round toward negative infinity: the truncated quotient and remainder, corrected
 * where the remainder is not zero and its sign (a's) is not b's. Without a branch: the
 * correction depends on the data, and a branch on it is taken at random (a loop of bench/shapes
 * spent half its time in mispredictions). cnf_floor_fix is that condition as a mask (all ones
 * or zero) made of shifts alone: as (r != 0) & ((r ^ b) < 0), gcc wrote a setne into the low
 * byte of a register last written by the previous element's division, which chained every
 * division to the one before it (a loop of divisions by elements ran 2.2 times slower). */
static inline int64_t cnf_floor_fix(int64_t r, int64_t b) {
	return ((r ^ b) >> 63) & ((r | (int64_t)(0 - (uint64_t)r)) >> 63);
}

static inline int64_t cnf_div(int64_t a, int64_t b, const char *w) {
	int64_t q = cnf_quot(a, b, w), r = cnf_rem(a, b, w);
	return q + cnf_floor_fix(r, b);
}

static inline int64_t cnf_mod(int64_t a, int64_t b, const char *w) {
	int64_t m = cnf_rem(a, b, w);
	return m + (b & cnf_floor_fix(m, b));
}

static inline int64_t cnf_powi(int64_t a, int64_t b, const char *w) {
	if (b < 0) cnf_fail(w, "negative exponent %lld", (long long)b);
	return cnf_powi_(a, b);
}

static inline double cnf_powf(double a, int64_t b, const char *w) {
	if (b < 0) cnf_fail(w, "negative exponent %lld", (long long)b);
	return cnf_powf_(a, b);
}

/* cnf_divider divides by a number that stays the same while a loop runs (a sum, a parameter)
 * by a multiplication and shifts instead of idiv: the magic numbers of Hacker's Delight
 * (Warren, section 10-4, for 64 bits), made once before the loop. Division by 0 still fails
 * where the division happens (an empty loop never fails), 1 and -1 are special. */
typedef struct { int64_t d, m; int s; } cnf_divider;

static cnf_divider cnf_divider_for(int64_t d) {
	cnf_divider v = { d, 0, 0 };
	if (d == 0 || d == 1 || d == -1) return v;
	const uint64_t two63 = 0x8000000000000000ULL;
	uint64_t ad = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
	uint64_t t = two63 + ((uint64_t)d >> 63);
	uint64_t anc = t - 1 - t % ad;
	int p = 63;
	uint64_t q1 = two63 / anc, r1 = two63 - q1 * anc, q2 = two63 / ad, r2 = two63 - q2 * ad, delta;
	do {
		p++;
		q1 = 2 * q1; r1 = 2 * r1; if (r1 >= anc) { q1++; r1 -= anc; }
		q2 = 2 * q2; r2 = 2 * r2; if (r2 >= ad) { q2++; r2 -= ad; }
		delta = ad - r2;
	} while (q1 < delta || (q1 == delta && r1 == 0));
	v.m = (int64_t)(q2 + 1);
	if (d < 0) v.m = (int64_t)(0 - (uint64_t)v.m);
	v.s = p - 64;
	return v;
}

static inline int64_t cnf_quot_by(int64_t a, cnf_divider v, const char *w) {
	if (__builtin_expect(v.d == 0, 0)) cnf_fail(w, "division by zero");
	if (v.d == 1) return a;
	if (v.d == -1) return (int64_t)(0 - (uint64_t)a);
	int64_t q = (int64_t)(((__int128)v.m * a) >> 64);
	if (v.d > 0 && v.m < 0) q += a;
	if (v.d < 0 && v.m > 0) q -= a;
	q >>= v.s;
	return q + (int64_t)((uint64_t)q >> 63);
}

static inline int64_t cnf_rem_by(int64_t a, cnf_divider v, const char *w) {
	return (int64_t)((uint64_t)a - (uint64_t)cnf_quot_by(a, v, w) * (uint64_t)v.d);
}

static inline int64_t cnf_div_by(int64_t a, cnf_divider v, const char *w) {
	int64_t q = cnf_quot_by(a, v, w), r = cnf_rem_by(a, v, w);
	return q + cnf_floor_fix(r, v.d);
}

static inline int64_t cnf_mod_by(int64_t a, cnf_divider v, const char *w) {
	int64_t m = cnf_rem_by(a, v, w);
	return m + (v.d & cnf_floor_fix(m, v.d));
}

static inline int cnf_cmp_Int(int64_t a, int64_t b) { return (a > b) - (a < b); }
static inline int cnf_cmp_Float(double a, double b) { return a < b ? -1 : a > b ? 1 : 0; }
static inline int cnf_cmp_Bool(bool a, bool b) { return (int)a - (int)b; }

static inline int64_t cnf_f2i(double x) {
	if (isnan(x) || x >= 9223372036854775808.0 || x < -9223372036854775808.0) return INT64_MIN;
	return (int64_t)x;
}

static inline int64_t cnf_bound_add(int64_t a, int64_t b, const char *w) {
	int64_t r;
	if (__builtin_add_overflow(a, b, &r)) cnf_too_large(w);
	return r;
}

static inline int64_t cnf_bound_mul(int64_t a, int64_t b, const char *w) {
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r)) cnf_too_large(w);
	return r;
}

/* CNF_AT is xs ! i: the element, or the interpreter's error when i is out of range. */
#define CNF_AT(a, i, w) ({ __typeof__(a) cnf_a_ = (a); int64_t cnf_i_ = (i); \
	if (__builtin_expect(cnf_i_ < 0 || cnf_i_ >= cnf_a_.len, 0)) \
		cnf_fail(w, "index %lld out of range for an array of %lld elements", (long long)cnf_i_, (long long)cnf_a_.len); \
	cnf_a_.data[cnf_i_]; })

/* CNF_GATHER is xs ! i in a blocked pass that checks its indices after it (codegen/gathers.go):
 * data is xs's elements (cnf_none's when xs is empty), len its length; an index out of range
 * reads element 0 and sets bad, without a branch, so that gcc vectorises the pass. */
#define CNF_GATHER(data, len, i, bad) ({ int64_t cnf_i_ = (i); int cnf_ok_ = (uint64_t)cnf_i_ < (uint64_t)(len); \
	(bad) |= !cnf_ok_; (data)[cnf_ok_ ? cnf_i_ : 0]; })
static const union { int64_t i[1]; double f[1]; bool b[1]; } cnf_none __attribute__((unused)); /* what CNF_GATHER reads of an empty array */
`
