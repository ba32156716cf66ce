// DuckDB and Polars on cnf bench's inputs (scripts/peers.sh):
//
//   POLARS_MAX_THREADS=T node peers.mjs T RUNS DIR PROGRAM...
//
// Each DIR/PROGRAM holds what `cnf bench --save` stored (in_NAME.npy, out_NAME.npy). The inputs
// become a table (DuckDB, loaded from Parquet) or a DataFrame (Polars) before any timing; each
// program is then written as a user of that tool writes it (SQL; Polars' expressions), its
// array results left in the tool's own memory (a DuckDB temporary table, a Polars Series), as
// cnf's loops leave theirs in memory. Results are checked against cnf's afterwards (Ints
// exactly, Floats to a relative 1e-9). Prints one JSON line per program and peer: the median
// of RUNS runs after a warm-up, on T threads. A benchmark, not a test.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';

const [threads, runs, root, ...names] = process.argv.slice(2);

// npy reads a .npy file written by cnf bench --save: Int and Float arrays and scalars, arrays
// of (Float, Float) as two columns, a host value of Floats as its Floats.
function npy(file) {
  const b = fs.readFileSync(file);
  const hl = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + hl);
  const m = /'descr': (.*), 'fortran_order': False, 'shape': \((\d*),?\)/.exec(header);
  if (!m) throw new Error(`${file}: header ${header}`);
  const data = b.buffer.slice(b.byteOffset + 10 + hl, b.byteOffset + b.length);
  const scalar = m[2] === '';
  const d = m[1];
  if (d === "'<i8'") return scalar ? new BigInt64Array(data)[0] : new BigInt64Array(data);
  if (d === "'<f8'" || d.startsWith("'|V")) return scalar && d === "'<f8'" ? new Float64Array(data)[0] : new Float64Array(data);
  if (d === "[('f0', '<f8'), ('f1', '<f8')]") {
    const all = new Float64Array(data);
    const n = all.length / 2;
    const x = new Float64Array(n), y = new Float64Array(n);
    for (let i = 0; i < n; i++) { x[i] = all[2 * i]; y[i] = all[2 * i + 1]; }
    return scalar ? { x: x[0], y: y[0] } : { x, y };
  }
  throw new Error(`${file}: cannot read dtype ${d}`);
}

const input = (dir, name) => npy(path.join(dir, `in_${name}.npy`));
const output = (dir, name) => npy(path.join(dir, `out_${name}.npy`));

function close(a, b) {
  if (typeof b === 'bigint') return BigInt(a) === b;
  if (typeof b === 'number') return Number(a) === b || Math.abs(Number(a) - b) <= 1e-9 * Math.abs(b);
  if (b.x) return close(a.x, b.x) && close(a.y, b.y);
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (!close(a[i], b[i])) return false;
  return true;
}

