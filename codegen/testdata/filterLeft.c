/* Types: tuples are structs of fields f0, f1, ...; arrays are (data, len). */
typedef struct { int64_t *data; int64_t len; } Arr_Int;

/* Helpers */
#if defined(__AVX2__) && !defined(__AVX512F__)
/* cnf_pack4[m]: _mm256_permutevar8x32_epi32's indices moving the 8-byte lanes set in m to the front */
static const int32_t cnf_pack4[16][8] __attribute__((aligned(32))) = {
	{0, 1, 0, 1, 0, 1, 0, 1},
	{0, 1, 0, 1, 0, 1, 0, 1},
	{2, 3, 0, 1, 0, 1, 0, 1},
	{0, 1, 2, 3, 0, 1, 0, 1},
	{4, 5, 0, 1, 0, 1, 0, 1},
	{0, 1, 4, 5, 0, 1, 0, 1},
	{2, 3, 4, 5, 0, 1, 0, 1},
	{0, 1, 2, 3, 4, 5, 0, 1},
	{6, 7, 0, 1, 0, 1, 0, 1},
	{0, 1, 6, 7, 0, 1, 0, 1},
	{2, 3, 6, 7, 0, 1, 0, 1},
	{0, 1, 2, 3, 6, 7, 0, 1},
	{4, 5, 6, 7, 0, 1, 0, 1},
	{0, 1, 4, 5, 6, 7, 0, 1},
	{2, 3, 4, 5, 6, 7, 0, 1},
	{0, 1, 2, 3, 4, 5, 6, 7},
};
#endif
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
#if defined(__AVX2__) && !defined(__AVX512F__)
	for (; i + 4 <= n; i += 4) {
		int32_t w;
		memcpy(&w, keep + i, 4);
		const unsigned mk = (unsigned)_mm_movemask_epi8(_mm_slli_epi16(_mm_cvtsi32_si128(w), 7)) & 15u;
		const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
		_mm256_storeu_si256((__m256i *)(void *)(dst + j), _mm256_permutevar8x32_epi32(v, _mm256_load_si256((const __m256i *)(const void *)cnf_pack4[mk])));
		j += __builtin_popcount(mk);
	}
#endif
#if defined(__AVX512F__)
	for (; i + 8 <= n; i += 8) {
		__mmask8 mk = (__mmask8)_mm_movemask_epi8(_mm_slli_epi16(_mm_loadl_epi64((const __m128i *)(keep + i)), 7));
		_mm512_storeu_si512((void *)(dst + j), _mm512_maskz_compress_epi64(mk, _mm512_loadu_si512((const void *)(src + i))));
		j += __builtin_popcount(mk);
	}
#endif
	for (; i + 2 <= n; i += 2) {
		const int64_t k0 = keep[i];
		dst[j] = src[i];
		dst[j + k0] = src[i + 1];
		j += k0 + keep[i + 1];
	}
	if (i < n) {
		dst[j] = src[i];
		j += keep[i];
	}
	return j;
}

/* filterLeft, compiled from its clustering into 1 loops. */
typedef struct { Arr_Int r0; /* ys1 */ Arr_Int r1; /* ys2 */ } cnf_result_filterLeft;

/* Loop 1:
 *   ys1 = map (+ 1) xs
 *   ys2 = filter even xs
 * Blocked: each binding a loop over a block of the input at a time.
 */
