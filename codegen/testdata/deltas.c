/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;
typedef struct { int64_t f0; int64_t f1; } Tup2_Int_Int;

/* Helpers */
static __attribute__((noinline)) int64_t cnf_compact_Int(int64_t *restrict dst, const int64_t *restrict src, const uint8_t *restrict keep, int64_t n) {
#if !(defined(__AVX512F__) && defined(__AVX512BW__))
	int64_t kept = 0;
	for (int64_t k = 0; k < n; k++) kept += keep[k];
	if (kept == 0) return 0;
	if (kept == n) { memcpy(dst, src, (size_t)n * sizeof *src); return n; }
#endif
	int64_t j = 0, i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
	for (; i + 64 <= n; i += 64) {
		const uint64_t m = _mm512_test_epi8_mask(_mm512_loadu_si512((const void *)(keep + i)), _mm512_set1_epi8(1));
		if (m == 0) continue;
		if (m == ~UINT64_C(0)) { memcpy(dst + j, src + i, 64 * sizeof *src); j += 64; continue; }
		for (int q = 0; q < 64; q += 8) {
			const __mmask8 mk = (__mmask8)(m >> q);
			_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i + q))));
			j += __builtin_popcount(mk);
		}
	}
#endif
#if defined(__AVX512F__)
	for (; i + 8 <= n; i += 8) {
		__mmask8 mk = (__mmask8)_mm_movemask_epi8(_mm_slli_epi16(_mm_loadl_epi64((const __m128i *)(keep + i)), 7));
		_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i))));
		j += __builtin_popcount(mk);
	}
#endif
	for (; i < n; i++) {
		dst[j] = src[i];
		j += keep[i];
	}
	return j;
}

/* deltas, compiled from its clustering into 1 loops. */
typedef struct { Arr_Int r0; /* ds */ Arr_Int r1; /* window */ Arr_Int r2; /* same */ int64_t r3; /* count */ int64_t r4; /* sameN */ } cnf_result_deltas;

static cnf_result_deltas cnf_deltas(Arr_Int v_xs, int64_t v_lo, int64_t v_n) {
	Arr_Int v_ds = {0};
	Arr_Int v_window = {0};
	Arr_Int v_same = {0};
	int64_t v_count;
	int64_t v_sameN;

	/* Loop 1:
	 *   rest = tail xs
	 *   numbered = indexed rest
	 *   is = unzip numbered
	 *   prev = gather xs is
	 *   ds = map2 (-) cur prev
	 *   later = drop lo ds
	 *   window = take n later
	 *   same = slice lo n ds
	 *   count = length window
	 *   sameN = length same
	 * Blocked: each binding a loop over blocks of 1024 elements.
	 */
	{
	/* On one thread: numbered (indexed) reads positions of a filtered rate across the chunks. */
	const int64_t L1_n = v_xs.len;
	int64_t L1_t_rest = 0;
	uint8_t L1_m_rest[1024];
	int64_t L1_b_rest[1024]; /* rest, a block at a time */
	int64_t L1_b_cur[1024]; /* cur, a block at a time */
	int64_t L1_b_prev[1024]; /* prev, a block at a time */
	v_ds.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ds", v_xs.data);
	v_ds.len = 0;
	int64_t L1_t_later = 0;
	uint8_t L1_m_later[1024];
	int64_t L1_b_later[1024]; /* later, a block at a time */
	int64_t L1_t_window = 0;
	uint8_t L1_m_window[1024];
	v_window.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "window", v_xs.data);
	v_window.len = 0;
	int64_t L1_t_same = 0;
	uint8_t L1_m_same[1024];
	v_same.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "same", v_xs.data);
	v_same.len = 0;
	int64_t L1_acc_count = 0; /* count's accumulator */
	int64_t L1_acc_sameN = 0; /* sameN's accumulator */
	const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
	for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : 1024; L1_base < L1_n; L1_base += L1_step, L1_step = 1024) {
		const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
		const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
		CNF_IVDEP
		for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
			/* rest = tail xs */
			const bool L1_c_rest = (((L1_base + L1_k) >= INT64_C(1))) != 0;
			L1_m_rest[L1_k] = L1_c_rest;
		}
		/* rest = tail xs: the kept elements, without a branch */
		const int64_t L1_n_rest = cnf_compact_Int(L1_b_rest, L1_b_xs, L1_m_rest, L1_n_root);
		/* the elements rest keeps */
		int64_t *restrict L1_b_ds = v_ds.data + v_ds.len;
		CNF_IVDEP
		for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
			/* numbered = indexed rest */
			const Tup2_Int_Int L1_v_numbered = ((Tup2_Int_Int){(L1_t_rest + L1_k), L1_b_rest[L1_k]});
			/* is = unzip numbered */
			const int64_t L1_v_is = L1_v_numbered.f0;
			const int64_t L1_v_cur = L1_v_numbered.f1;
			L1_b_cur[L1_k] = L1_v_cur;
			/* prev = gather xs is */
			const int64_t L1_v_prev = CNF_AT(v_xs, L1_v_is, "prev");
			L1_b_prev[L1_k] = L1_v_prev;
		}
		CNF_IVDEP
		for (int64_t L1_k = 0; L1_k < L1_n_rest; L1_k++) {
			/* ds = map2 (-) cur prev */
			const int64_t L1_v_ds = (L1_b_cur[L1_k] - L1_b_prev[L1_k]);
			L1_b_ds[L1_k] = L1_v_ds;
			/* later = drop lo ds */
			const bool L1_c_later = (((L1_t_rest + L1_k) >= v_lo)) != 0;
			L1_m_later[L1_k] = L1_c_later;
			/* same = slice lo n ds */
			const bool L1_c_same = ((((L1_t_rest + L1_k) >= v_lo) && ((v_n > INT64_C(0)) && (((L1_t_rest + L1_k) - v_n) < v_lo)))) != 0;
			L1_m_same[L1_k] = L1_c_same;
			/* sameN = length same */
			L1_acc_sameN += L1_c_same;
		}
		v_ds.len += L1_n_rest;
		/* later = drop lo ds: the kept elements, without a branch */
		const int64_t L1_n_later = cnf_compact_Int(L1_b_later, L1_b_ds, L1_m_later, L1_n_rest);
		/* same = slice lo n ds: the kept elements, without a branch */
		int64_t *restrict L1_b_same = v_same.data + v_same.len;
		const int64_t L1_n_same = cnf_compact_Int(L1_b_same, L1_b_ds, L1_m_same, L1_n_rest);
		v_same.len += L1_n_same;
		/* the elements later keeps */
		CNF_IVDEP
		for (int64_t L1_k = 0; L1_k < L1_n_later; L1_k++) {
			/* window = take n later */
			const bool L1_c_window = (((L1_t_later + L1_k) < v_n)) != 0;
			L1_m_window[L1_k] = L1_c_window;
			/* count = length window */
			L1_acc_count += L1_c_window;
		}
		/* window = take n later: the kept elements, without a branch */
		int64_t *restrict L1_b_window = v_window.data + v_window.len;
		const int64_t L1_n_window = cnf_compact_Int(L1_b_window, L1_b_later, L1_m_window, L1_n_later);
		v_window.len += L1_n_window;
		L1_t_rest += L1_n_rest;
		L1_t_later += L1_n_later;
		L1_t_window += L1_n_window;
		L1_t_same += L1_n_same;
	}
	v_count = L1_acc_count;
	v_sameN = L1_acc_sameN;
	}
	return (cnf_result_deltas){v_ds, v_window, v_same, v_count, v_sameN};
}