// Each program: its inputs as a DataFrame, the DuckDB statements (SQL; the last gives the
// scalar results), the Polars code, and how to read each tool's results for the check.
const programs = {
  normalize2: {
    frame: (d) => pl.DataFrame({ xs: pl.Series('xs', input(d, 'xs')) }),
    sql: [
      `CREATE OR REPLACE TEMP TABLE r AS
         WITH s AS (SELECT sum(xs)::BIGINT AS s1, (sum(xs) FILTER (WHERE xs > 0))::BIGINT AS s2 FROM t)
         SELECT xs // (SELECT s1 FROM s) AS ys1, xs // (SELECT s2 FROM s) AS ys2 FROM t`,
    ],
    duck: { ys1: 'SELECT ys1 FROM r', ys2: 'SELECT ys2 FROM r' },
    polars(df) {
      // Int division truncating toward zero (Polars' Int division floors): through Floats,
      // exact here (|xs| <= 1000), the cast truncating
      const xs = pl.col('xs'), xf = xs.cast(pl.Float64);
      const r = df.select(
        xf.div(xs.sum().cast(pl.Float64)).cast(pl.Int64).alias('ys1'),
        xf.div(xs.filter(xs.gt(0)).sum().cast(pl.Float64)).cast(pl.Int64).alias('ys2'));
      return { ys1: r.getColumn('ys1'), ys2: r.getColumn('ys2') };
    },
  },
  normalize2f: {
    frame: (d) => pl.DataFrame({ xs: pl.Series('xs', input(d, 'xs')) }),
    sql: [
      `CREATE OR REPLACE TEMP TABLE r AS
         WITH s AS (SELECT sum(xs) AS s1, sum(xs) FILTER (WHERE xs > 0) AS s2 FROM t)
         SELECT xs / (SELECT s1 FROM s) AS ys1, xs / (SELECT s2 FROM s) AS ys2 FROM t`,
    ],
    duck: { ys1: 'SELECT ys1 FROM r', ys2: 'SELECT ys2 FROM r' },
    polars(df) {
      const xs = pl.col('xs');
      const r = df.select(xs.div(xs.sum()).alias('ys1'), xs.div(xs.filter(xs.gt(0)).sum()).alias('ys2'));
      return { ys1: r.getColumn('ys1'), ys2: r.getColumn('ys2') };
    },
  },
  closestPoints: {
    frame: (d) => { const p = input(d, 'pts'); return pl.DataFrame({ x: p.x, y: p.y }); },
    sql: [
      `SET VARIABLE midy = (SELECT avg(y) FROM t)`,
      `CREATE OR REPLACE TEMP TABLE aboves AS SELECT x, y FROM t WHERE y >= getvariable('midy')`,
      `CREATE OR REPLACE TEMP TABLE belows AS SELECT x, y FROM t WHERE y < getvariable('midy')`,
      `CREATE OR REPLACE TEMP TABLE ab AS SELECT x, y FROM t WHERE y < getvariable('midy') - 0.5 AND y >= 0.5`,
      `CREATE OR REPLACE TEMP TABLE bb AS SELECT x, y FROM t WHERE y >= getvariable('midy') + 0.5 AND y < 0.5`,
      `SELECT least(0.5, coalesce(min(sqrt((ab.x - bb.x) ^ 2 + (ab.y - bb.y) ^ 2)), 0.5)) AS mins FROM ab, bb`,
    ],
    polars(df) {
      const y = pl.col('y');
      const midy = df.getColumn('y').mean();
      const aboves = df.filter(y.gtEq(midy)), belows = df.filter(y.lt(midy));
      const ab = df.filter(y.lt(midy - 0.5).and(y.gtEq(0.5)));
      const bb = df.filter(y.gtEq(midy + 0.5).and(y.lt(0.5)));
      let mins = 0.5;
      if (ab.height && bb.height) {
        const c = ab.join(bb, { how: 'cross' });
        const d = c.select(pl.col('x').minus(pl.col('x_right')).pow(2).plus(pl.col('y').minus(pl.col('y_right')).pow(2)).sqrt().alias('d'));
        mins = Math.min(mins, d.getColumn('d').min());
      }
      void aboves, void belows;
      return { mins };
    },
  },
  initialBounds: {
    frame: (d) => { const p = input(d, 'pts'); return pl.DataFrame({ x: p.x, y: p.y }); },
    sql: ['SELECT min(x) AS x1, min(y) AS y1, max(x) AS x2, max(y) AS y2 FROM t'],
    polars(df) {
      const x = df.getColumn('x'), y = df.getColumn('y');
      return { x1: x.min(), y1: y.min(), x2: x.max(), y2: y.max() };
    },
  },
  quadtree: {
    frame: (d) => { const p = input(d, 'ins'); return pl.DataFrame({ x: p.x, y: p.y }); },
    params: (d) => { const [x1, y1, x2, y2] = input(d, 'box'); return { x1, y1, x2, y2, mx: (x1 + x2) / 2, my: (y1 + y2) / 2 }; },
    sql: (b) => [[1, b.x1, b.mx, b.y1, b.my], [2, b.mx, b.x2, b.y1, b.my], [3, b.x1, b.mx, b.my, b.y2], [4, b.mx, b.x2, b.my, b.y2]]
      .map(([q, x1, x2, y1, y2]) => `CREATE OR REPLACE TEMP TABLE p${q} AS SELECT x, y FROM t WHERE ${x1} <= x AND x < ${x2} AND ${y1} <= y AND y < ${y2}`),
    duck: { p1: 'SELECT x, y FROM p1', p2: 'SELECT x, y FROM p2', p3: 'SELECT x, y FROM p3', p4: 'SELECT x, y FROM p4' },
    polars(df, b) {
      const x = pl.col('x'), y = pl.col('y');
      const left = x.gtEq(b.x1).and(x.lt(b.mx)), right = x.gtEq(b.mx).and(x.lt(b.x2));
      const low = y.gtEq(b.y1).and(y.lt(b.my)), high = y.gtEq(b.my).and(y.lt(b.y2));
      return {
        p1: df.filter(left.and(low)), p2: df.filter(right.and(low)), p3: df.filter(left.and(high)), p4: df.filter(right.and(high)),
      };
    },
  },
  quickhull: {
    frame: (d) => { const p = input(d, 'pts'); return pl.DataFrame({ x: p.x, y: p.y }); },
    params: (d) => { const [x1, y1, x2, y2] = input(d, 'l'); return { x1, y1, x2, y2 }; },
    sql: (l) => [
      `CREATE OR REPLACE TEMP TABLE ann AS SELECT x, y, (${l.x2} - ${l.x1}) * (y - ${l.y1}) - (${l.y2} - ${l.y1}) * (x - ${l.x1}) AS d FROM t`,
      `CREATE OR REPLACE TEMP TABLE above AS SELECT x, y FROM ann WHERE d > 0`,
      `SELECT arg_max(x, d) AS maxim_x, arg_max(y, d) AS maxim_y FROM ann`,
    ],
    duck: { above: 'SELECT x, y FROM above' },
    polars(df, l) {
      const x = pl.col('x'), y = pl.col('y');
      const ann = df.withColumns(pl.lit(l.x2 - l.x1).mul(y.minus(l.y1)).minus(pl.lit(l.y2 - l.y1).mul(x.minus(l.x1))).alias('d'));
      const m = ann.select(x.gather(pl.col('d').argMax()), y.gather(pl.col('d').argMax()));
      return { maxim: { x: m.getColumn('x').get(0), y: m.getColumn('y').get(0) }, above: ann.filter(pl.col('d').gt(0)).select('x', 'y') };
    },
  },
  pipeline: {
    frame: (d) => pl.DataFrame({ xs: pl.Series('xs', input(d, 'xs')) }),
    sql: [
      `SELECT (sum(z) FILTER (WHERE z > -2900))::BIGINT AS s, greatest(0, max(z))::BIGINT AS m, sum(y)::BIGINT AS n
         FROM (SELECT xs * 3 AS y, xs * 3 + 1 AS z FROM t)`,
    ],
    polars(df) {
      const ys = pl.col('xs').mul(3), zs = ys.plus(1);
      const r = df.select(zs.filter(zs.gt(-2900)).sum().alias('s'), zs.max().alias('m'), ys.sum().alias('n'));
      const v = (c) => r.getColumn(c).get(0);
      return { s: v('s'), m: v('m') > 0 ? v('m') : 0, n: v('n') };
    },
  },
};