static __attribute__((noinline)) void cnf_L1_filterLeft(const Arr_Int v_xs, Arr_Int *restrict out_v_ys1, Arr_Int *restrict out_v_ys2) {
	Arr_Int v_ys1 = *out_v_ys1;
	Arr_Int v_ys2 = *out_v_ys2;
	{
	enum { L1_B = CNF_BLOCK(3 * sizeof(int64_t) + 1 * sizeof(uint8_t)) }; /* a block's elements: its buffers and its inputs' elements fill CNF_BLOCK_BYTES of the first-level cache */
	const int64_t L1_n = v_xs.len;
	static cnf_tune L1_tune; /* streaming or plain stores, as measured on this loop's first calls */
	const int64_t L1_moved = L1_n * (int64_t)(sizeof *v_xs.data + sizeof(int64_t) + sizeof(int64_t));
	const int L1_pick = cnf_stream_pick(&L1_tune, L1_moved);
	const int L1_stream = L1_pick & 1; /* outputs by streaming stores */
	const double L1_t0 = L1_pick & 2 ? cnf_now() : 0;
	const int64_t L1_bstep = L1_stream ? cnf_stream_step((int64_t)sizeof(int64_t), (int64_t)(sizeof(int64_t) + sizeof(int64_t)), L1_B) : L1_B; /* the blocks' elements: less when streamed (cnf_stream_step) */
	v_ys1.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ys1", v_xs.data);
	v_ys1.len = 0;
	v_ys2.data = cnf_alloc_slack_at(v_xs.len, sizeof(int64_t), "ys2", v_xs.data);
	v_ys2.len = 0;
	/* On a team of threads (codegen/parallel.go): each chunk of the input runs the loop
	 * on its own views of the arrays; outputs and folds are joined in chunk order. */
	const int L1_T = cnf_team(L1_n);
	const Arr_Int L1_o_v_xs = v_xs;
	const Arr_Int L1_o_v_ys1 = v_ys1;
	const Arr_Int L1_o_v_ys2 = v_ys2;
	int64_t L1_cnt_v_ys1[CNF_MAX_THREADS];
	int64_t L1_cnt_v_ys2[CNF_MAX_THREADS];
	int L1_Tc = L1_T;
	{
	/* In tiles (codegen/parallel.go, tiledLoop): each filtered output written once, in place. */
	const int64_t L1_tile = cnf_tile(), L1_K = L1_n > 0 ? (L1_n + L1_tile - 1) / L1_tile : 1;
	int64_t *L1_at = cnf_alloc_made(0, (L1_K + 1) * 1, sizeof(int64_t), "tiles", 0); /* where each tile's outputs start */
	int *L1_ready = cnf_alloc_made(0, L1_K + 1, sizeof(int), "tiles", 0); /* tile k's starts are published */
	memset(L1_ready, 0, (size_t)(L1_K + 1) * sizeof(int));
	for (int L1_i = 0; L1_i < 1; L1_i++) L1_at[L1_i] = 0;
	L1_ready[0] = 1;
	int64_t *L1_buf_v_ys2 = cnf_alloc_made(0, (L1_tile + 1) * L1_T, sizeof(int64_t), "tiles", 0); /* a tile's ys2, a thread's buffer each */
	int64_t L1_next = 0;
	#pragma omp parallel num_threads(L1_T)
	for (int64_t L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED); L1_c < L1_K; L1_c = __atomic_fetch_add(&L1_next, 1, __ATOMIC_RELAXED)) {
		const int64_t L1_lo = L1_c * L1_tile, L1_hi = L1_lo + L1_tile < L1_n ? L1_lo + L1_tile : L1_n;
		const Arr_Int v_xs = {L1_o_v_xs.data + L1_lo, L1_hi - L1_lo};
		Arr_Int v_ys1 = {L1_o_v_ys1.data + L1_lo, 0};
		Arr_Int v_ys2 = {L1_T > 1 ? L1_buf_v_ys2 + (L1_tile + 1) * cnf_thread_num() : L1_o_v_ys2.data + L1_at[L1_c * 1 + 0], 0};
		const int64_t L1_n = L1_hi - L1_lo;
		const int L1_kstream = L1_stream && L1_T <= 1; /* outputs at a filter's rate too: on more threads, each thread's buffer is streamed out (cnf_copy_out) */
		int64_t L1_w_ys1[L1_B]; /* a block of ys1, written out by streaming stores */
		cnf_carry L1_cy_ys1; /* and its last partial line */
		L1_cy_ys1.n = 0;
		int64_t L1_t_ys2 = 0;
		uint8_t L1_m_ys2[L1_B];
		int64_t L1_w_ys2[L1_B]; /* a block of ys2, written out by streaming stores */
		cnf_carry L1_cy_ys2; /* and its last partial line */
		L1_cy_ys2.n = 0;
		const int64_t L1_peel = cnf_peel(v_xs.data, sizeof *v_xs.data, L1_n);
		for (int64_t L1_base = 0, L1_step = L1_peel > 0 ? L1_peel : L1_bstep; L1_base < L1_n; L1_base += L1_step, L1_step = L1_bstep) {
			const int64_t L1_n_root = L1_n - L1_base < L1_step ? L1_n - L1_base : L1_step;
			const int64_t *restrict L1_b_xs = v_xs.data + L1_base;
			int64_t *restrict L1_b_ys1 = L1_stream ? L1_w_ys1 : v_ys1.data + v_ys1.len;
			CNF_IVDEP
			for (int64_t L1_k = 0; L1_k < L1_n_root; L1_k++) {
				/* ys1 = map (+ 1) xs */
				const int64_t L1_v_ys1 = (L1_b_xs[L1_k] + INT64_C(1));
				L1_b_ys1[L1_k] = L1_v_ys1;
				/* ys2 = filter even xs */
				const int64_t L1_c_ys2 = (((L1_b_xs[L1_k]) % 2 == 0)) != 0;
				L1_m_ys2[L1_k] = L1_c_ys2;
			}
			if (L1_stream) cnf_stream_carry(&L1_cy_ys1, v_ys1.data + v_ys1.len, L1_w_ys1, (size_t)L1_n_root * sizeof *v_ys1.data);
			v_ys1.len += L1_n_root;
			/* ys2 = filter even xs: the kept elements, without a branch */
			int64_t *restrict L1_b_ys2 = L1_kstream ? L1_w_ys2 : v_ys2.data + v_ys2.len;
			const int64_t L1_n_ys2 = cnf_compact_Int(L1_b_ys2, L1_b_xs, L1_m_ys2, L1_n_root);
			if (L1_kstream) cnf_stream_carry(&L1_cy_ys2, v_ys2.data + v_ys2.len, L1_w_ys2, (size_t)L1_n_ys2 * sizeof *v_ys2.data);
			v_ys2.len += L1_n_ys2;
			L1_t_ys2 += L1_n_ys2;
		}
		if (L1_stream) cnf_stream_flush(&L1_cy_ys1, v_ys1.data + v_ys1.len);
		if (L1_kstream) cnf_stream_flush(&L1_cy_ys2, v_ys2.data + v_ys2.len);
		if (L1_stream) cnf_stream_fence();
		cnf_wait(&L1_ready[L1_c]);
		const int64_t L1_at_v_ys2 = L1_at[L1_c * 1 + 0];
		L1_at[(L1_c + 1) * 1 + 0] = L1_at_v_ys2 + v_ys2.len;
		__atomic_store_n(&L1_ready[L1_c + 1], 1, __ATOMIC_RELEASE);
		if (v_ys2.len > 0 && L1_T > 1) cnf_copy_out(L1_o_v_ys2.data + L1_at_v_ys2, v_ys2.data, (size_t)v_ys2.len * sizeof *v_ys2.data);
	}
	L1_cnt_v_ys2[0] = L1_at[L1_K * 1 + 0];
	L1_cnt_v_ys1[0] = L1_n;
	cnf_free(L1_buf_v_ys2);
	cnf_free(L1_at);
	cnf_free(L1_ready);
	L1_Tc = 1;
	}
	/* ys1: each chunk's piece after the ones before it */
	v_ys1.len = cnf_team_move((char *)v_ys1.data, sizeof *v_ys1.data, L1_cnt_v_ys1, L1_n, L1_Tc);
	/* ys2: each chunk's piece after the ones before it */
	v_ys2.len = cnf_team_move((char *)v_ys2.data, sizeof *v_ys2.data, L1_cnt_v_ys2, L1_n, L1_Tc);
	cnf_team_done(L1_T);
	if (L1_pick & 2) cnf_stream_took(&L1_tune, L1_pick, L1_moved, L1_t0);
	}
	*out_v_ys1 = v_ys1;
	*out_v_ys2 = v_ys2;
}

static cnf_result_filterLeft cnf_filterLeft(Arr_Int v_xs) {
	Arr_Int v_ys1 = {0};
	Arr_Int v_ys2 = {0};
	cnf_L1_filterLeft(v_xs, &v_ys1, &v_ys2); /* loop 1: ys1, ys2 */
	return (cnf_result_filterLeft){v_ys1, v_ys2};
}