// values makes a tool's result comparable with cnf's: a Series or a column as an array, a
// DataFrame of points as {x, y}.
function values(v) {
  if (v && typeof v.getColumn === 'function') return { x: v.getColumn('x').toArray(), y: v.getColumn('y').toArray() };
  if (v && typeof v.toArray === 'function') return v.toArray();
  return v;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(f) {
  await f();
  const ts = [];
  for (let k = 0; k < Number(runs); k++) {
    const t0 = performance.now();
    await f();
    ts.push((performance.now() - t0) / 1000);
  }
  return median(ts);
}

const duck = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const con = await duck.connect();
const versions = (await con.runAndReadAll('SELECT version()')).getRows()[0][0];
console.log(JSON.stringify({ versions: { DuckDB: versions, Polars: '0.25.2 (nodejs-polars)' } }));

for (const name of names) {
  const dir = path.join(root, name);
  const p = programs[name];
  const df = p.frame(dir);
  const params = p.params ? p.params(dir) : {};
  const want = {};
  for (const f of fs.readdirSync(dir)) if (f.startsWith('out_')) want[f.slice(4, -4)] = output(dir, f.slice(4, -4));

  // DuckDB: the table from Parquet (not timed), then the program's statements.
  const pq = path.join(dir, 't.parquet');
  df.writeParquet(pq);
  await con.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM '${pq}'`);
  const sql = typeof p.sql === 'function' ? p.sql(params) : p.sql;
  let last;
  const secs = await time(async () => {
    for (const q of sql) last = await con.runAndReadAll(q);
  });
  const got = {};
  if (last.columnCount && last.currentRowCount === 1) {
    last.columnNames().forEach((c, i) => { got[c] = last.getRows()[0][i]; });
    if ('maxim_x' in got) got.maxim = { x: got.maxim_x, y: got.maxim_y };
  }
  for (const [out, q] of Object.entries(p.duck ?? {})) {
    const cols = (await con.runAndReadAll(q)).getColumns();
    got[out] = cols.length === 2 ? { x: cols[0], y: cols[1] } : cols[0];
  }
  report(name, 'DuckDB', secs, got, want);
  fs.rmSync(pq);

  // Polars: the DataFrame in memory (not timed), then the program's expressions.
  let res;
  const psecs = await time(() => { res = p.polars(df, params); });
  const pgot = {};
  for (const [k, v] of Object.entries(res)) pgot[k] = values(v);
  report(name, 'Polars', psecs, pgot, want);
}

function report(program, peer, seconds, got, want) {
  const differ = Object.keys(want).filter((k) => !(k in got) || !close(got[k], want[k]));
  console.log(JSON.stringify({ program, peer, threads: Number(threads), seconds, agree: differ.length === 0, differ }));
}
